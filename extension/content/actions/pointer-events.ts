import type { DomAccess } from '../perception/dom-access';
import { reaches, visiblePoint } from '../perception/hit-test';
import { clipOf, clipped } from '../perception/scroll-clip';

/** Less than this much of an element showing in the box that scrolls it (in either direction) is too little to aim at. */
const MIN_SHOWN = 8;

/**
 * Scrolls the element to the middle of the viewport, and of every scrolling box that holds it, unless it is wholly in
 * the viewport and shows in those boxes. A box that scrolls on its own (a mail list, a menu in a 160-pixel panel) clips
 * what it holds: the centre of an element scrolled out of it is a point on whatever is drawn there instead, often the
 * box itself, where a click does nothing. An element that shows in part is aimed at in that part, as the snapshot
 * judged it (covered or not) by that part.
 */
export function scrollIntoViewIfNeeded(el: Element): void {
  const rect = el.getBoundingClientRect();
  const win = el.ownerDocument.defaultView;
  if (!win) return;
  const inside = rect.top >= 0 && rect.left >= 0 && rect.bottom <= win.innerHeight && rect.right <= win.innerWidth;
  if (!inside || !showsEnough(rect, clipped(rect, clipOf(el)))) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}

function showsEnough(rect: DOMRect, shown: DOMRect | null): boolean {
  return shown !== null && shown.width >= Math.min(MIN_SHOWN, rect.width) && shown.height >= Math.min(MIN_SHOWN, rect.height);
}

/** The deepest element at a point, looking into open and closed shadow roots. */
export function deepElementAt(root: Document | ShadowRoot, x: number, y: number, access: DomAccess): Element | null {
  let hit = root.elementFromPoint(x, y);
  for (let depth = 0; hit && depth < 16; depth += 1) {
    const shadow = access.shadowRootOf(hit);
    const inner = shadow?.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** A short description of the element a click would hit instead: `<div class="modal-backdrop">`. */
export function describeElement(el: Element): string {
  const id = el.id ? ` id="${el.id.slice(0, 30)}"` : '';
  const cls = typeof el.className === 'string' && el.className.trim() ? ` class="${el.className.trim().slice(0, 40)}"` : '';
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
  return `<${el.tagName.toLowerCase()}${id}${cls}>${text ? ` "${text}"` : ''}`;
}

export type Aim = { ok: true; target: Element; x: number; y: number } | { ok: false; coveredBy: Element } | { ok: true; target: null };

/**
 * Where a user's pointer would land on the element: its visible centre, and the element actually there. A point on
 * something that does not forward to the element means the element is covered; no visible point means the caller
 * falls back to the element's own click().
 */
export function aimAt(el: Element, access: DomAccess): Aim {
  scrollIntoViewIfNeeded(el);
  const rect = el.getBoundingClientRect();
  const point = visiblePoint(el, clipped(rect, clipOf(el)) ?? rect);
  if (!point) return { ok: true, target: null };
  const root = el.getRootNode() as Document | ShadowRoot;
  const hit = root.elementFromPoint(point.x, point.y);
  if (!hit) return { ok: true, target: null };
  if (!reaches(hit, el)) return { ok: false, coveredBy: hit };
  const deep = el.contains(hit) || hit.closest('label') ? deepElementAt(root, point.x, point.y, access) : el;
  return { ok: true, target: deep && (el.contains(deep) || deep.closest('label')) ? deep : el, x: point.x, y: point.y };
}

function mouseInit(el: Element, x: number, y: number, extra: MouseEventInit): PointerEventInit {
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: el.ownerDocument.defaultView,
    clientX: x,
    clientY: y,
    screenX: x,
    screenY: y,
    pointerId: 1,
    pointerType: 'mouse',
    isPrimary: true,
    ...extra,
  };
}

/**
 * Moves the pointer onto the element: the events a real mouse sends on the way in, which open menus driven by script.
 * Events sent by script do not set CSS :hover, so content shown only by a :hover rule stays hidden (and unnumbered).
 */
export function dispatchHover(target: Element, x: number, y: number): void {
  const init = mouseInit(target, x, y, { button: 0, buttons: 0 });
  target.dispatchEvent(new PointerEvent('pointerover', init));
  target.dispatchEvent(new PointerEvent('pointerenter', { ...init, bubbles: false }));
  target.dispatchEvent(new MouseEvent('mouseover', init));
  target.dispatchEvent(new MouseEvent('mouseenter', { ...init, bubbles: false }));
  target.dispatchEvent(new PointerEvent('pointermove', init));
  target.dispatchEvent(new MouseEvent('mousemove', init));
}

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable=""], [contenteditable=true]';

/**
 * The sequence a real left click sends, at the point: hover, press (which focuses the control), release, click.
 * The click event's default action follows links, toggles checkboxes and submits forms, as a user's click does.
 */
export function dispatchClick(target: Element, x: number, y: number, count: number): void {
  dispatchHover(target, x, y);
  for (let detail = 1; detail <= count; detail += 1) {
    const down = mouseInit(target, x, y, { button: 0, buttons: 1, detail });
    const pointerDown = target.dispatchEvent(new PointerEvent('pointerdown', down));
    const mouseDown = pointerDown && target.dispatchEvent(new MouseEvent('mousedown', down));
    if (mouseDown) {
      const focusable = target.closest<HTMLElement>(FOCUSABLE);
      focusable?.focus({ preventScroll: true });
    }
    const up = mouseInit(target, x, y, { button: 0, buttons: 0, detail });
    target.dispatchEvent(new PointerEvent('pointerup', up));
    target.dispatchEvent(new MouseEvent('mouseup', up));
    target.dispatchEvent(new MouseEvent('click', up));
  }
  if (count === 2) target.dispatchEvent(new MouseEvent('dblclick', mouseInit(target, x, y, { button: 0, buttons: 0, detail: 2 })));
}
