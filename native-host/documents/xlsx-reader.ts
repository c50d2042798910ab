import type ExcelJS from 'exceljs';
import type { Cell, Column, Sheet, SheetRow, TextStyle, Workbook } from './document-model';
import type { OfficePackage } from './open-package';

const HEADER_SCAN_ROWS = 10;
const MAX_COLUMNS = 500;

const argb = (color: Partial<ExcelJS.Color> | undefined): string | undefined => (color?.argb && /^[0-9A-F]{8}$/i.test(color.argb) ? color.argb.slice(2).toUpperCase() : undefined);

function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && 'richText' in value) return (value as ExcelJS.CellRichTextValue).richText.map((part) => part.text).join('');
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object' && 'error' in value) return String((value as ExcelJS.CellErrorValue).error);
  if (typeof value === 'object' && 'text' in value) return plainText(value.text);
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return String(value);
  return '';
}

/** A cell's value as the checks see it: its shown text, its type, its link, and an error whether stored or computed. */
export function toCell(cell: ExcelJS.Cell): Cell {
  let value: unknown = cell.value;
  const numFmt = cell.numFmt ? { numFmt: cell.numFmt } : {};
  let link: string | undefined;
  if (value !== null && typeof value === 'object' && ('formula' in value || 'sharedFormula' in value)) value = (value as ExcelJS.CellFormulaValue).result;
  if (value !== null && typeof value === 'object' && 'hyperlink' in value) {
    link = (value as ExcelJS.CellHyperlinkValue).hyperlink;
    value = (value as ExcelJS.CellHyperlinkValue).text;
  }
  const withLink = link ? { link } : {};
  if (value === null || value === undefined) return { text: '', type: 'empty', ...withLink, ...numFmt };
  if (typeof value === 'number') return { text: String(value), type: 'number', ...withLink, ...numFmt };
  if (typeof value === 'boolean') return { text: String(value), type: 'boolean', ...numFmt };
  if (value instanceof Date) return { text: plainText(value), type: 'date', ...numFmt };
  if (typeof value === 'object' && 'error' in value) {
    const error = String((value as ExcelJS.CellErrorValue).error);
    return { text: error, type: 'error', error, ...numFmt };
  }
  const text = plainText(value);
  if (/^#(N\/A|REF!|NAME\?|DIV\/0!|NULL!|VALUE!|NUM!)$/.test(text.trim())) return { text, type: 'error', error: text.trim(), ...numFmt };
  return { text, type: text.trim() === '' ? 'empty' : 'string', ...withLink, ...numFmt };
}

function headerStyle(cell: ExcelJS.Cell): TextStyle & { fill?: string } {
  const font = cell.font ?? {};
  const fill = cell.fill && cell.fill.type === 'pattern' ? argb(cell.fill.fgColor) : undefined;
  const color = argb(font.color);
  return {
    ...(font.size === undefined ? {} : { size: font.size }),
    ...(color ? { color } : {}),
    ...(font.name ? { font: font.name } : {}),
    bold: font.bold === true,
    ...(fill ? { fill } : {}),
  };
}

/** The header is the row, among the first ten, with the most text cells (at least two): titles above it are skipped. */
function findHeaderRow(sheet: ExcelJS.Worksheet): number | undefined {
  let best: { row: number; count: number } | undefined;
  for (let number = 1; number <= Math.min(HEADER_SCAN_ROWS, sheet.rowCount); number += 1) {
    let count = 0;
    sheet.getRow(number).eachCell((cell) => {
      if (toCell(cell).type === 'string') count += 1;
    });
    if (count >= 2 && (!best || count > best.count)) best = { row: number, count };
  }
  return best?.row;
}

function readSheet(sheet: ExcelJS.Worksheet): Sheet {
  const headerRow = findHeaderRow(sheet);
  const width = Math.min(MAX_COLUMNS, Math.max(sheet.columnCount, 1));
  const columns: Column[] = [];
  for (let index = 1; index <= width; index += 1) {
    const cell = headerRow === undefined ? undefined : sheet.getRow(headerRow).getCell(index);
    columns.push({ index, letter: sheet.getColumn(index).letter, header: cell ? toCell(cell).text.trim() : '', headerStyle: cell ? headerStyle(cell) : {} });
  }
  while (columns.length > 1 && columns[columns.length - 1]!.header === '' && headerRow !== undefined) columns.pop();
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (headerRow !== undefined && number <= headerRow) return;
    const cells = columns.map((column) => toCell(row.getCell(column.index)));
    if (cells.some((cell) => cell.type !== 'empty')) rows.push({ number, cells });
  });
  return { name: sheet.name, hidden: sheet.state !== 'visible', ...(headerRow === undefined ? {} : { headerRow }), columns, rows };
}

/** Reads a workbook with exceljs: each sheet's header row, columns (with header style) and data rows. */
export async function readWorkbook(pkg: OfficePackage): Promise<Workbook> {
  // exceljs is loaded when a workbook is first read, not at the host's start.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.Workbook();
  await workbook.xlsx.load(pkg.buffer as unknown as ExcelJS.Buffer);
  return { kind: 'xlsx', path: pkg.path, sheets: workbook.worksheets.map(readSheet) };
}
