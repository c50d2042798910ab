import { checkHollow, checkTextUnits, type TextUnit } from './check-content';
import { coverValue, mode, normalizeText, wordCount, type ContentScanner } from './content-scan';
import type { Section, WordDocument } from './document-model';
import type { FindingList } from './finding-list';
import { sectionBody } from './learn-docx';
import type { Rules } from './rules';
import { compareStyle } from './style-compare';

const titleKey = (title: string): string => normalizeText(title.replace(/^\s*\d+(\.\d+)*\.?\s+/, ''));
const where = (section: Section): { section: string; sectionTitle: string } => ({
  section: section.number,
  sectionTitle: section.title,
});

/** Sections, cover, heading and body styles, section text and tables of a Word document; and hollowness. */
export function checkDocx(
  document: WordDocument,
  rules: Rules,
  scanner: ContentScanner,
  findings: FindingList,
): boolean {
  const docx = rules.docx ?? {};
  const byTitle = new Map(document.sections.map((section) => [titleKey(section.title), section] as const));
  let slots = 0;
  let filled = 0;
  const required = docx.sections ?? [];
  const missing = required.filter((title) => !byTitle.has(titleKey(title)));
  for (const title of missing) {
    const before = required[required.indexOf(title) - 1];
    findings.add({
      rule: 'structure.missing-section',
      severity: 'high',
      where: {},
      message: `The section "${title}" is missing`,
      expected: `a section "${title}"${before ? ` after "${before}"` : ''}`,
      actual: 'missing',
      fix: `Add the section "${title}" with its content, as in the template.`,
    });
  }
  const present = required.filter((title) => byTitle.has(titleKey(title)));
  const order = document.sections
    .map((section) => titleKey(section.title))
    .filter((key) => present.some((title) => titleKey(title) === key));
  if (present.some((title, index) => titleKey(title) !== order[index])) {
    findings.add({
      rule: 'structure.section-order',
      severity: 'medium',
      where: {},
      message: 'The sections are in another order than in the template',
      expected: present.join(' / '),
      actual: order.map((key) => byTitle.get(key)?.title ?? key).join(' / '),
      fix: 'Order the sections as in the template.',
    });
  }
  const title = document.cover.find((paragraph) => paragraph.headingLevel === 0 && paragraph.text.trim() !== '');
  if (docx.cover?.title) {
    slots += 1;
    if (title) filled += 1;
    else
      findings.add({
        rule: 'structure.cover-field',
        severity: 'high',
        where: { paragraph: 1 },
        message: 'The document has no title on its cover',
        expected: 'a paragraph in the Title style before the first heading',
        actual: 'none',
        fix: 'Start the document with its title in the Title style.',
      });
  }
  const coverText = document.cover.map((paragraph) => paragraph.text).join('\n');
  for (const label of docx.cover?.labels ?? []) {
    const value = coverValue(coverText, label);
    if (value) continue;
    findings.add({
      rule: 'structure.cover-field',
      severity: 'high',
      where: {},
      message: `The cover field "${label}" is ${value === undefined ? 'missing' : 'empty'}`,
      expected: `"${label}: <value>" on the cover`,
      actual: value === undefined ? 'missing' : `"${label}:" with no value`,
      fix: `Write the cover's "${label}" line with its real value.`,
    });
  }
  const headingStyle = (level: number): NonNullable<typeof docx.headings>[string] | undefined =>
    docx.headings?.[String(level)];
  if (title && headingStyle(0))
    compareStyle(
      title.style,
      headingStyle(0)!,
      {
        what: 'document title',
        ruleBase: 'format.title',
        where: {},
        severity: { size: 'high', color: 'high' },
        sizeTolerance: rules.tolerance?.sizePt ?? 0.5,
      },
      findings,
    );
  for (const section of document.sections) {
    const expected = headingStyle(section.level);
    if (!expected) continue;
    const serious = section.level === 1 ? 'high' : 'medium';
    compareStyle(
      section.heading.style,
      expected,
      {
        what: `heading ${section.level}`,
        ruleBase: 'format.heading',
        where: where(section),
        severity: { size: serious, color: serious },
        sizeTolerance: rules.tolerance?.sizePt ?? 0.5,
      },
      findings,
    );
  }
  const bodyStyles = document.sections.flatMap((section) =>
    section.paragraphs.filter((paragraph) => paragraph.text.trim() !== '').map((paragraph) => paragraph.style),
  );
  const body = mode(bodyStyles, (style) => JSON.stringify([style.size, style.color, style.font]));
  if (docx.body && body)
    compareStyle(
      body,
      { ...docx.body, bold: undefined },
      {
        what: 'body text',
        ruleBase: 'format.body',
        where: {},
        severity: {},
        sizeTolerance: rules.tolerance?.sizePt ?? 0.5,
      },
      findings,
    );

  const ranges = new Map(
    Object.entries(docx.sectionText ?? {}).map(([title, range]) => [titleKey(title), range] as const),
  );
  const mustFill = new Set(
    docx.sectionText ? ranges.keys() : document.sections.map((section) => titleKey(section.title)),
  );
  slots += missing.filter((item) => mustFill.has(titleKey(item))).length;
  const units: TextUnit[] = [];
  for (const section of document.sections) {
    const text = sectionBody(section);
    const links = section.paragraphs.flatMap((paragraph) => paragraph.links);
    const fill = mustFill.has(titleKey(section.title));
    if (fill) {
      slots += 1;
      if (wordCount(text) >= 3 && !scanner.placeholder(text)) filled += 1;
    }
    units.push({
      where: where(section),
      text,
      links,
      ...(fill ? { description: ranges.get(titleKey(section.title)) ?? docx.sectionWords ?? {} } : {}),
      noun: 'section text',
    });
    const paragraphs = section.paragraphs.filter((paragraph) => paragraph.text.trim() !== '').length;
    const range = docx.paragraphsPerSection;
    if (
      fill &&
      paragraphs > 0 &&
      range &&
      ((range.min !== undefined && paragraphs < range.min) || (range.max !== undefined && paragraphs > range.max))
    ) {
      findings.add({
        rule: 'content.paragraphs',
        severity: 'medium',
        where: where(section),
        message: `The section has ${paragraphs} paragraph${paragraphs === 1 ? '' : 's'}`,
        expected: `${range.min ?? 0} to ${range.max ?? '∞'} paragraphs, as in the template`,
        actual: `${paragraphs}`,
        fix:
          paragraphs < (range.min ?? 0)
            ? 'Develop the section: the template gives such sections more substance.'
            : 'Tighten the section.',
      });
    }
    for (const table of section.tables)
      units.push({ where: where(section), text: table.rows.flat().join('\n'), links, noun: 'table' });
  }
  const wantedTables = new Map<string, Array<{ columns: string[] }>>();
  for (const table of docx.tables ?? [])
    wantedTables.set(titleKey(table.section), [...(wantedTables.get(titleKey(table.section)) ?? []), table]);
  for (const [key, wanted] of wantedTables) {
    const section = byTitle.get(key);
    if (!section) continue;
    if (section.tables.length < wanted.length) {
      // Reported once for the section: comparing the remaining tables by position would blame the wrong ones.
      const absent = wanted[section.tables.length]!;
      findings.add({
        rule: 'structure.table-missing',
        severity: 'high',
        where: where(section),
        message:
          section.tables.length === 0
            ? `The section has no table, where the template has ${wanted.length === 1 ? 'one' : wanted.length}`
            : `The section has ${section.tables.length} table${section.tables.length === 1 ? '' : 's'}, where the template has ${wanted.length}`,
        expected: `${wanted.length} table${wanted.length === 1 ? '' : 's'}, the first absent with columns ${absent.columns.join(', ')}`,
        actual: section.tables.length === 0 ? 'no table' : `${section.tables.length} table${section.tables.length === 1 ? '' : 's'}`,
        fix: `Add the table with columns ${absent.columns.join(', ')}.`,
      });
      continue;
    }
    wanted.forEach((table, index) => {
      const present = section.tables[index]!;
      const headers = new Set((present.rows[0] ?? []).map((cell) => cell.trim().toLowerCase()));
      const lacking = table.columns.filter((column) => !headers.has(column.trim().toLowerCase()));
      if (lacking.length > 0)
        findings.add({
          rule: 'structure.table-columns',
          severity: 'high',
          where: where(section),
          message: `The table${wanted.length > 1 ? ` ${index + 1}` : ''} lacks column${lacking.length === 1 ? '' : 's'} ${lacking.join(', ')}`,
          expected: table.columns.join(', '),
          actual: (present.rows[0] ?? []).join(', '),
          fix: `Add the column${lacking.length === 1 ? '' : 's'} ${lacking.join(', ')} to the table.`,
        });
    });
  }
  for (const paragraph of document.cover)
    units.push({ where: {}, text: paragraph.text, links: paragraph.links, noun: 'cover text' });
  checkTextUnits(units, scanner, findings);
  return checkHollow(filled, slots, scanner.hollowRatio, 'sections and cover fields', findings);
}
