import type { Paragraph, Shape } from './document-model';

/**
 * Estimates how much height a shape's text needs, without a layout engine: character widths by class (narrow,
 * capital, wide, digit) for a typical sans font, scaled per family, greedy word wrap, and each paragraph's line
 * spacing and space before/after. It errs by a few percent either way, which is why overflow is only reported past
 * a tolerance, and why a reference that "overflows" by this estimate raises the tolerance for its shapes.
 */
export const EMU_PER_INCH = 914400;
export const EMU_PER_POINT = 12700;

const NARROW = new Set("iljI.,;:|!'`ftr()[]{}-/\\ ");
const WIDE = new Set('mwMW@%');
const FAMILY_FACTOR: Array<[RegExp, number]> = [
  [/calibri|arial narrow|segoe ui semilight/i, 0.9],
  [/times|garamond|cambria|book antiqua/i, 0.92],
  [/verdana|tahoma|trebuchet|century gothic/i, 1.12],
  [/georgia|palatino/i, 1.04],
  [/courier|consolas|mono/i, 1.2],
];

/** Width of one character in ems. */
function charEm(char: string): number {
  if (char === ' ') return 0.28;
  if (NARROW.has(char)) return 0.3;
  if (WIDE.has(char)) return 0.85;
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x2e80) return 1;
  if (char >= 'A' && char <= 'Z') return 0.66;
  if (char >= '0' && char <= '9') return 0.56;
  return 0.52;
}

export function familyFactor(font: string | undefined): number {
  for (const [pattern, factor] of FAMILY_FACTOR) if (font && pattern.test(font)) return factor;
  return 1;
}

/** Width of a text in points at a size and family. */
export function textWidthPt(text: string, sizePt: number, font?: string): number {
  let ems = 0;
  for (const char of text) ems += charEm(char);
  return ems * sizePt * familyFactor(font);
}

/** Lines a paragraph takes in a given width (points), with greedy word wrap; explicit line breaks start new lines. */
export function paragraphLines(paragraph: Paragraph, widthPt: number, wrap: boolean): number {
  const size = paragraph.style.size ?? 18;
  const font = paragraph.style.font;
  let lines = 0;
  for (const segment of paragraph.text.split('\n')) {
    if (!wrap || segment.trim() === '') {
      lines += 1;
      continue;
    }
    let line = 0;
    let count = 1;
    for (const word of segment.split(/\s+/).filter(Boolean)) {
      const wordWidth = textWidthPt(word, size, font);
      const spaced = line === 0 ? wordWidth : line + textWidthPt(' ', size, font) + wordWidth;
      if (spaced <= widthPt || line === 0) line = line === 0 ? Math.min(wordWidth, widthPt) : spaced;
      else {
        count += 1;
        line = wordWidth;
      }
      // A single word longer than the line breaks across lines.
      while (line > widthPt) {
        count += 1;
        line -= widthPt;
      }
    }
    lines += count;
  }
  return lines;
}

export interface TextFit {
  lines: number;
  neededPt: number;
  availablePt: number;
  /** needed / available: above 1 the text does not fit. */
  ratio: number;
}

/** How the shape's text fits its box; undefined for shapes without text or position. */
export function estimateFit(shape: Shape): TextFit | undefined {
  if (!shape.box || shape.paragraphs.length === 0 || shape.text.trim() === '') return undefined;
  const widthPt = (shape.box.w - shape.insets.l - shape.insets.r) / EMU_PER_POINT;
  const availablePt = Math.max(1, (shape.box.h - shape.insets.t - shape.insets.b) / EMU_PER_POINT);
  let neededPt = 0;
  let lines = 0;
  for (const [index, paragraph] of shape.paragraphs.entries()) {
    const size = paragraph.style.size ?? 18;
    const count = paragraphLines(paragraph, Math.max(1, widthPt - paragraph.indentEmu / EMU_PER_POINT), shape.wrap);
    const lineHeight =
      'points' in paragraph.lineSpacing ? paragraph.lineSpacing.points : size * 1.2 * paragraph.lineSpacing.multiple;
    lines += count;
    neededPt +=
      count * lineHeight +
      (index > 0 ? paragraph.spaceBeforePt : 0) +
      (index < shape.paragraphs.length - 1 ? paragraph.spaceAfterPt : 0);
  }
  return { lines, neededPt, availablePt, ratio: neededPt / availablePt };
}
