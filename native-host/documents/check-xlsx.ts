import { checkHollow, checkTextUnits, type TextUnit } from './check-content';
import { mode, type ContentScanner } from './content-scan';
import type { Cell, Sheet, Workbook } from './document-model';
import type { FindingList } from './finding-list';
import type { Rules, SheetRules } from './rules';
import { compareStyle } from './style-compare';

const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
const NUMBER_TEXT = /^[-+(]?[$€£¥]?\s?\d[\d,. ]*(%|x|m|bn|k)?\)?$/i;

/** A sheet's table as the checks read it; `table` is set for the second and later tables. */
type SheetView = Pick<Sheet, 'name' | 'columns' | 'rows' | 'headerRow'> & { table?: number };
const at = (sheet: SheetView): { sheet: string; table?: number } => ({
  sheet: sheet.name,
  ...(sheet.table === undefined ? {} : { table: sheet.table }),
});

function columnCells(sheet: SheetView, header: string): Array<{ row: number; cell: Cell }> | undefined {
  const index = sheet.columns.findIndex((column) => same(column.header, header));
  if (index < 0) return undefined;
  return sheet.rows.map((row) => ({ row: row.number, cell: row.cells[index]! }));
}

function checkColumns(sheet: SheetView, rules: SheetRules, findings: FindingList): void {
  const expected = rules.columns ?? [];
  const present = sheet.columns.map((column) => column.header).filter(Boolean);
  // Counted, not just looked up: a sheet with six "ATC" columns that now has five is missing one.
  const left = [...present];
  const short = new Map<string, number>();
  for (const header of expected) {
    const index = left.findIndex((name) => same(name, header));
    if (index >= 0) left.splice(index, 1);
    else short.set(header, (short.get(header) ?? 0) + 1);
  }
  const missing = [...short.keys()];
  for (const header of missing) {
    const before = expected[expected.indexOf(header) - 1];
    const wanted = expected.filter((name) => same(name, header)).length;
    findings.add({
      rule: 'structure.missing-column',
      severity: 'high',
      where: { ...at(sheet), column: header },
      message:
        wanted > 1
          ? `${short.get(header)} of the ${wanted} columns "${header}" ${short.get(header) === 1 ? 'is' : 'are'} missing`
          : `The column "${header}" is missing`,
      expected: `a column "${header}"${before ? ` after "${before}"` : ''}`,
      actual: `columns: ${present.join(', ') || 'none'}`,
      fix: `Add the column "${header}" with its values${sheet.headerRow ? ` (header in row ${sheet.headerRow})` : ''}.`,
    });
  }
  const order = expected.filter((header) => present.some((name) => same(name, header)));
  const actualOrder = present.filter((name) => order.some((header) => same(name, header)));
  if (missing.length === 0 && order.some((header, index) => !same(header, actualOrder[index] ?? ''))) {
    findings.add({
      rule: 'structure.column-order',
      severity: 'medium',
      where: at(sheet),
      message: 'The columns are in another order than in the template',
      expected: order.join(', '),
      actual: actualOrder.join(', '),
      fix: `Order the columns as in the template: ${order.join(', ')}.`,
    });
  }
  // The header row is judged as one: the style most of its cells share.
  const styles = sheet.columns
    .filter((item) => item.header && expected.some((header) => same(header, item.header)))
    .map((column) => column.headerStyle);
  const style = mode(styles, (item) => JSON.stringify(item));
  if (rules.header && style) {
    compareStyle(
      style,
      rules.header,
      {
        what: 'header row',
        ruleBase: 'format.header',
        where: { ...at(sheet), ...(sheet.headerRow === undefined ? {} : { row: sheet.headerRow }) },
        severity: {},
        sizeTolerance: 0.5,
      },
      findings,
    );
  }
}

function checkCells(
  sheet: SheetView,
  rules: SheetRules,
  findings: FindingList,
  units: TextUnit[],
): { filled: number; slots: number } {
  let filled = 0;
  let slots = 0;
  // The key column names each row (the company, the ticker): it is input, not content, so it does not count
  // towards hollowness.
  for (const header of rules.filled ?? []) {
    const cells = columnCells(sheet, header);
    const counts = rules.keyColumn === undefined || !same(header, rules.keyColumn);
    if (!cells) continue;
    if (counts) slots += Math.max(1, cells.length);
    for (const { row, cell } of cells) {
      if (cell.type !== 'empty' && cell.type !== 'error') filled += counts ? 1 : 0;
      else if (cell.type === 'empty')
        findings.add({
          rule: 'content.empty-cell',
          severity: 'high',
          where: { ...at(sheet), row, column: header },
          message: `The "${header}" cell is empty`,
          expected: 'a value, as in every row of the template',
          actual: 'empty',
          fix: `Fill "${header}" from the source data; if a value is truly unknown, mark it so the reader sees it was checked.`,
        });
    }
  }
  for (const [header, range] of Object.entries(rules.descriptions ?? {})) {
    for (const { row, cell } of columnCells(sheet, header) ?? [])
      units.push({
        where: { ...at(sheet), row, column: header },
        text: cell.text,
        links: cell.link ? [cell.link] : [],
        description: range,
        noun: 'description',
      });
  }
  const described = new Set(Object.keys(rules.descriptions ?? {}).map((header) => header.toLowerCase()));
  const linked = new Set((rules.links ?? []).map((header) => header.toLowerCase()));
  for (const column of sheet.columns) {
    if (described.has(column.header.toLowerCase())) continue;
    const linkChecked = linked.has(column.header.toLowerCase());
    for (const row of sheet.rows) {
      const cell = row.cells[column.index - 1];
      if (cell?.type === 'string' || cell?.link)
        units.push({
          where: { ...at(sheet), row: row.number, column: column.header || column.letter },
          text: cell.text,
          links: cell.link ? [cell.link] : [],
          noun: 'cell',
          linkChecked,
        });
    }
  }
  for (const header of rules.links ?? []) {
    for (const { row, cell } of columnCells(sheet, header) ?? []) {
      if (cell.type === 'empty' || cell.link) continue;
      findings.add({
        rule: 'content.plain-link',
        severity: 'medium',
        where: { ...at(sheet), row, column: header },
        message: `The "${header}" cell is not a clickable link`,
        expected: 'a hyperlink, as in the template',
        actual: `plain text "${cell.text}"`,
        fix: `Write "${header}" as a hyperlink (set the cell's hyperlink, not only its text).`,
      });
    }
  }
  for (const header of rules.numeric ?? []) {
    const format = rules.numberFormats?.[header];
    const wrong: Record<string, number[]> = {};
    for (const { row, cell } of columnCells(sheet, header) ?? []) {
      if (cell.type === 'string') {
        const asNumber = NUMBER_TEXT.test(cell.text.trim());
        findings.add({
          rule: asNumber ? 'content.number-as-text' : 'content.not-a-number',
          severity: 'medium',
          where: { ...at(sheet), row, column: header },
          message: asNumber ? `A number stored as text in "${header}"` : `Text in the numeric column "${header}"`,
          expected: 'a number',
          actual: `"${cell.text}"`,
          fix: asNumber
            ? 'Write the value as a number (with a number format), not as a string.'
            : 'Write a number here, or leave the cell empty when the value is unknown.',
        });
      } else if (format && cell.type === 'number' && (cell.numFmt ?? 'General') !== format) {
        (wrong[cell.numFmt ?? 'General'] ??= []).push(row);
      }
    }
    // One finding per column and format: the same wrong format in every row is one defect, not one per row.
    for (const [actual, rows] of Object.entries(wrong)) {
      findings.add({
        rule: 'format.number-format',
        severity: 'medium',
        where: { ...at(sheet), column: header },
        message: `The number format of "${header}" differs from the template`,
        expected: format!,
        actual: `${actual} (row${rows.length === 1 ? '' : 's'} ${rows.slice(0, 8).join(', ')}${rows.length > 8 ? `, and ${rows.length - 8} more` : ''})`,
        fix: `Format "${header}" as ${format}.`,
      });
    }
  }
  if (rules.keyColumn) {
    const seen = new Map<string, number>();
    for (const { row, cell } of columnCells(sheet, rules.keyColumn) ?? []) {
      const key = cell.text.trim().toLowerCase();
      if (!key) continue;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, row);
      else
        findings.add({
          rule: 'content.duplicate-row',
          severity: 'high',
          where: { ...at(sheet), row, column: rules.keyColumn },
          message: `"${cell.text.trim()}" appears twice`,
          expected: `each ${rules.keyColumn} once`,
          actual: `also in row ${first}`,
          fix: 'Remove the duplicate row, or merge the two if they hold different data.',
        });
    }
  }
  for (const row of sheet.rows) {
    for (const [index, cell] of row.cells.entries()) {
      if (cell.type !== 'error') continue;
      const column = sheet.columns[index];
      findings.add({
        rule: 'content.formula-error',
        severity: 'high',
        where: { ...at(sheet), row: row.number, column: column?.header || column?.letter },
        message: `The cell shows the error ${cell.error}`,
        expected: 'a value',
        actual: cell.error ?? cell.text,
        fix: 'Fix the formula or the data it refers to so the cell computes a value.',
      });
    }
  }
  return { filled, slots };
}

function checkRowCount(sheet: SheetView, rules: SheetRules, findings: FindingList): void {
  const range = rules.rows;
  if (
    range &&
    ((range.min !== undefined && sheet.rows.length < range.min) ||
      (range.max !== undefined && sheet.rows.length > range.max))
  ) {
    findings.add({
      rule: 'structure.row-count',
      severity: 'high',
      where: at(sheet),
      message: `The sheet has ${sheet.rows.length} data row${sheet.rows.length === 1 ? '' : 's'}`,
      expected: `${range.min ?? 0} to ${range.max ?? 'any number of'} rows`,
      actual: `${sheet.rows.length}`,
      fix:
        sheet.rows.length < (range.min ?? 0)
          ? 'Generate the missing rows: every item of the source data needs its row.'
          : 'Remove the extra rows.',
    });
  }
}

/** Sheets, columns, rows, keys, filled, linked and numeric columns, descriptions, formula errors; and hollowness. */
export function checkXlsx(workbook: Workbook, rules: Rules, scanner: ContentScanner, findings: FindingList): boolean {
  const expected = rules.xlsx?.sheets ?? {};
  const units: TextUnit[] = [];
  let filled = 0;
  let slots = 0;
  for (const [name, sheetRules] of Object.entries(expected)) {
    const sheet = workbook.sheets.find((item) => same(item.name, name));
    if (!sheet) {
      if (sheetRules.required === false) continue;
      findings.add({
        rule: 'structure.missing-sheet',
        severity: sheetRules.hidden ? 'medium' : 'critical',
        where: { sheet: name },
        message: sheetRules.hidden
          ? `The hidden sheet "${name}" is missing (charts and formulas may read it)`
          : `The sheet "${name}" is missing`,
        expected: `a sheet "${name}"${sheetRules.columns ? ` with columns ${sheetRules.columns.join(', ')}` : ''}`,
        actual: `sheets: ${workbook.sheets.map((item) => item.name).join(', ')}`,
        fix: `Add the sheet "${name}" as in the template.`,
      });
      slots += Math.max(1, sheetRules.filled?.length ?? 1);
      continue;
    }
    checkColumns(sheet, sheetRules, findings);
    checkRowCount(sheet, sheetRules, findings);
    const counted = checkCells(sheet, sheetRules, findings, units);
    filled += counted.filled;
    slots += counted.slots;
    sheetRules.tables?.forEach((tableRules, index) => {
      const table = sheet.tables?.[index + 1];
      const view: SheetView = { name: sheet.name, table: index + 2, ...(table ?? { columns: [], rows: [] }) };
      if (!table) {
        findings.add({
          rule: 'structure.missing-table',
          severity: 'high',
          where: at(view),
          message: `The sheet's table ${index + 2} is missing`,
          expected: `a table${tableRules.columns ? ` with columns ${tableRules.columns.join(', ')}` : ''}`,
          actual: `${sheet.tables?.length ?? 1} table${(sheet.tables?.length ?? 1) === 1 ? '' : 's'} on the sheet`,
          fix: `Add the sheet's table ${index + 2} as in the template.`,
        });
        return;
      }
      checkColumns(view, tableRules, findings);
      checkRowCount(view, tableRules, findings);
      const more = checkCells(view, tableRules, findings, units);
      filled += more.filled;
      slots += more.slots;
    });
  }
  const order = (rules.xlsx?.sheetOrder ?? []).filter((name) =>
    workbook.sheets.some((sheet) => same(sheet.name, name)),
  );
  const actual = workbook.sheets.map((sheet) => sheet.name).filter((name) => order.some((item) => same(item, name)));
  if (order.some((name, index) => !same(name, actual[index] ?? ''))) {
    findings.add({
      rule: 'structure.sheet-order',
      severity: 'medium',
      where: {},
      message: 'The sheets are in another order than in the template',
      expected: order.join(', '),
      actual: actual.join(', '),
      fix: `Order the sheets as in the template: ${order.join(', ')}.`,
    });
  }
  if (Object.keys(expected).length === 0) {
    for (const sheet of workbook.sheets) {
      const counted = checkCells(
        sheet,
        { filled: sheet.columns.filter((column) => column.header).map((column) => column.header) },
        findings,
        units,
      );
      filled += counted.filled;
      slots += counted.slots;
    }
  }
  checkTextUnits(units, scanner, findings);
  return checkHollow(filled, slots, scanner.hollowRatio, 'cells that should hold values', findings);
}
