import type { Deck, DocumentModel, Shape, SheetRow, SheetTable, Workbook, WordDocument, WordParagraph, WordTable } from './document-model';
import { locate, type FindingLocation } from './finding';
import { quote, type FindingList } from './finding-list';
import { alignSequences } from './sequence-alignment';

/**
 * Values of an output compared with a reference that is an expected output (not a template): every cell, every
 * paragraph of every slide shape and every paragraph and table cell of a Word document. A value that differs is
 * reported where it is: `values.number-changed` when only the numbers in it differ, `values.text-changed` otherwise,
 * `values.missing` when the reference has a value the output lacks, and `values.added` (medium) for the reverse.
 * Parts that are missing as a whole (a slide, a sheet, a section, a shape) are the structure checks' to report, so
 * they are skipped here: each defect is reported once.
 */

const NUMBER = /[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?%?/g;
const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();

type Change = 'same' | 'number' | 'text' | 'missing' | 'added';

function change(reference: string, output: string, numeric = false): Change {
  const a = flat(reference);
  const b = flat(output);
  if (a === b) return 'same';
  if (numeric) {
    const x = Number(a);
    const y = Number(b);
    if (Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y))) return 'same';
  }
  if (b === '') return 'missing';
  if (a === '') return 'added';
  return a.replace(NUMBER, '#') === b.replace(NUMBER, '#') ? 'number' : 'text';
}

const RULE: Record<Exclude<Change, 'same'>, string> = {
  number: 'values.number-changed',
  text: 'values.text-changed',
  missing: 'values.missing',
  added: 'values.added',
};
const MESSAGE: Record<Exclude<Change, 'same'>, string> = {
  number: 'A number differs from the reference',
  text: 'The text differs from the reference',
  missing: 'A value of the reference is missing',
  added: 'A value the reference does not have',
};

function report(findings: FindingList, where: FindingLocation, reference: string, output: string, numeric = false): void {
  const kind = change(reference, output, numeric);
  if (kind === 'same') return;
  findings.add({
    rule: RULE[kind],
    severity: kind === 'added' ? 'medium' : 'high',
    where,
    message: MESSAGE[kind],
    expected: reference.trim() === '' ? '(empty)' : quote(reference, 120),
    actual: output.trim() === '' ? '(empty)' : quote(output, 120),
    fix:
      kind === 'added'
        ? 'Check where this value comes from: the expected output has nothing here.'
        : 'Make this value match the expected output: find the code or data that produces it and correct the calculation or source, not the document by hand.',
  });
}

/** Where a location's label is built by hand (a cell of a table in a slide or a section), with the parts kept for tools. */
const at = (label: string, parts: Omit<FindingLocation, 'label'>): FindingLocation => ({ label, ...parts });

function compareWorkbook(reference: Workbook, output: Workbook, findings: FindingList): void {
  for (const sheet of reference.sheets) {
    const other = output.sheets.find((item) => item.name === sheet.name);
    if (!other) continue;
    const wantTables = sheet.tables ?? [sheet];
    const gotTables = other.tables ?? [other];
    wantTables.forEach((want, tableIndex) => {
      const got = gotTables[tableIndex];
      if (got) compareSheetTable(sheet.name, want, got, findings);
    });
  }
}

/**
 * One table of a sheet: columns matched by header (by letter where there is none), rows aligned by their values, so
 * a removed column or row is reported once by the structure checks instead of shifting every value after it.
 */
function compareSheetTable(sheet: string, want: SheetTable, got: SheetTable, findings: FindingList): void {
  const headerKey = (columns: SheetTable['columns']) => {
    const counts = new Map<string, number>();
    for (const column of columns) counts.set(column.header, (counts.get(column.header) ?? 0) + 1);
    return (column: SheetTable['columns'][number]): string =>
      column.header !== '' && counts.get(column.header) === 1 ? `h:${column.header}` : `l:${column.letter}`;
  };
  const wantKey = headerKey(want.columns);
  const gotKey = headerKey(got.columns);
  const pairs = want.columns.flatMap((column) => {
    const match = got.columns.find((item) => gotKey(item) === wantKey(column));
    return match ? [{ want: column, got: match }] : [];
  });
  const signature = (row: SheetRow, side: 'want' | 'got'): string =>
    pairs.map((pair) => flat(row.cells[pair[side].index - 1]?.text ?? '')).join('\u0000');
  const rows = alignSequences(
    want.rows.map((row) => ({ row, key: signature(row, 'want') })),
    got.rows.map((row) => ({ row, key: signature(row, 'got') })),
    (item) => item.key,
  );
  for (const { reference: a, output: b } of rows) {
    const number = (b ?? a)!.row.number;
    if (!a || !b) {
      // A whole row missing or added: one finding for the row, with its values.
      const side = a ? 'want' : 'got';
      const text = pairs.map((pair) => (a ?? b)!.row.cells[pair[side].index - 1]?.text.trim() ?? '').filter(Boolean).join(' | ');
      report(findings, at(`sheet "${sheet}" row ${number}`, { sheet, row: number }), a ? text : '', b ? text : '');
      continue;
    }
    for (const pair of pairs) {
      const left = a.row.cells[pair.want.index - 1];
      const right = b.row.cells[pair.got.index - 1];
      const letter = pair.got.letter;
      const header = pair.got.header || pair.want.header;
      report(
        findings,
        at(`sheet "${sheet}" cell ${letter}${number}${header ? ` (column "${header}")` : ''}`, {
          sheet,
          row: number,
          column: header || letter,
        }),
        left?.text ?? '',
        right?.text ?? '',
        left?.type === 'number' && right?.type === 'number',
      );
    }
  }
}

function compareTable(reference: readonly string[][], output: readonly string[][], label: string, parts: Omit<FindingLocation, 'label'>, findings: FindingList): void {
  const rows = Math.max(reference.length, output.length);
  for (let r = 0; r < rows; r += 1) {
    const columns = Math.max(reference[r]?.length ?? 0, output[r]?.length ?? 0);
    for (let c = 0; c < columns; c += 1)
      report(findings, at(`${label} row ${r + 1}, column ${c + 1}`, { ...parts, row: r + 1, column: String(c + 1) }), reference[r]?.[c] ?? '', output[r]?.[c] ?? '');
  }
}

function compareParagraphs(reference: readonly string[], output: readonly string[], where: (index: number) => FindingLocation, findings: FindingList): void {
  for (const pair of alignSequences(reference, output, flat)) {
    const index = (pair.outputIndex ?? pair.referenceIndex)! + 1;
    report(findings, where(index), pair.reference ?? '', pair.output ?? '');
  }
}

const ownShapes = (shapes: readonly Shape[]): Shape[] =>
  shapes.filter((shape) => !shape.inherited && (shape.table !== undefined || shape.paragraphs.length > 0));

function compareDeck(reference: Deck, output: Deck, findings: FindingList): void {
  const signature = (slide: Deck['slides'][number]): string => ownShapes(slide.shapes).map((shape) => shape.key).join('\u0000');
  const slides = alignSequences(
    reference.slides.filter((slide) => !slide.hidden),
    output.slides.filter((slide) => !slide.hidden),
    signature,
  );
  for (const { reference: want, output: got } of slides) {
    if (!want || !got) continue;
    for (const { reference: a, output: b } of alignSequences(ownShapes(want.shapes), ownShapes(got.shapes), (shape) => shape.key)) {
      if (!a || !b) continue;
      const label = `slide ${got.number}, shape "${b.name}"`;
      if (a.table || b.table) {
        compareTable(a.table ?? [], b.table ?? [], `${label}, table`, { slide: got.number, shape: b.name }, findings);
        continue;
      }
      compareParagraphs(
        a.paragraphs.map((paragraph) => paragraph.text),
        b.paragraphs.map((paragraph) => paragraph.text),
        (index) => at(`${label}, paragraph ${index}`, { slide: got.number, shape: b.name, paragraph: index }),
        findings,
      );
    }
  }
}

function compareWordBody(
  reference: { paragraphs: readonly WordParagraph[]; tables: readonly WordTable[] },
  output: { paragraphs: readonly WordParagraph[]; tables: readonly WordTable[] },
  where: Omit<FindingLocation, 'label'> & { sectionTitle?: string },
  findings: FindingList,
): void {
  const base = locate(where);
  const prefix = base.label === 'document' ? '' : `${base.label}, `;
  const { label: _label, ...parts } = base;
  compareParagraphs(
    reference.paragraphs.map((paragraph) => paragraph.text),
    output.paragraphs.map((paragraph) => paragraph.text),
    (index) => at(`${prefix}paragraph ${index}`, { ...parts, paragraph: index }),
    findings,
  );
  const tables = Math.min(reference.tables.length, output.tables.length);
  for (let index = 0; index < tables; index += 1)
    compareTable(reference.tables[index]!.rows, output.tables[index]!.rows, `${prefix}table ${index + 1}`, parts, findings);
}

function compareWord(reference: WordDocument, output: WordDocument, findings: FindingList): void {
  compareWordBody({ paragraphs: reference.cover, tables: reference.coverTables }, { paragraphs: output.cover, tables: output.coverTables }, {}, findings);
  for (const { reference: a, output: b } of alignSequences(reference.sections, output.sections, (section) => `${section.level}\u0000${flat(section.title)}`)) {
    if (!a || !b) continue;
    // A renamed heading is the structure checks' finding; here only what is under it.
    compareWordBody(a, b, { section: b.number, sectionTitle: b.title }, findings);
  }
}

/** Adds a finding for every value of `output` that differs from the same place in `reference` (same kind). */
export function compareValues(reference: DocumentModel, output: DocumentModel, findings: FindingList): void {
  if (reference.kind === 'xlsx' && output.kind === 'xlsx') compareWorkbook(reference, output, findings);
  else if (reference.kind === 'pptx' && output.kind === 'pptx') compareDeck(reference, output, findings);
  else if (reference.kind === 'docx' && output.kind === 'docx') compareWord(reference, output, findings);
}
