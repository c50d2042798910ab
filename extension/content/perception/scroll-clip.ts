/**
 * The part of its frame's viewport an element can be seen through: every box around it that clips its overflow (a list
 * or a calendar that scrolls on its own, a carousel) cuts it to that box's inside. An element wholly outside is
 * scrolled out of view there, whatever the page around it shows; one partly outside is seen, and clicked, in the part
 * left. Kept during the snapshot's walk, one box at a time, so no element asks its ancestors.
 */
export interface Clip {
  left: number;
  top: number;
  right: number;
  bottom: number;
  /**
   * Whether a positioned element is the innermost clipping box or lies inside it: an absolutely positioned element is
   * placed against the nearest one, and is cut by the box only when that one is inside the box (or is the box).
   */
  positioned: boolean;
}

/**
 * The clip an element itself is seen through: its parent's, except that a fixed element is drawn against the viewport,
 * and an absolutely positioned one escapes a box whose inside holds no positioned element (its containing block is
 * further out). Transforms, which change both, are not followed: the clip is then the one without them.
 */
export function ownClip(position: string, outer: Clip | null): Clip | null {
  if (!outer || position === 'fixed') return null;
  if (position === 'absolute' && !outer.positioned) return null;
  return outer;
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * The clip an element's children are seen through: `own`, cut to the element's padding box when it clips its overflow
 * on either axis. Inline boxes and SVG drawings clip nothing this way (an inline box has no inside of its own).
 */
export function innerClip(el: Element, style: CSSStyleDeclaration, rect: () => DOMRect, own: Clip | null): Clip | null {
  const positioned = style.position !== 'static';
  const clipsX = style.overflowX !== 'visible';
  const clipsY = style.overflowY !== 'visible';
  const display = style.display;
  if (!(clipsX || clipsY) || display === 'inline' || display === 'contents' || el.namespaceURI !== HTML_NS) {
    return own && positioned && !own.positioned ? { ...own, positioned: true } : own;
  }
  const box = rect();
  const left = box.left + el.clientLeft;
  const top = box.top + el.clientTop;
  const inside = {
    left: clipsX ? left : -Infinity,
    right: clipsX ? left + el.clientWidth : Infinity,
    top: clipsY ? top : -Infinity,
    bottom: clipsY ? top + el.clientHeight : Infinity,
  };
  if (!own) return { ...inside, positioned };
  return {
    left: Math.max(own.left, inside.left),
    right: Math.min(own.right, inside.right),
    top: Math.max(own.top, inside.top),
    bottom: Math.min(own.bottom, inside.bottom),
    positioned,
  };
}

/**
 * The part of an element's box left by the clip, or null when none is: the element is scrolled (or cut) out of view in
 * the box that holds it. Half a pixel of rounding is not a part.
 */
export function clipped(rect: DOMRect, clip: Clip | null): DOMRect | null {
  if (!clip) return rect;
  const left = Math.max(rect.left, clip.left);
  const right = Math.min(rect.right, clip.right);
  const top = Math.max(rect.top, clip.top);
  const bottom = Math.min(rect.bottom, clip.bottom);
  if (right - left < 0.5 || bottom - top < 0.5) return null;
  return left === rect.left && right === rect.right && top === rect.top && bottom === rect.bottom ? rect : new DOMRect(left, top, right - left, bottom - top);
}

/**
 * The clip an element is seen through, found from its ancestors by the same rules the snapshot's walk applies (for an
 * action, which has the element and not the walk): what a click can reach of it is what the snapshot showed of it.
 */
export function clipOf(el: Element): Clip | null {
  const win = el.ownerDocument.defaultView;
  if (!win) return null;
  const chain: Element[] = [];
  for (let up = parentOf(el); up; up = parentOf(up)) chain.unshift(up);
  let clip: Clip | null = null;
  for (const box of chain) {
    if (box.tagName === 'HTML' || box.tagName === 'BODY') continue;
    const style = win.getComputedStyle(box);
    clip = innerClip(box, style, () => box.getBoundingClientRect(), ownClip(style.position, clip));
  }
  return ownClip(win.getComputedStyle(el).position, clip);
}

/** An element's parent, or the host of the shadow root it is in. */
function parentOf(el: Element): Element | null {
  return el.parentElement ?? (el.getRootNode() as Partial<ShadowRoot>).host ?? null;
}
