import { visiblePoint } from '../perception/hit-test';
import type { InputDriver } from './input-types';

/** The element that scrolls when the wheel turns over `el`: itself or its nearest scrollable ancestor. */
export function scrollableOf(el: Element): Element | null {
  for (let node: Element | null = el; node; node = node.parentElement) {
    const style = node.ownerDocument.defaultView?.getComputedStyle(node);
    if (!style) break;
    const scrollsY = /(auto|scroll|overlay)/.test(style.overflowY) && node.scrollHeight > node.clientHeight;
    const scrollsX = /(auto|scroll|overlay)/.test(style.overflowX) && node.scrollWidth > node.clientWidth;
    if (scrollsY || scrollsX) return node;
  }
  return null;
}

type Direction = 'up' | 'down' | 'left' | 'right';

/** Waits until a scroll position stops moving (a wheel scroll may be animated), up to a second. */
async function settledPosition(read: () => number): Promise<number> {
  let last = read();
  for (let waited = 0, still = 0; waited < 1000 && still < 3; waited += 30) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const now = read();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return last;
}

/**
 * Scrolls with the mouse wheel over the box (or the middle of the page), as a person does, so pages that load more on
 * wheel events or scroll smoothly see what they expect; where that is not possible (no trusted input, a page that
 * swallows the wheel, a nested box under the pointer) it scrolls by script. Says where it ended up.
 */
export async function scrollWithInput(win: Window, box: Element | null, direction: Direction, pages: number, driver: InputDriver): Promise<string> {
  const target = box ?? win.document.scrollingElement ?? win.document.documentElement;
  const vertical = direction === 'up' || direction === 'down';
  const read = (): number => (vertical ? target.scrollTop : target.scrollLeft);
  const size = box ? (vertical ? box.clientHeight : box.clientWidth) : vertical ? win.innerHeight : win.innerWidth;
  const amount = Math.round(size * 0.85 * pages) * (direction === 'up' || direction === 'left' ? -1 : 1);
  const point = box ? visiblePoint(box, box.getBoundingClientRect()) : { x: win.innerWidth / 2, y: win.innerHeight / 2 };
  const under = point ? win.document.elementFromPoint(point.x, point.y) : null;
  const reaches = under !== null && (box ? box.contains(under) : scrollableOf(under) === null);
  if (point && reaches && driver.trusted()) {
    const before = read();
    if (await driver.wheel(box ?? win.document.documentElement, point, vertical ? 0 : amount, vertical ? amount : 0)) {
      const after = await settledPosition(read);
      if (after !== before) return describeScroll(target, vertical, before, after, amount > 0);
    }
  }
  return scrollBy(win, box, direction, pages);
}

function describeScroll(target: Element, vertical: boolean, before: number, after: number, forward: boolean): string {
  const max = vertical ? target.scrollHeight - target.clientHeight : target.scrollWidth - target.clientWidth;
  const where = `${vertical ? 'top' : 'left'} now at ${Math.round(after)} of ${Math.max(0, Math.round(max))} px`;
  if (after === before) return `did not move: already at the ${forward ? 'end' : 'start'} (${where})`;
  return after >= max - 1 && forward ? `reached the end (${where})` : where;
}

/**
 * Scrolls a box (the page when `box` is null) by a number of its own heights or widths, and says where it ended up,
 * including whether it was already at the end (an infinite list loads more when it gets there).
 */
export function scrollBy(win: Window, box: Element | null, direction: Direction, pages: number): string {
  const target = box ?? win.document.scrollingElement ?? win.document.documentElement;
  const vertical = direction === 'up' || direction === 'down';
  const size = box ? (vertical ? box.clientHeight : box.clientWidth) : vertical ? win.innerHeight : win.innerWidth;
  const sign = direction === 'up' || direction === 'left' ? -1 : 1;
  const amount = Math.round(size * 0.85 * pages) * sign;
  const before = vertical ? target.scrollTop : target.scrollLeft;
  if (box) box.scrollBy({ top: vertical ? amount : 0, left: vertical ? 0 : amount, behavior: 'instant' });
  else win.scrollBy({ top: vertical ? amount : 0, left: vertical ? 0 : amount, behavior: 'instant' });
  const after = vertical ? target.scrollTop : target.scrollLeft;
  return describeScroll(target, vertical, before, after, sign > 0);
}
