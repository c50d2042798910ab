import { COVER_LABEL, mode, wordCount } from './content-scan';
import type { Section, TextStyle, WordDocument } from './document-model';
import type { DocxRules, StyleRule } from './rules';

function styleRule(styles: TextStyle[]): StyleRule | undefined {
  const common = mode(styles, (style) => JSON.stringify([style.size, style.color, style.font, style.bold]));
  if (!common) return undefined;
  return {
    ...(common.size === undefined ? {} : { size: common.size }),
    ...(common.color === undefined ? {} : { color: common.color }),
    ...(common.font === undefined ? {} : { font: common.font }),
    ...(common.bold === undefined ? {} : { bold: common.bold }),
  };
}

export const sectionBody = (section: Section): string =>
  section.paragraphs.map((paragraph) => paragraph.text).join('\n');

/** Learns a document's rules: its sections in order, which carry text and how much, heading styles, cover, tables. */
export function learnDocx(document: WordDocument): DocxRules {
  const rules: DocxRules = {};
  const outline = document.sections;
  if (outline.length > 0) rules.sections = outline.map((section) => section.title);
  const filled = document.sections.filter((section) => wordCount(sectionBody(section)) > 0);
  if (filled.length > 0) {
    rules.sectionText = Object.fromEntries(
      filled.map((section) => {
        const words = wordCount(sectionBody(section));
        return [section.title, { min: Math.max(3, Math.floor(words * 0.4)), max: Math.ceil(words * 3) }];
      }),
    );
    const paragraphs = filled.map(
      (section) => section.paragraphs.filter((paragraph) => paragraph.text.trim() !== '').length,
    );
    rules.paragraphsPerSection = {
      min: Math.max(1, Math.floor(Math.min(...paragraphs) * 0.5)),
      max: Math.ceil(Math.max(...paragraphs) * 2) + 1,
    };
  }
  const title = document.cover.find((paragraph) => paragraph.headingLevel === 0 && paragraph.text.trim() !== '');
  const labels = document.cover
    .filter((paragraph) => paragraph.headingLevel === undefined)
    .map((paragraph) => COVER_LABEL.exec(paragraph.text)?.[1])
    .filter((label): label is string => label !== undefined);
  rules.cover = { title: title !== undefined, labels: [...new Set(labels)] };
  const headings: Record<string, StyleRule> = {};
  const byLevel = new Map<number, TextStyle[]>();
  if (title) byLevel.set(0, [title.style]);
  for (const section of document.sections)
    byLevel.set(section.level, [...(byLevel.get(section.level) ?? []), section.heading.style]);
  for (const [level, styles] of byLevel) {
    const rule = styleRule(styles);
    if (rule) headings[String(level)] = rule;
  }
  if (Object.keys(headings).length > 0) rules.headings = headings;
  const bodyStyles = document.sections.flatMap((section) =>
    section.paragraphs
      .filter((paragraph) => paragraph.text.trim() !== '' && paragraph.headingLevel === undefined)
      .map((paragraph) => paragraph.style),
  );
  const body = styleRule(bodyStyles);
  if (body) rules.body = body;
  // Every table of a section, in order: a section that had two and now has one is missing a table.
  const tables = document.sections.flatMap((section) =>
    section.tables.map((table) => ({ section: section.title, columns: table.rows[0] ?? [] })),
  );
  if (tables.length > 0) rules.tables = tables;
  return rules;
}
