import { checkHollow, checkTextUnits, type TextUnit } from './check-content';
import { normalizeText, wordCount, type ContentScanner } from './content-scan';
import type { Deck, Shape, Slide } from './document-model';
import type { FindingList } from './finding-list';
import { firstOfRole, kindRules, slideKind } from './pptx-geometry';
import type { Rules, SlideKindRules } from './rules';

const bodyTexts = (slide: Slide): Shape[] =>
  slide.shapes.filter((shape) => !shape.inherited && shape.role === 'body' && shape.kind === 'text');
const FILLED_WORDS = 3;

/**
 * The shapes holding a slide's descriptions: by the template's keys (whatever role a short text now seems to play),
 * or the wordiest body text when the keys differ.
 */
function descriptionShapes(slide: Slide, rules: SlideKindRules | undefined): Array<{ key: string; shape?: Shape }> {
  const keys = Object.keys(rules?.descriptions ?? {});
  const texts = slide.shapes.filter(
    (shape) => !shape.inherited && shape.kind === 'text' && shape.role !== 'title' && shape.role !== 'decoration',
  );
  const matched = keys.map((key) => ({ key, shape: texts.find((shape) => shape.key === key) }));
  const unmatched = matched.filter((item) => !item.shape);
  if (unmatched.length > 0) {
    const spare = texts
      .filter((shape) => !matched.some((item) => item.shape === shape))
      .sort((a, b) => wordCount(b.text) - wordCount(a.text));
    for (const item of unmatched) item.shape = spare.shift();
  }
  return matched;
}

/** Descriptions, paragraphs per slide, filler, duplicates, links, and whether the deck is hollow. */
export function checkPptxContent(deck: Deck, rules: Rules, scanner: ContentScanner, findings: FindingList): boolean {
  const units: TextUnit[] = [];
  let slots = 0;
  let filled = 0;
  const titles = new Map<string, number>();
  for (const slide of deck.slides.filter((item) => !item.hidden)) {
    const kind = kindRules(rules.pptx ?? {}, slideKind(slide)).rules;
    const title = firstOfRole(slide, 'title');
    // Content slots: descriptions, tables and other body texts. A title alone does not make a slide full, so it
    // counts only on a slide that has nothing else to hold.
    let slideSlots = 0;
    let slideFilled = 0;
    const slot = (full: boolean): void => {
      slideSlots += 1;
      if (full) slideFilled += 1;
    };
    const descriptions = descriptionShapes(slide, kind);
    const described = new Set<Shape>();
    for (const { key, shape } of descriptions) {
      if (shape) described.add(shape);
      slot(shape !== undefined && wordCount(shape.text) >= FILLED_WORDS && !scanner.placeholder(shape.text));
      units.push({
        where: { slide: slide.number, ...(shape ? { shape: shape.name } : {}) },
        text: shape?.text ?? '',
        links: shape?.links ?? [],
        description: kind?.descriptions?.[key] ?? {},
        noun: 'description',
      });
    }
    const tables = slide.shapes.filter((shape) => shape.kind === 'table' && !shape.inherited);
    for (let missing = (kind?.tables?.length ?? 0) - tables.length; missing > 0; missing -= 1) slot(false);
    for (const shape of slide.shapes) {
      if (shape.inherited || shape.role === 'decoration' || shape.role === 'footer' || described.has(shape)) continue;
      if (shape.kind === 'table') {
        const rows = shape.table ?? [];
        const cells = (rows.length > 1 ? rows.slice(1) : rows).flat();
        slot(cells.filter((cell) => cell.trim() !== '').length * 2 > cells.length);
        units.push({
          where: { slide: slide.number, shape: shape.name },
          text: rows.flat().join('\n'),
          links: shape.links,
          noun: 'table',
        });
      } else if (shape.kind === 'text') {
        if (shape.role === 'body') slot(shape.text.trim() !== '' && !scanner.placeholder(shape.text));
        if (shape.role !== 'title')
          units.push({
            where: { slide: slide.number, shape: shape.name },
            text: shape.text,
            links: shape.links,
            noun: shape.role === 'body' ? 'text' : shape.role,
          });
      }
    }
    if (title)
      units.push({
        where: { slide: slide.number, shape: title.name },
        text: title.text,
        links: title.links,
        noun: 'title',
      });
    // A slide that is a chart, a picture or a diagram holds its content there: it is not empty for want of text.
    const visual = slide.shapes.some(
      (shape) => !shape.inherited && (shape.kind === 'chart' || shape.kind === 'picture' || shape.kind === 'graphic'),
    );
    if (slideSlots === 0)
      slot(visual || (title !== undefined && title.text.trim() !== '' && !scanner.placeholder(title.text)));
    slots += slideSlots;
    filled += slideFilled;
    const paragraphs = bodyTexts(slide).reduce(
      (total, shape) => total + shape.paragraphs.filter((paragraph) => paragraph.text.trim() !== '').length,
      0,
    );
    const range = kind?.paragraphs;
    if (
      range &&
      ((range.min !== undefined && paragraphs < range.min) || (range.max !== undefined && paragraphs > range.max))
    ) {
      findings.add({
        rule: 'content.paragraphs',
        severity: 'medium',
        where: { slide: slide.number },
        message: `The slide has ${paragraphs} paragraph${paragraphs === 1 ? '' : 's'} of body text`,
        expected: `${range.min ?? 0} to ${range.max ?? '∞'} paragraphs, as in the template`,
        actual: `${paragraphs}`,
        fix:
          paragraphs < (range.min ?? 0)
            ? 'Add the missing points the template has on such slides.'
            : 'Merge or cut paragraphs to match the template.',
      });
    }
    if (title && slide.number !== 1 && title.text.trim()) {
      const key = normalizeText(title.text);
      const earlier = titles.get(key);
      if (earlier !== undefined) {
        findings.add({
          rule: 'content.duplicate-title',
          severity: 'medium',
          where: { slide: slide.number, shape: title.name },
          message: 'Two slides have the same title',
          expected: 'a title of its own',
          actual: `"${title.text.trim()}", as on slide ${earlier}`,
          fix: 'Check whether this slide repeats another; give it its own title or remove it.',
        });
      } else titles.set(key, slide.number);
    }
  }
  checkTextUnits(units, scanner, findings);
  return checkHollow(filled, slots, scanner.hollowRatio, 'places for content (descriptions, tables, texts)', findings);
}
