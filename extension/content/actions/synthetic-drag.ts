import type { Point } from './input-types';

function mouseInit(view: Window | null, at: Point, buttons: number): MouseEventInit {
  return { bubbles: true, cancelable: true, composed: true, view, clientX: at.x, clientY: at.y, screenX: at.x, screenY: at.y, button: 0, buttons };
}

/**
 * A drag made of dispatched events, where trusted input is not available. An element that starts a native drag
 * (draggable="true") gets the HTML drag-and-drop events with a shared DataTransfer; anything else gets the pointer and
 * mouse events that script-driven drags (jQuery UI, sliders) listen for, in a few moves (through `via`, when given).
 */
export function syntheticDrag(from: { el: Element; at: Point }, to: { el: Element; at: Point }, via: Point[] = []): void {
  const view = from.el.ownerDocument.defaultView;
  const native = from.el.closest('[draggable=true]');
  if (native) {
    const data = new DataTransfer();
    const drag = (type: string, target: Element, at: Point): boolean =>
      target.dispatchEvent(new DragEvent(type, { ...mouseInit(view, at, 1), dataTransfer: data }));
    drag('dragstart', native, from.at);
    drag('dragenter', to.el, to.at);
    drag('dragover', to.el, to.at);
    drag('drop', to.el, to.at);
    drag('dragend', native, to.at);
    return;
  }
  const steps = 8;
  from.el.dispatchEvent(new PointerEvent('pointerdown', { ...mouseInit(view, from.at, 1), pointerId: 1, pointerType: 'mouse', isPrimary: true }));
  from.el.dispatchEvent(new MouseEvent('mousedown', mouseInit(view, from.at, 1)));
  const doc = from.el.ownerDocument;
  const moves = via.length > 0 ? [...via, to.at] : Array.from({ length: steps }, (_, i) => ({ x: from.at.x + ((to.at.x - from.at.x) * (i + 1)) / steps, y: from.at.y + ((to.at.y - from.at.y) * (i + 1)) / steps }));
  for (const at of moves) {
    const under = doc.elementFromPoint(at.x, at.y) ?? doc.documentElement;
    under.dispatchEvent(new PointerEvent('pointermove', { ...mouseInit(view, at, 1), pointerId: 1, pointerType: 'mouse', isPrimary: true }));
    under.dispatchEvent(new MouseEvent('mousemove', mouseInit(view, at, 1)));
  }
  const end = doc.elementFromPoint(to.at.x, to.at.y) ?? to.el;
  end.dispatchEvent(new PointerEvent('pointerup', { ...mouseInit(view, to.at, 0), pointerId: 1, pointerType: 'mouse', isPrimary: true }));
  end.dispatchEvent(new MouseEvent('mouseup', mouseInit(view, to.at, 0)));
}
