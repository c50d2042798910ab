import { COVER_LABEL, median, mode, wordCount } from './content-scan';
import type { Deck, Shape, Slide, TextStyle } from './document-model';
import {
  dividersOf,
  firstOfRole,
  inches,
  isContent,
  overlapKey,
  overlappingPairs,
  shapeStyle,
  slideKind,
} from './pptx-geometry';
import type { PptxRules, ShapeRule, SlideKindRules, StyleRule } from './rules';
import { estimateFit } from './text-fit';

/** Words a body text needs, in the reference, to count as a description (not a label or a figure). */
const DESCRIPTION_WORDS = 12;

function styleRule(styles: Array<TextStyle | undefined>): StyleRule | undefined {
  const known = styles.filter((style): style is TextStyle => style !== undefined);
  const common = mode(known, (style) => JSON.stringify([style.size, style.color, style.font, style.bold]));
  if (!common) return undefined;
  const rule: StyleRule = {};
  if (common.size !== undefined) rule.size = common.size;
  if (common.color !== undefined) rule.color = common.color;
  if (common.font !== undefined) rule.font = common.font;
  if (common.bold !== undefined) rule.bold = common.bold;
  return rule;
}

const bodyTexts = (slide: Slide): Shape[] =>
  slide.shapes.filter(
    (shape) => !shape.inherited && shape.role === 'body' && shape.kind === 'text' && shape.text.trim() !== '',
  );

function learnKind(slides: Slide[], deck: Deck): SlideKindRules {
  const rules: SlideKindRules = {};
  for (const role of ['title', 'subtitle'] as const) {
    const style = styleRule(
      slides.map((slide) => firstOfRole(slide, role)).map((shape) => (shape ? shapeStyle(shape) : undefined)),
    );
    if (style) rules[role] = style;
  }
  const align = mode(
    slides
      .map((slide) => firstOfRole(slide, 'title')?.paragraphs[0]?.align)
      .filter((value): value is string => value !== undefined),
  );
  if (align === 'l' || align === 'ctr' || align === 'r' || align === 'just' || align === 'dist')
    rules.titleAlign = align;
  const titleTops = slides
    .map((slide) => firstOfRole(slide, 'title')?.box?.y)
    .filter((y): y is number => y !== undefined);
  if (titleTops.length > 0) rules.titleTopIn = inches(median(titleTops)!);
  const contentTops = slides
    .map((slide) =>
      slide.shapes.filter((shape) => isContent(shape) && shape.role === 'body').map((shape) => shape.box!.y),
    )
    .filter((tops) => tops.length > 0)
    .map((tops) => Math.min(...tops));
  if (contentTops.length > 0) rules.contentTopIn = inches(median(contentTops)!);

  const perSlide = slides.map((slide) => dividersOf(slide, deck.width));
  const dividers: NonNullable<SlideKindRules['dividers']> = [];
  for (const divider of perSlide[0] ?? []) {
    const seen = perSlide.filter((list) => list.some((other) => Math.abs(other.y - divider.y) < 914400 * 0.1)).length;
    if (seen * 2 >= slides.length)
      dividers.push({ yIn: inches(divider.y), ...(divider.color ? { color: divider.color } : {}) });
  }
  if (dividers.length > 0) rules.dividers = dividers;

  const wordsByKey = new Map<string, number[]>();
  for (const slide of slides)
    for (const shape of bodyTexts(slide))
      wordsByKey.set(shape.key, [...(wordsByKey.get(shape.key) ?? []), wordCount(shape.text)]);
  const descriptions: Record<string, { min: number; max: number }> = {};
  const descriptionKeys = new Set<string>();
  for (const [key, counts] of wordsByKey) {
    if ((median(counts) ?? 0) < DESCRIPTION_WORDS) continue;
    descriptionKeys.add(key);
    descriptions[key] = {
      min: Math.max(3, Math.floor(Math.min(...counts) * 0.5)),
      max: Math.ceil(Math.max(...counts) * 2),
    };
  }
  if (descriptionKeys.size > 0) {
    rules.descriptions = descriptions;
    const body = styleRule(
      slides.flatMap((slide) =>
        bodyTexts(slide)
          .filter((shape) => descriptionKeys.has(shape.key))
          .map(shapeStyle),
      ),
    );
    if (body) rules.body = body;
  }
  const paragraphCounts = slides.map((slide) =>
    bodyTexts(slide).reduce(
      (total, shape) => total + shape.paragraphs.filter((paragraph) => paragraph.text.trim() !== '').length,
      0,
    ),
  );
  if (paragraphCounts.some((count) => count > 0))
    rules.paragraphs = {
      min: Math.floor(Math.min(...paragraphCounts) * 0.5),
      max: Math.ceil(Math.max(...paragraphCounts) * 1.5) + 1,
    };

  const headers = slides.flatMap((slide) =>
    slide.shapes.filter((shape) => shape.kind === 'table' && !shape.inherited).map((shape) => shape.table?.[0] ?? []),
  );
  const header = mode(headers, (row) => row.join('\u0000'));
  if (
    header &&
    header.length > 0 &&
    headers.filter((row) => row.join('\u0000') === header.join('\u0000')).length * 2 >= slides.length
  )
    rules.tables = [{ columns: header }];

  const overlaps = new Map<string, [string, string]>();
  for (const slide of slides) {
    for (const { a, b } of overlappingPairs(slide, deck, 0.1)) {
      const pair = [overlapKey(a), overlapKey(b)].sort() as [string, string];
      overlaps.set(pair.join('\u0000'), pair);
    }
  }
  if (overlaps.size > 0) rules.allowedOverlaps = [...overlaps.values()];
  const ratios = slides.flatMap((slide) =>
    slide.shapes.filter((shape) => !shape.inherited).map((shape) => estimateFit(shape)?.ratio ?? 0),
  );
  const worst = Math.max(0, ...ratios);
  if (worst > 1) rules.overflowTolerance = Math.round(worst * 1.05 * 100) / 100;
  return rules;
}

const placed = (shape: Shape): ShapeRule['box'] =>
  shape.box ? [inches(shape.box.x), inches(shape.box.y), inches(shape.box.w), inches(shape.box.h)] : undefined;

const placeholderOf = (shape: Shape): { placeholder?: string; role?: 'title' | 'subtitle' } => ({
  ...(shape.key.startsWith('ph:') ? { placeholder: shape.key } : {}),
  ...(shape.role === 'title' || shape.role === 'subtitle' ? { role: shape.role } : {}),
});

/** A slide's own pictures, charts, diagrams and tables with where they sit, and its texts with their style. */
function slideShapes(slide: Slide): ShapeRule[] {
  const rules: ShapeRule[] = [];
  for (const shape of slide.shapes) {
    if (shape.inherited || shape.kind === 'line') continue;
    const box = placed(shape);
    if (shape.kind === 'text') {
      // Empty texts are listed too, so the n-th shape of a name matches the n-th in the output.
      if (shape.text.trim() === '') {
        rules.push({ name: shape.name, ...placeholderOf(shape), kind: 'text' });
        continue;
      }
      const style = styleRule([shapeStyle(shape)]);
      rules.push({
        name: shape.name,
        ...placeholderOf(shape),
        kind: 'text',
        text: true,
        ...(style && Object.keys(style).length > 0 ? { style } : {}),
      });
    } else if (shape.kind !== 'graphic' || box)
      rules.push({ name: shape.name, ...placeholderOf(shape), kind: shape.kind, ...(box ? { box } : {}) });
  }
  return rules;
}

/** Learns a deck's rules: slide kinds with their styles, positions, dividers, description lengths, tables and cover. */
export function learnPptx(deck: Deck): PptxRules {
  const visible = deck.slides.filter((slide) => !slide.hidden);
  const groups = new Map<string, Slide[]>();
  for (const slide of visible) groups.set(slideKind(slide), [...(groups.get(slideKind(slide)) ?? []), slide]);
  // The most used kind comes first after the cover: it is the fallback for slides of a layout the template lacks.
  const ordered = [...groups.entries()].sort(([a, x], [b, y]) =>
    a === 'cover' ? -1 : b === 'cover' ? 1 : y.length - x.length,
  );
  const kinds: Record<string, SlideKindRules> = {};
  for (const [kind, slides] of ordered) kinds[kind] = learnKind(slides, deck);
  const cover = visible[0];
  const roles = (['title', 'subtitle'] as const).filter(
    (role) => cover && (firstOfRole(cover, role)?.text.trim() ?? '') !== '',
  );
  const labels = cover
    ? cover.shapes
        .filter((shape) => shape.role === 'body' || shape.role === 'footer')
        .flatMap((shape) => shape.text.split('\n'))
        .map((line) => COVER_LABEL.exec(line)?.[1])
        .filter((label): label is string => label !== undefined)
    : [];
  return {
    // As many slides as the template: a missing slide is a missing item, whatever the generator's reason.
    slides: { min: visible.length },
    shapes: visible.map(slideShapes),
    kinds,
    requiredKinds: [...groups.keys()].filter((kind) => kind !== 'cover'),
    cover: { roles: [...roles], labels: [...new Set(labels)] },
  };
}
