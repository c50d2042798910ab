type Direction = 'up' | 'down' | 'left' | 'right';

/** How far a scrolling element can still move in a direction, in pixels. */
export function roomToScroll(el: Element, direction: Direction): number {
  switch (direction) {
    case 'up':
      return el.scrollTop;
    case 'down':
      return el.scrollHeight - el.clientHeight - el.scrollTop;
    case 'left':
      return el.scrollLeft;
    case 'right':
      return el.scrollWidth - el.clientWidth - el.scrollLeft;
  }
}

/** At most this many elements are looked at for a box to scroll (a page-sized walk, not a snapshot's). */
const WALK_LIMIT = 20_000;

/**
 * The box a scroll without a ref moves: none (the page) while the page itself can move that way; else the box in
 * view that holds content out of sight in that direction, the largest on screen, as a person turns the wheel over the
 * list that hides the rest (a page whose list scrolls inside a fixed frame says "N more elements above" too).
 */
export function boxForPageScroll(win: Window, direction: Direction): Element | null {
  const doc = win.document;
  const page = doc.scrollingElement ?? doc.documentElement;
  if (roomToScroll(page, direction) > 1) return null;
  const vertical = direction === 'up' || direction === 'down';
  let best: Element | null = null;
  let bestArea = 0;
  const walker = doc.createTreeWalker(doc.body ?? doc.documentElement, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode() as Element | null, seen = 0; node && seen < WALK_LIMIT; node = walker.nextNode() as Element | null, seen += 1) {
    if (roomToScroll(node, direction) <= 1) continue;
    const style = win.getComputedStyle(node);
    if (!/(auto|scroll|overlay)/.test(vertical ? style.overflowY : style.overflowX) || style.visibility === 'hidden') continue;
    const rect = node.getBoundingClientRect();
    const width = Math.min(rect.right, win.innerWidth) - Math.max(rect.left, 0);
    const height = Math.min(rect.bottom, win.innerHeight) - Math.max(rect.top, 0);
    const area = width > 0 && height > 0 ? width * height : 0;
    if (area > bestArea) [best, bestArea] = [node, area];
  }
  return best;
}
