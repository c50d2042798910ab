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

/**
 * Scrolls a box (the page when `box` is null) by a number of its own heights or widths, and says where it ended up,
 * including whether it was already at the end (an infinite list loads more when it gets there).
 */
export function scrollBy(win: Window, box: Element | null, direction: 'up' | 'down' | 'left' | 'right', pages: number): string {
  const target = box ?? win.document.scrollingElement ?? win.document.documentElement;
  const vertical = direction === 'up' || direction === 'down';
  const size = box ? (vertical ? box.clientHeight : box.clientWidth) : vertical ? win.innerHeight : win.innerWidth;
  const sign = direction === 'up' || direction === 'left' ? -1 : 1;
  const amount = Math.round(size * 0.85 * pages) * sign;
  const before = vertical ? target.scrollTop : target.scrollLeft;
  if (box) box.scrollBy({ top: vertical ? amount : 0, left: vertical ? 0 : amount, behavior: 'instant' });
  else win.scrollBy({ top: vertical ? amount : 0, left: vertical ? 0 : amount, behavior: 'instant' });
  const after = vertical ? target.scrollTop : target.scrollLeft;
  const max = vertical ? target.scrollHeight - target.clientHeight : target.scrollWidth - target.clientWidth;
  const where = `${vertical ? 'top' : 'left'} now at ${Math.round(after)} of ${Math.max(0, Math.round(max))} px`;
  if (after === before) return `did not move: already at the ${sign > 0 ? 'end' : 'start'} (${where})`;
  return after >= max - 1 && sign > 0 ? `reached the end (${where})` : where;
}
