import { AppError } from '../../../shared/errors';
import type { DomAccess } from '../perception/dom-access';
import { visiblePoint } from '../perception/hit-test';
import { clipOf, clipped } from '../perception/scroll-clip';
import type { InputDriver, Point } from './input-types';
import { aimAt, describeElement, scrollIntoViewIfNeeded } from './pointer-events';

export type DropPosition = 'center' | 'before' | 'after';

/**
 * Where on the target a drop lands: its centre, or a quarter of the way in from its start or its end along the axis the
 * drag travels (down a list, across a row). In a sortable list that is past the middle of the item, which is where
 * lists decide before or after.
 */
export function dropPoint(rect: DOMRect, point: Point, from: Point, position: DropPosition): Point {
  if (position === 'center') return point;
  const vertical = Math.abs(point.y - from.y) >= Math.abs(point.x - from.x);
  const share = position === 'before' ? 0.25 : 0.75;
  return vertical ? { x: point.x, y: rect.top + rect.height * share } : { x: rect.left + rect.width * share, y: point.y };
}

/**
 * A drop onto an item of the same list means taking its place: a list moves an item past another only once the pointer
 * is beyond the other's middle, so a drop at the centre would land one place short. Moving forward (down, right) it
 * goes after the target, moving back before it; a drop zone (not a sibling) keeps its centre.
 */
export function placeFor(el: Element, target: Element, point: Point, from: Point, position: DropPosition): DropPosition {
  if (position !== 'center' || el.parentElement === null || el.parentElement !== target.parentElement) return position;
  const forward = Math.abs(point.y - from.y) >= Math.abs(point.x - from.x) ? point.y > from.y : point.x > from.x;
  return forward ? 'after' : 'before';
}

function place(el: Element): string {
  const parent = el.parentElement;
  if (!parent) return '';
  const siblings = Array.from(parent.children).filter((child) => child.tagName === el.tagName);
  return siblings.length > 1 ? `${siblings.indexOf(el) + 1} of ${siblings.length}` : '';
}

/** What a drag changed about the dragged element: its place among its siblings, where it is drawn, its value. */
export interface DragWatch {
  evidence(): string[];
}

function watchDragged(el: Element): DragWatch {
  const before = { place: place(el), rect: el.getBoundingClientRect(), value: (el as HTMLInputElement).value, parent: el.parentElement };
  return {
    evidence() {
      const out: string[] = [];
      if (!el.isConnected) return ['the dragged element is no longer on the page (it was moved or replaced)'];
      if (el.parentElement !== before.parent) out.push(`the dragged element moved into ${el.parentElement ? describeElement(el.parentElement) : 'another place'}`);
      const now = place(el);
      if (now && now !== before.place) out.push(`the dragged element is now ${now} in its list (was ${before.place})`);
      const rect = el.getBoundingClientRect();
      const dx = Math.round(rect.left - before.rect.left);
      const dy = Math.round(rect.top - before.rect.top);
      if (dx !== 0 || dy !== 0) out.push(`the dragged element moved by ${dx}, ${dy} px`);
      const value = (el as HTMLInputElement).value;
      if (typeof value === 'string' && value !== before.value) out.push(`its value is now ${JSON.stringify(value)} (was ${JSON.stringify(before.value)})`);
      return out;
    },
  };
}

/**
 * Drags an element with the pointer onto another element (or by an offset), the way a person does: from a point that
 * really lands on it, to a point on the target that is in view. Sortable lists, sliders, drag-and-drop zones and
 * movable boxes all take it; the evidence says where the element ended up.
 */
export async function dragElement(
  el: Element,
  target: Element | null,
  offset: Point,
  position: DropPosition,
  access: DomAccess,
  driver: InputDriver,
  cover: (el: Element) => string = describeElement,
): Promise<{ watch: DragWatch }> {
  if (target) scrollIntoViewIfNeeded(target);
  const aim = aimAt(el, access);
  if (!aim.ok) throw new AppError('forbidden', `[@] is covered by ${cover(aim.coveredBy)}: a drag would start there. Close or dismiss it first`);
  if (aim.target === null) throw new AppError('forbidden', '[@] has no visible point to start a drag from: scroll it into view first');
  const from = { x: aim.x, y: aim.y };
  let to: Point | null;
  if (target) {
    if (target === el) throw new AppError('invalid_params', '[@] cannot be dropped onto itself: name another element, or an offset');
    const rect = target.getBoundingClientRect();
    // The part of the target that shows in the boxes that scroll it, as for the start.
    const centre = visiblePoint(target, clipped(rect, clipOf(target)) ?? rect);
    to = centre && dropPoint(rect, centre, from, placeFor(el, target, centre, from, position));
    if (!to) throw new AppError('forbidden', 'the drop target is not in view together with [@]: scroll so that both show, or drag by an offset');
  } else {
    if (offset.x === 0 && offset.y === 0) throw new AppError('invalid_params', 'a drag needs a target element or an offset (dx, dy)');
    to = { x: from.x + offset.x, y: from.y + offset.y };
  }
  const watch = watchDragged(el);
  await driver.drag({ el: aim.target, at: from }, { el: target ?? el, at: to });
  return { watch };
}
