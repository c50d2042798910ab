/**
 * What a person sees on a control that has no words: its icon. A mail client's bin and star are pictures (a CSS
 * `content` or background image, an <img> without alt), an SVG sprite's symbol, or a glyph of an icon font. The
 * snapshot does not make a name of it (the control stays `unnamed`, as the accessibility tree has it) but says which
 * icon it shows: `unnamed, icon "delete"`, so a model can tell the bin from the star as a person can.
 */

const MAX_HINT = 40;

/**
 * Classes that name the glyph they draw: Font Awesome, Bootstrap Icons, Glyphicons, Ionicons, generic, and jQuery UI's
 * sprite icons (`ui-icon-disk`), whose picture is one sheet for all, told apart only by the class.
 */
const GLYPH_CLASS = /^(?:fa|bi|glyphicon|ion|icon|mdi|ti|la|ui-icon)-([a-z][a-z0-9-]*)$/i;
const NOT_GLYPH = new Set(['fw', 'lg', 'xs', 'sm', '2x', '3x', 'solid', 'regular', 'light', 'brands', 'spin', 'pulse', 'inverse', 'stack', 'border']);

/** The file name of the first url() in a CSS value, without folder, query or extension; empty for data: URLs. */
function urlName(value: string): string {
  const match = /url\(\s*["']?([^"')]+)["']?\s*\)/.exec(value);
  return match?.[1] ? fileName(match[1]) : '';
}

function fileName(url: string): string {
  if (url.startsWith('data:')) return '';
  const last = url.split(/[?#]/)[0]?.split('/').pop() ?? '';
  let base = last.replace(/\.(png|gif|jpe?g|svg|webp|ico|bmp)$/i, '');
  try {
    base = decodeURIComponent(base);
  } catch {
    // A malformed escape is shown as it is.
  }
  return base.slice(0, MAX_HINT);
}

function ownIcon(el: Element, style: CSSStyleDeclaration): string {
  // A glyph's class comes first: a sprite sheet's file name is the same for every icon cut from it.
  for (const cls of el.classList) {
    const glyph = GLYPH_CLASS.exec(cls)?.[1];
    if (glyph && !NOT_GLYPH.has(glyph.toLowerCase())) return glyph.slice(0, MAX_HINT);
  }
  const picture = urlName(style.content) || urlName(style.backgroundImage);
  if (picture) return picture;
  if (el.tagName === 'IMG') return fileName(el.getAttribute('src') ?? '');
  const use = el.tagName.toLowerCase() === 'use' ? (el.getAttribute('href') ?? el.getAttribute('xlink:href') ?? '') : '';
  if (use.includes('#')) return use.slice(use.indexOf('#') + 1, use.indexOf('#') + 1 + MAX_HINT);
  return '';
}

/** The icon an unnamed control shows: its own, or that of one of its first few descendants. Empty when none. */
export function iconHint(el: Element, style: CSSStyleDeclaration): string {
  const own = ownIcon(el, style);
  if (own) return own;
  const win = el.ownerDocument.defaultView;
  if (!win) return '';
  let looked = 0;
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node && looked < 6; node = walker.nextNode(), looked += 1) {
    const found = ownIcon(node as Element, win.getComputedStyle(node as Element));
    if (found) return found;
  }
  return '';
}
