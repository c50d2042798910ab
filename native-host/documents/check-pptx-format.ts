import type { Deck, Slide } from './document-model';
import { type FindingList, quote } from './finding-list';
import {
  dividersOf,
  firstOfRole,
  inches,
  isContent,
  kindRules,
  overlapKey,
  overlappingPairs,
  shapeStyle,
  slideKind,
} from './pptx-geometry';
import type { Rules, SlideKindRules } from './rules';
import { compareStyle } from './style-compare';
import { EMU_PER_POINT, estimateFit } from './text-fit';

interface Tolerance {
  sizePt: number;
  positionIn: number;
  overlap: number;
}

function checkStyles(slide: Slide, rules: SlideKindRules, tolerance: Tolerance, findings: FindingList): void {
  for (const role of ['title', 'subtitle'] as const) {
    const expected = rules[role];
    const shape = firstOfRole(slide, role);
    const style = shape && shapeStyle(shape);
    if (!expected || !shape || !style || shape.text.trim() === '') continue;
    const serious = role === 'title' ? 'high' : 'medium';
    compareStyle(
      style,
      expected,
      {
        what: role,
        ruleBase: `format.${role}`,
        where: { slide: slide.number, shape: shape.name },
        severity: { size: serious, color: serious },
        sizeTolerance: tolerance.sizePt,
      },
      findings,
    );
  }
  if (rules.body && rules.descriptions) {
    for (const shape of slide.shapes.filter((item) => rules.descriptions?.[item.key] && item.text.trim() !== '')) {
      const style = shapeStyle(shape);
      if (style)
        compareStyle(
          style,
          rules.body,
          {
            what: 'description text',
            ruleBase: 'format.body',
            where: { slide: slide.number, shape: shape.name },
            severity: {},
            sizeTolerance: tolerance.sizePt,
          },
          findings,
        );
    }
  }
}

function checkPositions(
  slide: Slide,
  deck: Deck,
  rules: SlideKindRules,
  tolerance: Tolerance,
  findings: FindingList,
): void {
  const title = firstOfRole(slide, 'title');
  if (
    rules.titleTopIn !== undefined &&
    title?.box &&
    Math.abs(inches(title.box.y) - rules.titleTopIn) > tolerance.positionIn
  ) {
    findings.add({
      rule: 'format.title-position',
      severity: 'medium',
      where: { slide: slide.number, shape: title.name },
      message: 'The title is not where the template puts it',
      expected: `top at ${rules.titleTopIn} in`,
      actual: `top at ${inches(title.box.y)} in`,
      fix: `Place the title ${rules.titleTopIn} in from the top of the slide, as in the template.`,
    });
  }
  const ALIGN: Record<string, string> = {
    l: 'left',
    ctr: 'centred',
    r: 'right',
    just: 'justified',
    dist: 'distributed',
  };
  const align = title?.paragraphs.find((paragraph) => paragraph.text.trim() !== '')?.align;
  if (rules.titleAlign !== undefined && title && align !== undefined && align !== rules.titleAlign) {
    findings.add({
      rule: 'format.title-align',
      severity: 'medium',
      where: { slide: slide.number, shape: title.name },
      message: 'The title is aligned differently from the template',
      expected: ALIGN[rules.titleAlign] ?? rules.titleAlign,
      actual: ALIGN[align] ?? align,
      fix: `Align the title ${ALIGN[rules.titleAlign] ?? rules.titleAlign}, as in the template.`,
    });
  }
  const tops = slide.shapes.filter((shape) => isContent(shape) && shape.role === 'body').map((shape) => shape.box!.y);
  if (
    rules.contentTopIn !== undefined &&
    tops.length > 0 &&
    Math.abs(inches(Math.min(...tops)) - rules.contentTopIn) > tolerance.positionIn
  ) {
    findings.add({
      rule: 'format.content-start',
      severity: 'medium',
      where: { slide: slide.number },
      message: 'The content does not start where the template starts it',
      expected: `content from ${rules.contentTopIn} in`,
      actual: `content from ${inches(Math.min(...tops))} in`,
      fix: `Start the content below the title at ${rules.contentTopIn} in from the top.`,
    });
  }
  const present = dividersOf(slide, deck.width);
  for (const divider of rules.dividers ?? []) {
    const match = present.find((item) => Math.abs(inches(item.y) - divider.yIn) <= Math.max(tolerance.positionIn, 0.1));
    if (!match) {
      findings.add({
        rule: 'format.divider-missing',
        severity: 'medium',
        where: { slide: slide.number },
        message: 'The divider line under the title is missing',
        expected: `a horizontal line at ${divider.yIn} in${divider.color ? ` in #${divider.color}` : ''}`,
        actual:
          present.length > 0
            ? `lines at ${present.map((item) => `${inches(item.y)} in`).join(', ')}`
            : 'no divider line',
        fix: `Draw the divider line at ${divider.yIn} in from the top (or use the template's layout, which has it).`,
      });
    } else if (divider.color && match.color && match.color !== divider.color) {
      findings.add({
        rule: 'format.divider-color',
        severity: 'medium',
        where: { slide: slide.number },
        message: 'The divider line has another colour than the template',
        expected: `#${divider.color}`,
        actual: `#${match.color}`,
        fix: `Colour the divider line #${divider.color}.`,
      });
    }
  }
}

function checkOverflow(slide: Slide, deck: Deck, rules: SlideKindRules | undefined, findings: FindingList): void {
  const limit = rules?.overflowTolerance ?? 1;
  for (const shape of slide.shapes) {
    if (shape.inherited || shape.role === 'decoration' || shape.kind !== 'text') continue;
    const fit = estimateFit(shape);
    if (!fit || !shape.box) continue;
    const where = { slide: slide.number, shape: shape.name };
    const lines = `about ${fit.lines} line${fit.lines === 1 ? '' : 's'} needing ${Math.round(fit.neededPt)} pt`;
    if (shape.autofit === 'shape') {
      const bottom = shape.box.y + (fit.neededPt * EMU_PER_POINT + shape.insets.t + shape.insets.b);
      if (bottom > deck.height * 1.01) {
        findings.add({
          rule: 'format.overflow',
          severity: 'high',
          where,
          message: 'The text grows its box past the bottom of the slide',
          expected: `text ending above ${inches(deck.height)} in`,
          actual: `${lines}, ending near ${inches(bottom)} in`,
          fix: 'Shorten the text or split it across slides.',
        });
      }
      continue;
    }
    if (fit.ratio <= limit) continue;
    if (shape.autofit === 'shrink') {
      findings.add({
        rule: 'format.overflow-shrunk',
        severity: 'medium',
        where,
        message: 'The text only fits by shrinking, so it will look smaller than the template',
        expected: `${Math.round(fit.availablePt)} pt of text height`,
        actual: lines,
        fix: 'Shorten the text so it fits at the template size.',
      });
      continue;
    }
    findings.add({
      rule: 'format.overflow',
      severity: fit.ratio > limit * 1.15 ? 'high' : 'medium',
      where,
      message: fit.ratio > limit * 1.15 ? 'The text overflows its box' : 'The text may overflow its box',
      expected: `at most ${Math.round(fit.availablePt)} pt of text (box ${inches(shape.box.h)} in high)`,
      actual: `${lines} (${Math.round(fit.ratio * 100)}% of the box): ${quote(shape.text, 50)}`,
      fix: `Shorten this text to about ${Math.max(1, Math.floor((shape.text.split(/\s+/).length * limit) / fit.ratio))} words, or make the box taller without covering other shapes.`,
    });
  }
}

function checkOverlap(
  slide: Slide,
  deck: Deck,
  rules: SlideKindRules | undefined,
  tolerance: Tolerance,
  findings: FindingList,
): void {
  const allowed = new Set((rules?.allowedOverlaps ?? []).map((pair) => [...pair].sort().join('\u0000')));
  for (const { a, b, share } of overlappingPairs(slide, deck, tolerance.overlap)) {
    if (allowed.has([overlapKey(a), overlapKey(b)].sort().join('\u0000'))) continue;
    const textual = (kind: string): boolean => kind === 'text' || kind === 'table';
    findings.add({
      rule: 'format.overlap',
      severity: textual(a.kind) && textual(b.kind) ? 'high' : 'medium',
      where: { slide: slide.number, shape: a.name },
      message: `Shape "${a.name}" overlaps shape "${b.name}"`,
      expected: 'no overlap (the template keeps them apart)',
      actual: `${Math.round(share * 100)}% of the smaller shape is covered`,
      fix: `Move or resize "${a.name}" or "${b.name}" so they no longer overlap${b.box ? ` (the second starts at ${inches(b.box.y)} in from the top)` : ''}.`,
    });
  }
}

/** Formatting learned from the reference: styles, positions, dividers, overflow and overlap, slide by slide. */
export function checkPptxFormat(deck: Deck, rules: Rules, findings: FindingList): void {
  const tolerance: Tolerance = {
    sizePt: rules.tolerance?.sizePt ?? 0.5,
    positionIn: rules.tolerance?.positionIn ?? 0.25,
    overlap: rules.tolerance?.overlap ?? 0.1,
  };
  for (const slide of deck.slides.filter((item) => !item.hidden)) {
    const { rules: kind } = kindRules(rules.pptx ?? {}, slideKind(slide));
    if (kind) {
      checkStyles(slide, kind, tolerance, findings);
      checkPositions(slide, deck, kind, tolerance, findings);
    }
    checkOverflow(slide, deck, kind, findings);
    checkOverlap(slide, deck, kind, tolerance, findings);
  }
}
