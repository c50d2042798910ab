import { AppError } from '../../../shared/errors';
import type { ElementAction } from '../../../shared/perception/element-action';
import type { DomAccess } from '../perception/dom-access';
import type { InputDriver } from './input-types';
import { deepElementAt, describeElement } from './pointer-events';

type PointAction = Extract<ElementAction, { kind: 'point' }>;

/**
 * A position of the screenshot as a point of the top frame's viewport. The screenshot is the browser's capture of the
 * tab, in device pixels: on a high-density screen, or with the page zoomed, one CSS pixel is `devicePixelRatio` of
 * them, so a position read off the image is divided by it (at 1 they are the same).
 */
export function fromScreenshot(win: Window | null, x: number, y: number): { x: number; y: number } {
  const scale = screenshotScale(win);
  return { x: x / scale, y: y / scale };
}

/** Screenshot pixels per CSS pixel of the viewport. */
function screenshotScale(win: Window | null): number {
  return win && Number.isFinite(win.devicePixelRatio) && win.devicePixelRatio > 0 ? win.devicePixelRatio : 1;
}

/**
 * The element under a position of the screenshot (into shadow roots), or an error that says where the visible page
 * ends, in the screenshot's pixels.
 */
export function elementAtPoint(doc: Document, x: number, y: number, access: DomAccess): Element {
  const win = doc.defaultView;
  const at = fromScreenshot(win, x, y);
  if (win && (at.x >= win.innerWidth || at.y >= win.innerHeight)) {
    const scale = screenshotScale(win);
    throw new AppError(
      'invalid_params',
      `(${Math.round(x)}, ${Math.round(y)}) is outside the visible page, which is ${Math.round(win.innerWidth * scale)} x ${Math.round(win.innerHeight * scale)} in screenshot pixels: scroll first, then read the position off a new screenshot`,
    );
  }
  const hit = deepElementAt(doc, at.x, at.y, access);
  if (!hit) throw new AppError('not_found', `nothing of the page is at (${Math.round(x)}, ${Math.round(y)})`);
  return hit;
}

/** Where an element is, for the evidence: its box in viewport pixels. */
function boxOf(el: Element): string {
  const r = el.getBoundingClientRect();
  return `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
}

/**
 * Clicks, hovers or drags at a point of the top frame's viewport through the same input driver as element actions
 * (trusted input through the debugger, else synthetic events on the element under the point). The evidence names
 * the element under the point, and for a drag where the element it started on is now, so the model can tell whether
 * the drag landed where it meant.
 */
export async function pointAt(doc: Document, action: PointAction, access: DomAccess, driver: InputDriver): Promise<{ message: string; evidence: string[] }> {
  // Positions are told back as the model gave them (screenshot pixels); the input goes to the viewport's point.
  const at = fromScreenshot(doc.defaultView, action.x, action.y);
  const where = `(${Math.round(action.x)}, ${Math.round(action.y)})`;
  const hit = elementAtPoint(doc, action.x, action.y, access);
  const evidence = [`under ${where}: ${describeElement(hit)}`];
  switch (action.op) {
    case 'click':
    case 'double':
      await driver.click(hit, at, action.op === 'double' ? 2 : 1);
      return { message: `${action.op === 'double' ? 'double-clicked' : 'clicked'} at ${where}`, evidence };
    case 'hover':
      await driver.hover(hit, at);
      return { message: `moved the mouse to ${where}`, evidence };
    case 'drag': {
      if (action.toX === undefined || action.toY === undefined) throw new AppError('invalid_params', 'a drag at a position needs where it ends (to_x, to_y)');
      const to = fromScreenshot(doc.defaultView, action.toX, action.toY);
      const drop = elementAtPoint(doc, action.toX, action.toY, access);
      // Each point of a drawn path must be on the visible page, as its ends must.
      for (const point of action.via ?? []) elementAtPoint(doc, point.x, point.y, access);
      const via = (action.via ?? []).map((point) => fromScreenshot(doc.defaultView, point.x, point.y));
      const before = boxOf(hit);
      await driver.drag({ el: hit, at }, { el: drop, at: to }, via);
      const after = boxOf(hit);
      const end = `(${Math.round(action.toX)}, ${Math.round(action.toY)})`;
      evidence.push(`under ${end} before the drop: ${describeElement(drop)}`);
      if (hit.isConnected && after !== before) evidence.push(`the element it started on moved from ${before} to ${after} (viewport CSS pixels)`);
      return { message: `dragged from ${where}${via.length ? ` through ${via.length} points` : ''} to ${end}`, evidence };
    }
  }
}
