import { checkHollow, checkTextUnits, type TextUnit } from './check-content';
import { normalizeText, wordCount, type ContentScanner } from './content-scan';
import type { Deck, Shape, Slide } from './document-model';
import type { FindingList } from './finding-list';
import { firstOfRole, kindRules, slideKind } from './pptx-geometry';
import type { Rules, SlideKindRules } from './rules';

const bodyTexts = (slide: Slide): Shape[] => slide.shapes.filter((shape) => !shape.inherited && shape.role === 'body' && shape.kind === 'text');
const FILLED_WORDS = 3;

/** The shapes holding a slide's descriptions: by the template's keys, or the wordiest body text when keys differ. */
function descriptionShapes(slide: Slide, rules: SlideKindRules | undefined): Array<{ key: string; shape?: Shape }> {
  const keys = Object.keys(rules?.descriptions ?? {});
  const texts = bodyTexts(slide);
  const matched = keys.map((key) => ({ key, shape: texts.find((shape) => shape.key === key) }));
  const unmatched = matched.filter((item) => !item.shape);
  if (unmatched.length > 0) {
    const spare = texts.filter((shape) => !matched.some((item) => item.shape === shape)).sort((a, b) => wordCount(b.text) - wordCount(a.text));
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
    slots += 1;
    if (title && title.text.trim() && !scanner.placeholder(title.text)) filled += 1;
    const descriptions = descriptionShapes(slide, kind);
    const described = new Set<Shape>();
    for (const { key, shape } of descriptions) {
      if (shape) described.add(shape);
      slots += 1;
      if (shape && wordCount(shape.text) >= FILLED_WORDS && !scanner.placeholder(shape.text)) filled += 1;
      units.push({ where: { slide: slide.number, ...(shape ? { shape: shape.name } : {}) }, text: shape?.text ?? '', links: shape?.links ?? [], description: kind?.descriptions?.[key] ?? {}, noun: 'description' });
    }
    for (const shape of slide.shapes) {
      if (shape.inherited || shape.role === 'decoration' || described.has(shape)) continue;
      if (shape.kind === 'table') {
        const cells = (shape.table ?? []).slice(1).flat();
        slots += 1;
        if (cells.filter((cell) => cell.trim() !== '').length * 2 > cells.length) filled += 1;
        units.push({ where: { slide: slide.number, shape: shape.name }, text: (shape.table ?? []).flat().join('\n'), links: shape.links, noun: 'table' });
      } else if (shape.kind === 'text') {
        if (descriptions.length === 0 && shape.role === 'body') {
          slots += 1;
          if (wordCount(shape.text) >= FILLED_WORDS) filled += 1;
        }
        units.push({ where: { slide: slide.number, shape: shape.name }, text: shape.text, links: shape.links, noun: shape.role === 'body' ? 'text' : shape.role });
      }
    }
    const paragraphs = bodyTexts(slide).reduce((total, shape) => total + shape.paragraphs.filter((paragraph) => paragraph.text.trim() !== '').length, 0);
    const range = kind?.paragraphs;
    if (range && ((range.min !== undefined && paragraphs < range.min) || (range.max !== undefined && paragraphs > range.max))) {
      findings.add({ rule: 'content.paragraphs', severity: 'medium', where: { slide: slide.number }, message: `The slide has ${paragraphs} paragraph${paragraphs === 1 ? '' : 's'} of body text`, expected: `${range.min ?? 0} to ${range.max ?? '∞'} paragraphs, as in the template`, actual: `${paragraphs}`, fix: paragraphs < (range.min ?? 0) ? 'Add the missing points the template has on such slides.' : 'Merge or cut paragraphs to match the template.' });
    }
    if (title && slide.number !== 1 && title.text.trim()) {
      const key = normalizeText(title.text);
      const earlier = titles.get(key);
      if (earlier !== undefined) {
        findings.add({ rule: 'content.duplicate-title', severity: 'medium', where: { slide: slide.number, shape: title.name }, message: 'Two slides have the same title', expected: 'a title of its own', actual: `"${title.text.trim()}", as on slide ${earlier}`, fix: 'Check whether this slide repeats another; give it its own title or remove it.' });
      } else titles.set(key, slide.number);
    }
  }
  checkTextUnits(units, scanner, findings);
  return checkHollow(filled, slots, scanner.hollowRatio, 'titles, descriptions and tables', findings);
}
