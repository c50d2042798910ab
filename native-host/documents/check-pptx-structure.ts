import type { Deck } from './document-model';
import { coverValue } from './content-scan';
import type { FindingList } from './finding-list';
import { firstOfRole, kindRules, slideKind } from './pptx-geometry';
import type { Rules } from './rules';

/** Slide count, the layouts the template uses, the cover's fields and the tables each kind of slide carries. */
export function checkPptxStructure(deck: Deck, rules: Rules, findings: FindingList): void {
  const pptx = rules.pptx ?? {};
  const slides = deck.slides.filter((slide) => !slide.hidden);
  const range = pptx.slides;
  if (
    range &&
    ((range.min !== undefined && slides.length < range.min) || (range.max !== undefined && slides.length > range.max))
  ) {
    const wanted =
      range.max === undefined
        ? `at least ${range.min}`
        : range.min === undefined
          ? `at most ${range.max}`
          : `${range.min} to ${range.max}`;
    findings.add({
      rule: 'structure.slide-count',
      severity: 'high',
      where: {},
      message: `The deck has ${slides.length} slide${slides.length === 1 ? '' : 's'}`,
      expected: `${wanted} slides`,
      actual: `${slides.length} slides`,
      fix:
        slides.length < (range.min ?? 0)
          ? 'Generate the missing slides: every item the template covers needs its slide.'
          : 'Remove the extra slides.',
    });
  }
  const kinds = new Set(slides.map(slideKind));
  for (const kind of pptx.requiredKinds ?? []) {
    if (kinds.has(kind)) continue;
    findings.add({
      rule: 'structure.missing-layout',
      severity: 'high',
      where: {},
      message: `No slide uses the layout "${kind}"`,
      expected: `at least one "${kind}" slide, as in the template`,
      actual: `layouts used: ${[...kinds].filter((item) => item !== 'cover').join(', ') || 'none'}`,
      fix: `Add the "${kind}" slide(s) the template has, using its "${kind}" layout.`,
    });
  }
  for (const slide of slides) {
    const { known } = kindRules(pptx, slideKind(slide));
    if (!known && slide.number !== 1) {
      findings.add({
        rule: 'structure.unknown-layout',
        severity: 'medium',
        where: { slide: slide.number },
        message: `The slide uses the layout "${slide.layout}", which the template does not use`,
        expected: `one of: ${Object.keys(pptx.kinds ?? {})
          .filter((kind) => kind !== 'cover')
          .join(', ')}`,
        actual: slide.layout,
        fix: "Build this slide on one of the template's layouts.",
      });
    }
  }
  const cover = slides[0];
  if (cover) {
    for (const role of pptx.cover?.roles ?? []) {
      const shape = firstOfRole(cover, role);
      if (shape && shape.text.trim() !== '') continue;
      findings.add({
        rule: 'structure.cover-field',
        severity: 'high',
        where: { slide: cover.number, ...(shape ? { shape: shape.name } : {}) },
        message: `The cover has no ${role}`,
        expected: `a ${role} on the cover`,
        actual: shape ? 'an empty placeholder' : 'missing',
        fix: `Fill in the cover's ${role}.`,
      });
    }
    const coverText = cover.shapes.map((shape) => shape.text).join('\n');
    for (const label of pptx.cover?.labels ?? []) {
      const value = coverValue(coverText, label);
      if (value) continue;
      findings.add({
        rule: 'structure.cover-field',
        severity: 'high',
        where: { slide: cover.number },
        message: `The cover field "${label}" is ${value === undefined ? 'missing' : 'empty'}`,
        expected: `"${label}: <value>" on the cover`,
        actual: value === undefined ? 'missing' : `"${label}:" with no value`,
        fix: `Write the cover's "${label}" line with its real value.`,
      });
    }
  }
  for (const slide of slides) {
    const required = kindRules(pptx, slideKind(slide)).rules?.tables ?? [];
    const tables = slide.shapes.filter((shape) => shape.kind === 'table' && !shape.inherited);
    for (const table of required) {
      if (tables.length === 0) {
        findings.add({
          rule: 'structure.table-missing',
          severity: 'high',
          where: { slide: slide.number },
          message: 'The slide has no table, where the template has one',
          expected: `a table with columns ${table.columns.join(', ')}`,
          actual: 'no table',
          fix: `Add the table with columns ${table.columns.join(', ')}.`,
        });
        continue;
      }
      const headers = new Set((tables[0]!.table?.[0] ?? []).map((cell) => cell.trim().toLowerCase()));
      const missing = table.columns.filter((column) => !headers.has(column.trim().toLowerCase()));
      if (missing.length > 0) {
        findings.add({
          rule: 'structure.table-columns',
          severity: 'high',
          where: { slide: slide.number, shape: tables[0]!.name },
          message: `The table lacks column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`,
          expected: table.columns.join(', '),
          actual: [...(tables[0]!.table?.[0] ?? [])].join(', ') || 'no header row',
          fix: `Add the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} to the table.`,
        });
      }
    }
  }
}
