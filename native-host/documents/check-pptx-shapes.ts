import type { Deck, Shape } from './document-model';
import { locate } from './finding';
import type { FindingList } from './finding-list';
import { inches, shapeStyle } from './pptx-geometry';
import type { Rules, ShapeRule } from './rules';
import { compareStyle } from './style-compare';

const NOUN: Record<ShapeRule['kind'], string> = {
  text: 'text',
  picture: 'picture',
  table: 'table',
  chart: 'chart',
  graphic: 'diagram',
};

/**
 * Slide by slide against the template's own shapes, when the output has as many slides: a picture, chart, diagram or
 * table that is gone or sits elsewhere, a text emptied, a text restyled. A slide-kind check that already reported the
 * same shape's style is not repeated.
 */
export function checkPptxShapes(deck: Deck, rules: Rules, findings: FindingList): void {
  const expected = rules.pptx?.shapes;
  const slides = deck.slides.filter((slide) => !slide.hidden);
  if (!expected || expected.length !== slides.length) return;
  const tolerance = rules.tolerance?.positionIn ?? 0.1;
  expected.forEach((shapes, index) => {
    const slide = slides[index]!;
    const own = slide.shapes.filter((shape) => !shape.inherited);
    const used = new Set<Shape>();
    for (const rule of shapes) {
      const fits = (item: Shape): boolean =>
        !used.has(item) && (item.kind === rule.kind || (rule.kind === 'text' && item.kind === 'graphic'));
      // A title is matched as the title first (a generator may write it in a text box and leave the placeholder empty).
      const shape =
        (rule.role === undefined
          ? undefined
          : own.find((item) => fits(item) && item.role === rule.role && item.text.trim() !== '')) ??
        (rule.placeholder === undefined
          ? undefined
          : own.find((item) => fits(item) && item.key === rule.placeholder)) ??
        own.find((item) => fits(item) && item.name === rule.name);
      const where = locate({ slide: slide.number, shape: rule.name });
      const noun = NOUN[rule.kind];
      if (!shape) {
        findings.add({
          rule: `structure.${noun}-missing`,
          severity: 'high',
          where,
          message: `The ${noun} "${rule.name}" is missing from the slide`,
          expected: `the ${noun} "${rule.name}", as in the template`,
          actual: 'missing',
          fix: `Put the ${noun} "${rule.name}" back on slide ${slide.number}.`,
        });
        continue;
      }
      used.add(shape);
      if (rule.box && shape.box) {
        const [x, y, w, h] = [inches(shape.box.x), inches(shape.box.y), inches(shape.box.w), inches(shape.box.h)];
        const [ex, ey, ew, eh] = rule.box;
        const moved = Math.abs(x - ex) > tolerance || Math.abs(y - ey) > tolerance;
        const resized = Math.abs(w - ew) > tolerance || Math.abs(h - eh) > tolerance;
        if (moved || resized) {
          const what = moved && resized ? 'moved and resized' : moved ? 'moved' : 'resized';
          findings.add({
            rule: `format.${noun}-${moved ? 'moved' : 'resized'}`,
            severity: 'medium',
            where,
            message: `The ${noun} "${rule.name}" is ${what}`,
            expected: `at ${ex}, ${ey} in, ${ew} x ${eh} in`,
            actual: `at ${x}, ${y} in, ${w} x ${h} in`,
            fix: `Place the ${noun} as in the template: left ${ex} in, top ${ey} in, ${ew} x ${eh} in.`,
          });
        }
      }
      if (rule.text && shape.text.trim() === '') {
        if (!findings.reportedAt(where.label, 'content.'))
          findings.add({
            rule: 'content.empty',
            severity: 'high',
            where,
            message: 'The text is empty',
            expected: 'text, as in the template',
            actual: 'empty',
            fix: 'Write the text from the source data; if the data is missing, say so rather than inventing it.',
          });
        continue;
      }
      const style = shapeStyle(shape);
      // Only a style finding stops this one (an overflow or overlap at the same shape is another defect).
      const styled = ['format.title-', 'format.subtitle-', 'format.body-', 'format.footer-'].some((prefix) =>
        findings.reportedAt(where.label, prefix),
      );
      if (rule.style && style && !styled) {
        compareStyle(
          style,
          rule.style,
          { what: 'text', ruleBase: 'format.text', where, severity: {}, sizeTolerance: rules.tolerance?.sizePt ?? 0.5 },
          findings,
        );
      }
    }
  });
}
