import { attr, child, numberAttr, type XmlNode } from './xml-tree';

/** A theme's colour scheme (dk1, lt1, accent1, ...) and the slide's mapping of bg1/tx1/bg2/tx2 onto it. */
export interface ColorContext {
  scheme: Record<string, string>;
  map: Record<string, string>;
}

const PRESET: Record<string, string> = {
  black: '000000',
  white: 'FFFFFF',
  red: 'FF0000',
  green: '008000',
  blue: '0000FF',
  yellow: 'FFFF00',
  gray: '808080',
  grey: '808080',
  darkBlue: '00008B',
  darkGray: 'A9A9A9',
  lightGray: 'D3D3D3',
  navy: '000080',
  orange: 'FFA500',
  purple: '800080',
  silver: 'C0C0C0',
  teal: '008080',
  maroon: '800000',
  olive: '808000',
};

const clamp = (value: number): number => Math.max(0, Math.min(255, Math.round(value)));
const toHex = (rgb: number[]): string =>
  rgb
    .map((value) => clamp(value).toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();

function toRgb(hex: string): number[] {
  return [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
}

function rgbToHsl([r, g, b]: number[]): [number, number, number] {
  const [rn, gn, bn] = [r! / 255, g! / 255, b! / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === rn ? (gn - bn) / d + (gn < bn ? 6 : 0) : max === gn ? (bn - rn) / d + 2 : (rn - gn) / d + 4;
  return [h / 6, s, l];
}

function hslToRgb([h, s, l]: [number, number, number]): number[] {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t0: number): number => {
    const t = t0 < 0 ? t0 + 1 : t0 > 1 ? t0 - 1 : t0;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255];
}

/** Applies the DrawingML modifiers that change what the eye sees: lumMod/lumOff, tint, shade. */
function applyModifiers(hex: string, node: XmlNode): string {
  let rgb = toRgb(hex);
  for (const modifier of node.children) {
    const value = (numberAttr(modifier, 'val') ?? 100000) / 100000;
    if (modifier.name === 'a:lumMod' || modifier.name === 'a:lumOff') {
      const [h, s, l] = rgbToHsl(rgb);
      rgb = hslToRgb([h, s, Math.max(0, Math.min(1, modifier.name === 'a:lumMod' ? l * value : l + value))]);
    } else if (modifier.name === 'a:shade') rgb = rgb.map((channel) => channel * value);
    else if (modifier.name === 'a:tint') rgb = rgb.map((channel) => channel + (255 - channel) * (1 - value));
  }
  return toHex(rgb);
}

/** The colour of a colour choice element (`a:srgbClr`, `a:schemeClr`, ...) or of a fill holding one. */
export function resolveColor(node: XmlNode | undefined, context: ColorContext): string | undefined {
  if (!node) return undefined;
  if (node.name === 'a:solidFill') return resolveColor(node.children[0], context);
  let base: string | undefined;
  switch (node.name) {
    case 'a:srgbClr':
      base = attr(node, 'val');
      break;
    case 'a:sysClr':
      base = attr(node, 'lastClr') ?? (attr(node, 'val') === 'window' ? 'FFFFFF' : '000000');
      break;
    case 'a:prstClr':
      base = PRESET[attr(node, 'val') ?? ''];
      break;
    case 'a:schemeClr': {
      const name = attr(node, 'val') ?? '';
      base = context.scheme[context.map[name] ?? name];
      break;
    }
    case 'a:scrgbClr':
      base = toHex(['r', 'g', 'b'].map((key) => ((numberAttr(node, key) ?? 0) / 100000) * 255));
      break;
    default:
      return undefined;
  }
  if (!base || !/^[0-9a-fA-F]{6}$/.test(base)) return undefined;
  return applyModifiers(base.toUpperCase(), node);
}

/** Reads a theme's colour scheme and its major (headings) and minor (body) Latin fonts. */
export function readTheme(theme: XmlNode | undefined): {
  scheme: Record<string, string>;
  major?: string;
  minor?: string;
} {
  const root = child(theme, 'a:theme');
  const elements = child(root, 'a:themeElements');
  const scheme: Record<string, string> = {};
  for (const entry of child(elements, 'a:clrScheme')?.children ?? []) {
    const color = resolveColor(entry.children[0], { scheme: {}, map: {} });
    if (color) scheme[entry.name.replace('a:', '')] = color;
  }
  const fonts = child(elements, 'a:fontScheme');
  const major = attr(child(child(fonts, 'a:majorFont'), 'a:latin'), 'typeface');
  const minor = attr(child(child(fonts, 'a:minorFont'), 'a:latin'), 'typeface');
  return { scheme, ...(major ? { major } : {}), ...(minor ? { minor } : {}) };
}

/** Reads a `p:clrMap` (or `a:overrideClrMapping`) into a name-to-scheme-slot map. */
export function readColorMap(node: XmlNode | undefined): Record<string, string> {
  return { ...(node?.attrs ?? {}) };
}
