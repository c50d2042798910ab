/**
 * Text a person cannot see, by the rules eyes apply: fully transparent, zero or tiny font, the colour of what is behind
 * it, moved off the page, clipped away, scaled to nothing, or squeezed into a box too small to show it. Pages hide
 * instructions for AI agents this way; the snapshot leaves such text out. Controls are not judged by these rules
 * (custom checkboxes are often transparent inputs under a styled label): only text is.
 */

export type Rgb = readonly [number, number, number];

/** The colour in a computed style ("rgb(1, 2, 3)", "rgba(1, 2, 3, 0.5)"), with its alpha; null for anything else. */
export function parseColor(value: string): [number, number, number, number] | null {
  const match = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+%?))?\s*\)$/.exec(value.trim());
  if (!match) return null;
  const alphaText = match[4];
  const alpha = alphaText === undefined ? 1 : alphaText.endsWith('%') ? Number(alphaText.slice(0, -1)) / 100 : Number(alphaText);
  return [Number(match[1]), Number(match[2]), Number(match[3]), alpha];
}

function luminance([r, g, b]: Rgb): number {
  const channel = (c: number): number => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG contrast ratio of two colours: 1 for the same colour, 21 for black on white. */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Below this a person does not see text against its background (white on #fefefe is 1.01). */
const MIN_CONTRAST = 1.25;

/**
 * The background an element's children are drawn on: its own colour when it paints one, blended when translucent;
 * unknown (null) over a background image, where no colour can be told from the style alone.
 */
export function backgroundFor(style: CSSStyleDeclaration, behind: Rgb | null): Rgb | null {
  if (style.backgroundImage !== 'none' && style.backgroundImage !== '') return null;
  const color = parseColor(style.backgroundColor);
  if (!color || color[3] === 0) return behind;
  const [r, g, b, a] = color;
  if (a >= 0.95 || behind === null) return a >= 0.95 ? [r, g, b] : null;
  return [r * a + behind[0] * (1 - a), g * a + behind[1] * (1 - a), b * a + behind[2] * (1 - a)];
}

const ZERO_CLIP_PATH = /^(?:inset\(\s*(?:50|100)%|circle\(\s*0(?:px|%)?\s*(?:at|\))|polygon\(\s*(?:0(?:px|%)?\s+0(?:px|%)?\s*,?\s*)+\))/;
const ZERO_CLIP = /^rect\(\s*(\S+?)[,\s]+(\S+?)[,\s]+(\S+?)[,\s]+(\S+?)\s*\)$/;

function zeroClip(clip: string): boolean {
  const match = ZERO_CLIP.exec(clip);
  if (!match) return false;
  const [top, right, bottom, left] = match.slice(1).map((v) => parseFloat(v ?? '0'));
  return (right ?? 0) - (left ?? 0) <= 1 || (bottom ?? 0) - (top ?? 0) <= 1;
}

const NOT_VISIBLE_OVERFLOW = new Set(['hidden', 'clip', 'scroll', 'auto']);

/**
 * Whether an element hides everything inside it from the eye: transparent, clipped to nothing, scaled to nothing,
 * moved off the page, or a box of (nearly) no size that does not let its content out. `rect` is asked only when the
 * style alone cannot tell.
 */
export function hidesSubtree(style: CSSStyleDeclaration, rect: () => DOMRect, win: Window, root = false): boolean {
  if (parseFloat(style.opacity) < 0.05) return true;
  // The root and the body pass their overflow on to the viewport: they never clip the page.
  if (root) return false;
  const position = style.position;
  if ((position === 'absolute' || position === 'fixed') && style.clip !== 'auto' && style.clip !== '' && zeroClip(style.clip)) return true;
  if (style.clipPath !== 'none' && style.clipPath !== '' && ZERO_CLIP_PATH.test(style.clipPath)) return true;
  const transform = style.transform;
  if (transform.startsWith('matrix(0, 0, 0, 0') || transform.startsWith('matrix(0,0,0,0') || transform === 'scale(0)') return true;
  const clipsContent = NOT_VISIBLE_OVERFLOW.has(style.overflowX) || NOT_VISIBLE_OVERFLOW.has(style.overflowY);
  if (clipsContent && (style.height === '0px' || style.width === '0px' || style.maxHeight === '0px' || style.maxWidth === '0px')) return true;
  if (position === 'absolute' || position === 'fixed' || clipsContent) {
    const box = rect();
    if (clipsContent && (box.width <= 1 || box.height <= 1)) return true;
    const docWidth = Math.max(win.document.documentElement.scrollWidth, win.innerWidth);
    if (box.width > 0 && (box.right + win.scrollX <= 0 || box.bottom + win.scrollY <= 0 || box.left + win.scrollX >= docWidth)) return true;
  }
  return false;
}

/** Whether an element's own text cannot be seen: a font too small to read, a transparent colour, or its background's colour. */
export function hidesOwnText(style: CSSStyleDeclaration, background: Rgb | null): boolean {
  if (parseFloat(style.fontSize) < 2) return true;
  const fill = parseColor(style.getPropertyValue('-webkit-text-fill-color') || style.color) ?? parseColor(style.color);
  if (fill && fill[3] < 0.1) return true;
  if (fill && background && contrast([fill[0], fill[1], fill[2]], background) < MIN_CONTRAST) return true;
  const indent = parseFloat(style.textIndent);
  return indent <= -999 && (NOT_VISIBLE_OVERFLOW.has(style.overflowX) || style.whiteSpace === 'nowrap');
}

/** The background an element is drawn on, from its ancestors' styles (for checks made outside the snapshot walk). */
export function backgroundBehind(el: Element, win: Window): Rgb | null {
  const chain: Element[] = [];
  for (let node: Element | null = el; node; node = node.parentElement) chain.unshift(node);
  let background: Rgb | null = [255, 255, 255];
  for (const node of chain) background = backgroundFor(win.getComputedStyle(node), background);
  return background;
}

/**
 * The text of an element as a person sees it: the words of its descendants that are not hidden by the rules above.
 * Empty when none is visible (an icon button whose name is for screen readers only). The background is looked up
 * only when `againstBackground` is set: it costs a style read of every ancestor. Descendants `skip` keeps are left out
 * with their words.
 */
export function visibleText(el: Element, againstBackground = true, skip?: (child: Element) => boolean): string {
  const win = el.ownerDocument.defaultView;
  if (!win) return el.textContent ?? '';
  const out: string[] = [];
  const walk = (node: Element, background: Rgb | null): void => {
    const style = win.getComputedStyle(node);
    if (style.display === 'none' || style.visibility === 'hidden' || hidesSubtree(style, () => node.getBoundingClientRect(), win, node.tagName === 'BODY' || node.tagName === 'HTML')) return;
    const inner = backgroundFor(style, background);
    const ownHidden = hidesOwnText(style, inner);
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3 && !ownHidden) out.push(child.nodeValue ?? '');
      else if (child.nodeType === 1 && (child as Element).getAttribute('aria-hidden') !== 'true') {
        const tag = (child as Element).tagName;
        // An image's alternative is part of the text it stands in, as the accessibility tree reads a link's content.
        if (tag === 'IMG') {
          const alt = (child as Element).getAttribute('alt')?.trim();
          if (alt && !ownHidden) out.push(` ${alt} `);
        } else if (tag !== 'SCRIPT' && tag !== 'STYLE' && tag !== 'TEMPLATE' && !skip?.(child as Element)) walk(child as Element, inner);
      }
    }
  };
  walk(el, !againstBackground ? null : el.parentElement ? backgroundBehind(el.parentElement, win) : [255, 255, 255]);
  return out.join('').replace(/\s+/g, ' ').trim();
}
