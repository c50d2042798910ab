/** The point a user would click: the centre of the part of the element that lies inside the viewport. */
export function visiblePoint(el: Element, rect: DOMRect): { x: number; y: number } | null {
  const win = el.ownerDocument.defaultView;
  if (!win) return null;
  const left = Math.max(rect.left, 0);
  const right = Math.min(rect.right, win.innerWidth);
  const top = Math.max(rect.top, 0);
  const bottom = Math.min(rect.bottom, win.innerHeight);
  if (right <= left || bottom <= top) return null;
  return { x: (left + right) / 2, y: (top + bottom) / 2 };
}

/** The element a click at (x, y) would reach, looking into the shadow roots the point falls in. */
export function elementAt(root: Document | ShadowRoot, x: number, y: number): Element | null {
  return root.elementFromPoint(x, y);
}

/**
 * True when a click on the element would land on something else: the topmost element at its visible point is
 * neither the element, inside it, one of its ancestors (pseudo-element overlays, pointer-events: none), nor a label
 * that forwards the click to it.
 */
export function isCovered(el: Element, rect: DOMRect): boolean {
  const hit = hitTarget(el, rect);
  return hit !== null && !reaches(hit, el);
}

export function hitTarget(el: Element, rect: DOMRect): Element | null {
  const point = visiblePoint(el, rect);
  if (!point) return null;
  const root = el.getRootNode() as Document | ShadowRoot;
  if (typeof root.elementFromPoint !== 'function') return null;
  return root.elementFromPoint(point.x, point.y);
}

/** Whether a click landing on `hit` reaches `el`. */
export function reaches(hit: Element, el: Element): boolean {
  if (hit === el || el.contains(hit) || hit.contains(el)) return true;
  const label = hit.closest('label');
  return label !== null && label.control === el;
}

/** A control shown in the view, to be hit-tested once the walk is done. */
export interface CoverCandidate {
  el: Element;
  /**
   * The part of its box that the boxes around it let show (scroll-clip.ts), in its own frame's viewport, and that
   * viewport's offset in the top frame's: its click point is in that part, not on what covers the rest.
   */
  rect: DOMRect;
  dx: number;
  dy: number;
  /** Its annotations, to which `covered` is added. */
  ann: string[];
}

/** An element painted above the normal flow (fixed, absolute or sticky), with the area its content takes. */
export interface Layer {
  el: Element;
  /** In the top frame's viewport. */
  box: { top: number; left: number; bottom: number; right: number };
}

/**
 * Adds `covered` to each candidate a click would not reach. A hit test costs time in proportion to the page (several
 * milliseconds each on a page of 10,000 elements), so only a control whose click point lies under a layer that is
 * not its own ancestor or descendant is tested: in normal flow nothing else can paint over it.
 */
export function markCovered(candidates: CoverCandidate[], layers: Layer[], width: number, height: number): void {
  const onScreen = layers.filter((l) => l.box.bottom > 0 && l.box.top < height && l.box.right > 0 && l.box.left < width);
  if (onScreen.length === 0) return;
  for (const candidate of candidates) {
    const point = visiblePoint(candidate.el, candidate.rect);
    if (!point) continue;
    const x = point.x + candidate.dx;
    const y = point.y + candidate.dy;
    const under = onScreen.some(
      ({ el, box }) => x >= box.left && x <= box.right && y >= box.top && y <= box.bottom && !el.contains(candidate.el) && !candidate.el.contains(el),
    );
    if (under && isCovered(candidate.el, candidate.rect)) candidate.ann.push('covered');
  }
}
