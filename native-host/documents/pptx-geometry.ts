import type { Box, Deck, Shape, Slide, TextStyle } from './document-model';
import type { PptxRules, SlideKindRules } from './rules';
import { EMU_PER_INCH } from './text-fit';

/** Slide 1 is the cover; every other slide is known by its layout's name. */
export const slideKind = (slide: Slide): string => (slide.number === 1 ? 'cover' : slide.layout);

export const inches = (emu: number): number => Math.round((emu / EMU_PER_INCH) * 100) / 100;

export const firstOfRole = (slide: Slide, role: Shape['role']): Shape | undefined =>
  slide.shapes.find((shape) => shape.role === role && shape.text.trim() !== '') ??
  slide.shapes.find((shape) => shape.role === role);

/** The style a reader sees for a shape: its first non-empty paragraph's. */
export function shapeStyle(shape: Shape): TextStyle | undefined {
  return (shape.paragraphs.find((paragraph) => paragraph.text.trim() !== '') ?? shape.paragraphs[0])?.style;
}

export const isContent = (shape: Shape): boolean =>
  !shape.inherited &&
  shape.role !== 'footer' &&
  shape.role !== 'decoration' &&
  shape.box !== undefined &&
  (shape.kind !== 'text' || shape.text.trim() !== '');

/** Horizontal lines (or hairline rectangles) across at least a quarter of the slide: the template's dividers. */
export function dividersOf(slide: Slide, deckWidth: number): Array<{ y: number; color?: string }> {
  const found: Array<{ y: number; color?: string }> = [];
  for (const shape of slide.shapes) {
    const box = shape.box;
    if (!box || box.w < deckWidth * 0.25) continue;
    const thin = box.h <= EMU_PER_INCH * 0.06;
    if ((shape.kind === 'line' && thin) || (shape.kind === 'graphic' && thin && shape.fillColor)) {
      const color = shape.kind === 'line' ? shape.lineColor : shape.fillColor;
      found.push({ y: box.y + box.h / 2, ...(color ? { color } : {}) });
    }
  }
  return found;
}

function intersection(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** How a shape is named in an allowed-overlap pair: its role for titles, otherwise its key. */
export const overlapKey = (shape: Shape): string =>
  shape.role === 'title' || shape.role === 'subtitle' ? shape.role : shape.key;

/** Pairs of content shapes whose boxes cover more than `threshold` of the smaller one; backgrounds are left out. */
export function overlappingPairs(
  slide: Slide,
  deck: Pick<Deck, 'width' | 'height'>,
  threshold: number,
): Array<{ a: Shape; b: Shape; share: number }> {
  const area = (box: Box): number => Math.max(1, box.w * box.h);
  const shapes = slide.shapes.filter(
    (shape) => isContent(shape) && shape.kind !== 'line' && area(shape.box!) < deck.width * deck.height * 0.8,
  );
  const pairs: Array<{ a: Shape; b: Shape; share: number }> = [];
  for (let i = 0; i < shapes.length; i += 1) {
    for (let j = i + 1; j < shapes.length; j += 1) {
      const a = shapes[i]!;
      const b = shapes[j]!;
      const share = intersection(a.box!, b.box!) / Math.min(area(a.box!), area(b.box!));
      if (share > threshold) pairs.push({ a, b, share });
    }
  }
  return pairs;
}

/** The rules for a slide's kind; a slide whose layout the template never used is held to the most common kind's. */
export function kindRules(rules: PptxRules, kind: string): { rules: SlideKindRules | undefined; known: boolean } {
  const kinds = rules.kinds ?? {};
  if (kinds[kind]) return { rules: kinds[kind], known: true };
  const fallback = Object.keys(kinds).find((name) => name !== 'cover');
  return { rules: fallback ? kinds[fallback] : undefined, known: Object.keys(kinds).length === 0 };
}
