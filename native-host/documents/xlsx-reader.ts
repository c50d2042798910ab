import { AppError } from '../../shared/errors';
import type { Cell, Column, Sheet, SheetRow, SheetTable, Workbook } from './document-model';
import type { OfficePackage } from './open-package';
import { PackageParts } from './package-parts';
import { attr, type XmlNode } from './xml-tree';
import { readXlsxStyles, type XlsxStyles } from './xlsx-styles';

const HEADER_SCAN_ROWS = 10;
const MAX_COLUMNS = 500;
const ERROR_TEXT = /^#(N\/A|REF!|NAME\?|DIV\/0!|NULL!|VALUE!|NUM!|GETTING_DATA|SPILL!|CALC!)$/;

/** An element's name without its namespace prefix: files written with `x:row` or `ns0:sheet` read the same. */
const local = (node: XmlNode): string => node.name.slice(node.name.indexOf(':') + 1);
const child = (node: XmlNode | undefined, name: string): XmlNode | undefined =>
  node?.children.find((item) => local(item) === name);
const children = (node: XmlNode | undefined, name: string): XmlNode[] =>
  node?.children.filter((item) => local(item) === name) ?? [];
/** The relationship id attribute, whatever prefix the file gave its namespace. */
const relId = (node: XmlNode): string | undefined =>
  Object.entries(node.attrs).find(([key]) => key === 'r:id' || key.endsWith(':id'))?.[1];

/** "AB12" -> column 28. */
function columnOf(ref: string | undefined): number | undefined {
  const letters = /^\$?([A-Z]{1,3})/i.exec(ref ?? '')?.[1];
  if (!letters) return undefined;
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index;
}

export function columnLetter(index: number): string {
  let letters = '';
  for (let rest = index; rest > 0; rest = Math.floor((rest - 1) / 26))
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

/** Excel shows at most this many characters in a cell; a file that stores more (a crafted one) is read up to it. */
const MAX_CELL_TEXT = 32_767;

/** The text of a shared or inline string: its `t`, or its runs' `t`s (phonetic guides left out). */
function stringText(node: XmlNode | undefined): string {
  if (!node) return '';
  const direct = child(node, 't');
  const text = direct
    ? direct.text
    : children(node, 'r')
        .map((run) => child(run, 't')?.text ?? '')
        .join('');
  return text.length > MAX_CELL_TEXT ? text.slice(0, MAX_CELL_TEXT) : text;
}

/** Excel's day number to an ISO date (1900 date system, with its phantom 29 Feb 1900). */
function serialDate(serial: number): string {
  const date = new Date(Date.UTC(1899, 11, 30) + Math.round(serial * 86_400_000));
  return Number.isNaN(date.getTime()) ? String(serial) : date.toISOString().slice(0, 10);
}

interface RawCell {
  column: number;
  cell: Cell;
  styleIndex: number;
}

function readCell(node: XmlNode, strings: string[], styles: XlsxStyles): Omit<RawCell, 'column'> {
  const type = attr(node, 't') ?? 'n';
  const styleIndex = Number(attr(node, 's') ?? 0) || 0;
  const format = styles.numberFormat(styleIndex);
  const numFmt = format && format !== 'General' ? { numFmt: format } : {};
  const value = child(node, 'v')?.text;
  const make = (cell: Cell): Omit<RawCell, 'column'> => ({ cell, styleIndex });
  if (type === 'inlineStr' || type === 's' || type === 'str') {
    const text =
      type === 'inlineStr'
        ? stringText(child(node, 'is'))
        : type === 's'
          ? (strings[Number(value)] ?? '')
          : (value ?? '');
    if (ERROR_TEXT.test(text.trim())) return make({ text, type: 'error', error: text.trim(), ...numFmt });
    return make({ text, type: text.trim() === '' ? 'empty' : 'string', ...numFmt });
  }
  if (value === undefined || value === '') return make({ text: '', type: 'empty', ...numFmt });
  if (type === 'e') return make({ text: value, type: 'error', error: value.trim(), ...numFmt });
  if (type === 'b') return make({ text: value === '1' ? 'true' : 'false', type: 'boolean', ...numFmt });
  if (type === 'd') return make({ text: value.slice(0, 10), type: 'date', ...numFmt });
  const number = Number(value);
  if (!Number.isFinite(number)) return make({ text: value, type: 'string', ...numFmt });
  if (styles.isDate(styleIndex)) return make({ text: serialDate(number), type: 'date', ...numFmt });
  return make({ text: String(number), type: 'number', ...numFmt });
}

interface Grid {
  rows: Map<number, RawCell[]>;
  width: number;
}

async function readGrid(
  parts: PackageParts,
  part: string,
  strings: string[],
  styles: XlsxStyles,
): Promise<{ grid: Grid; root: XmlNode | undefined }> {
  const root = (await parts.xml(part))?.children.find((node) => local(node) === 'worksheet');
  const rows = new Map<number, RawCell[]>();
  let width = 0;
  let lastRow = 0;
  const data = child(root, 'sheetData');
  for (const rowNode of data?.children ?? []) {
    if (local(rowNode) !== 'row') continue;
    const number = Number(attr(rowNode, 'r')) || lastRow + 1;
    lastRow = number;
    const cells: RawCell[] = [];
    let lastColumn = 0;
    for (const cellNode of rowNode.children) {
      if (local(cellNode) !== 'c') continue;
      const column = columnOf(attr(cellNode, 'r')) ?? lastColumn + 1;
      lastColumn = column;
      if (column > MAX_COLUMNS) continue;
      cells.push({ column, ...readCell(cellNode, strings, styles) });
      width = Math.max(width, column);
    }
    if (cells.length > 0) rows.set(number, (rows.get(number) ?? []).concat(cells));
  }
  return { grid: { rows, width }, root };
}

const textCells = (cells: readonly RawCell[] | undefined): number =>
  (cells ?? []).filter((item) => item.cell.type === 'string').length;
const hasValue = (cells: readonly RawCell[] | undefined): boolean =>
  (cells ?? []).some((item) => item.cell.type !== 'empty');

/**
 * A sheet's tables: runs of rows separated by empty rows. A run whose first rows hold a header (the row with the most
 * text cells, at least two) starts a new table; a run without one (a title line, data after a gap) belongs to the
 * table before it, or, before the first header, is a title above the next table.
 */
function splitTables(grid: Grid, styles: XlsxStyles, links: Map<string, string>): SheetTable[] {
  const numbers = [...grid.rows.keys()].filter((number) => hasValue(grid.rows.get(number))).sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const number of numbers) {
    const last = runs[runs.length - 1];
    if (last && number === last[last.length - 1]! + 1) last.push(number);
    else runs.push([number]);
  }
  const tables: Array<{ header?: number; rows: number[] }> = [];
  let pending: number[] = [];
  for (const run of runs) {
    let header: { row: number; count: number } | undefined;
    for (const number of run.slice(0, HEADER_SCAN_ROWS)) {
      const count = textCells(grid.rows.get(number));
      if (count >= 2 && (!header || count > header.count)) header = { row: number, count };
    }
    const current = tables[tables.length - 1];
    if (header) {
      tables.push({ header: header.row, rows: run.filter((number) => number > header.row) });
      pending = [];
    } else if (current) current.rows.push(...run);
    else pending.push(...run);
  }
  if (tables.length === 0) tables.push({ rows: pending });
  return tables.map((table) => {
    const headerCells = table.header === undefined ? [] : (grid.rows.get(table.header) ?? []);
    let width =
      table.header === undefined
        ? grid.width
        : Math.max(0, ...headerCells.filter((item) => item.cell.type !== 'empty').map((item) => item.column));
    if (width === 0) width = Math.max(1, grid.width);
    const columns: Column[] = [];
    for (let index = 1; index <= width; index += 1) {
      const cell = headerCells.find((item) => item.column === index);
      columns.push({
        index,
        letter: columnLetter(index),
        header: cell ? cell.cell.text.trim() : '',
        headerStyle: cell ? styles.headerStyle(cell.styleIndex) : {},
      });
    }
    const rows: SheetRow[] = [];
    for (const number of table.rows) {
      const raw = grid.rows.get(number) ?? [];
      const cells = columns.map((column): Cell => {
        const found = raw.find((item) => item.column === column.index)?.cell ?? { text: '', type: 'empty' };
        const link = links.get(`${column.index}:${number}`);
        return link ? { ...found, link } : found;
      });
      if (cells.some((cell) => cell.type !== 'empty')) rows.push({ number, cells });
    }
    return { ...(table.header === undefined ? {} : { headerRow: table.header }), columns, rows };
  });
}

/** Hyperlinks by "column:row": external targets from the sheet's relationships, or "#Sheet!A1" for places inside. */
async function readLinks(parts: PackageParts, part: string, root: XmlNode | undefined): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  const list = child(root, 'hyperlinks');
  if (!list) return links;
  const rels = await parts.rels(part);
  for (const node of list.children) {
    const ref = attr(node, 'ref');
    const id = relId(node);
    const target = id ? rels.get(id)?.target : attr(node, 'location') ? `#${attr(node, 'location')}` : undefined;
    const [start] = (ref ?? '').split(':');
    const column = columnOf(start);
    const row = Number(/\d+$/.exec(start ?? '')?.[0]);
    if (target && column !== undefined && row > 0) links.set(`${column}:${row}`, target);
  }
  return links;
}

/**
 * Reads a workbook from its XML parts: each sheet's tables (header row, columns with the header's style, data rows)
 * with every cell's shown value, type, number format, link and error. Parsing the parts directly keeps a workbook
 * with odd but valid parts (conditional formats, prefixed namespaces, thousands of merges) readable, and a damaged
 * part is named in the error.
 */
export async function readWorkbook(pkg: OfficePackage): Promise<Workbook> {
  const parts = new PackageParts(pkg);
  const book = child(await parts.xml('xl/workbook.xml'), 'workbook');
  if (!book)
    throw new AppError(
      'bad_request',
      `${pkg.path} is damaged: its part xl/workbook.xml has no workbook element. Re-create the file.`,
    );
  const rels = await parts.rels('xl/workbook.xml');
  const stringsPart =
    [...rels.values()].find((rel) => rel.type.endsWith('/sharedStrings'))?.target ?? 'xl/sharedStrings.xml';
  const sst = child(await parts.xml(stringsPart), 'sst');
  const strings = children(sst, 'si').map(stringText);
  const stylesPart = [...rels.values()].find((rel) => rel.type.endsWith('/styles'))?.target ?? 'xl/styles.xml';
  const styles = readXlsxStyles(await parts.xml(stylesPart));
  const sheetList = child(book, 'sheets');
  const sheets: Sheet[] = [];
  for (const node of children(sheetList, 'sheet')) {
    const name = attr(node, 'name') ?? `Sheet${sheets.length + 1}`;
    const rel = rels.get(relId(node) ?? '');
    if (!rel || rel.external || !rel.type.endsWith('/worksheet')) continue;
    const { grid, root } = await readGrid(parts, rel.target, strings, styles);
    if (!root)
      throw new AppError(
        'bad_request',
        `${pkg.path} is damaged: the sheet "${name}" (part ${rel.target}) is missing or has no worksheet element. Re-create the file.`,
      );
    const tables = splitTables(grid, styles, await readLinks(parts, rel.target, root));
    const first = tables[0]!;
    sheets.push({
      name,
      hidden: (attr(node, 'state') ?? 'visible') !== 'visible',
      ...(first.headerRow === undefined ? {} : { headerRow: first.headerRow }),
      columns: first.columns,
      rows: first.rows,
      tables,
    });
  }
  return { kind: 'xlsx', path: pkg.path, sheets };
}
