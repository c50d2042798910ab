import { median, mode, wordCount } from './content-scan';
import type { Sheet, Workbook } from './document-model';
import type { SheetRules, XlsxRules } from './rules';

const DESCRIPTION_WORDS = 8;

function learnSheet(sheet: Pick<Sheet, 'hidden' | 'columns' | 'rows' | 'headerRow'>): SheetRules {
  const rules: SheetRules = { required: true, ...(sheet.hidden ? { hidden: true } : {}) };
  const named = sheet.columns.filter((column) => column.header !== '');
  if (named.length > 0) rules.columns = named.map((column) => column.header);
  if (sheet.rows.length > 0) rules.rows = { min: sheet.rows.length };
  const filled: string[] = [];
  const descriptions: Record<string, { min: number; max: number }> = {};
  const links: string[] = [];
  const numeric: string[] = [];
  const numberFormats: Record<string, string> = {};
  for (const column of named) {
    const cells = sheet.rows.map((row) => row.cells[sheet.columns.indexOf(column)]!);
    const present = cells.filter((cell) => cell.type !== 'empty');
    if (cells.length === 0 || present.length === 0) continue;
    if (present.length >= cells.length * 0.9) filled.push(column.header);
    const strings = present.filter((cell) => cell.type === 'string');
    const counts = strings.map((cell) => wordCount(cell.text));
    if (strings.length * 2 >= present.length && (median(counts) ?? 0) >= DESCRIPTION_WORDS) {
      descriptions[column.header] = {
        min: Math.max(3, Math.floor(Math.min(...counts) * 0.5)),
        max: Math.ceil(Math.max(...counts) * 2),
      };
    }
    if (present.filter((cell) => cell.link).length >= present.length * 0.8) links.push(column.header);
    const numbers = present.filter((cell) => cell.type === 'number');
    if (numbers.length >= present.length * 0.9) {
      numeric.push(column.header);
      const format = mode(numbers.map((cell) => cell.numFmt ?? 'General'));
      if (format) numberFormats[column.header] = format;
    }
  }
  if (filled.length > 0) rules.filled = filled;
  if (Object.keys(descriptions).length > 0) rules.descriptions = descriptions;
  if (links.length > 0) rules.links = links;
  if (numeric.length > 0) rules.numeric = numeric;
  if (Object.keys(numberFormats).length > 0) rules.numberFormats = numberFormats;
  const key = named.find((column) => {
    const values = sheet.rows.map((row) => row.cells[sheet.columns.indexOf(column)]!);
    return (
      values.length >= 2 &&
      values.every((cell) => cell.type === 'string') &&
      new Set(values.map((cell) => cell.text.trim().toLowerCase())).size === values.length
    );
  });
  if (key) rules.keyColumn = key.header;
  const header = mode(
    named.map((column) => column.headerStyle),
    (style) => JSON.stringify(style),
  );
  if (header && Object.keys(header).length > 0) rules.header = { ...header };
  return rules;
}

/** Learns a workbook's rules: its sheets in order, and per sheet the columns, which must be filled, linked, numeric. */
export function learnXlsx(workbook: Workbook): XlsxRules {
  const sheets: Record<string, SheetRules> = {};
  for (const sheet of workbook.sheets) {
    const rules = learnSheet(sheet);
    const more = (sheet.tables ?? []).slice(1).map((table) => {
      const { required: _required, hidden: _hidden, ...rest } = learnSheet({ ...table, hidden: sheet.hidden });
      return rest;
    });
    sheets[sheet.name] = more.length > 0 ? { ...rules, tables: more } : rules;
  }
  return { sheets, sheetOrder: workbook.sheets.filter((sheet) => !sheet.hidden).map((sheet) => sheet.name) };
}
