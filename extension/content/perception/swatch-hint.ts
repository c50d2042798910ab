import { iconHint } from './icon-hint';
import { parseColor, type Rgb } from './visual-hiding';

/**
 * What a person sees on a small box that has no words: the colour it is filled with (a colour picker's swatch, the
 * sample of a colour an instruction asks for). The accessibility tree gives such a box nothing; the snapshot does not
 * make a name of it either, but says its colour, `colour "#e60000"`, so a model can tell the red swatch from the blue.
 */

/** Sizes (CSS pixels) a swatch has on either side: smaller is a rule or a dot, larger is a panel. */
const MIN_SIDE = 6;
const MAX_SIDE = 64;

const hex = (rgb: Rgb): string => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/**
 * The colour an empty box is filled with, as #rrggbb, when it is opaque, of a swatch's size, and stands out from what
 * is behind it (`behind`); empty otherwise.
 */
export function swatchColour(style: CSSStyleDeclaration, rect: () => { width: number; height: number }, behind: Rgb | null): string {
  if (style.backgroundImage !== 'none' && style.backgroundImage !== '') return '';
  const colour = parseColor(style.backgroundColor);
  if (!colour || colour[3] < 0.95) return '';
  const own: Rgb = [colour[0], colour[1], colour[2]];
  if (behind && own.every((c, i) => Math.abs(c - (behind[i] ?? 0)) < 4)) return '';
  // The box is measured last: most empty elements have no colour of their own.
  const { width, height } = rect();
  if (width < MIN_SIDE || height < MIN_SIDE || width > MAX_SIDE || height > MAX_SIDE) return '';
  return hex(own);
}

/**
 * How an empty element in running text is written there when a person sees something on it: an icon (`[icon
 * "disk"]`) or a colour sample (`[colour "#3a5f00"]`). Empty for an element that shows nothing of its own.
 */
export function inlineVisual(el: Element, style: CSSStyleDeclaration, behind: Rgb | null): string {
  if (el.firstChild !== null) return '';
  const icon = iconHint(el, style);
  if (icon) return `[icon ${JSON.stringify(icon)}]`;
  const colour = swatchColour(style, () => el.getBoundingClientRect(), behind);
  return colour ? `[colour ${JSON.stringify(colour)}]` : '';
}
