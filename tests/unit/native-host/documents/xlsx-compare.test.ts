import { describe, expect, it } from 'vitest';
import { byRule, compareHarness } from '../../../fixtures/documents/compare-harness';
import { companies } from '../../../fixtures/documents/sample-companies';
import { buildWorkbook, type WorkbookOptions } from '../../../fixtures/documents/workbook-builder';

/** Trading-comparables workbooks made with exceljs: a reference, good outputs, and outputs with known defects. */
const { judge } = compareHarness<WorkbookOptions>('xlsx', buildWorkbook);

describe('workbook compared with its template', () => {
  it('a good output with other companies and more rows has no critical or high finding', async () => {
    const judgement = await judge('good', { companies: companies(11, 6) });
    expect(judgement.findings.filter((finding) => finding.severity !== 'medium')).toEqual([]);
    expect(judgement.passed).toBe(true);
  });

  it('a missing sheet is critical and names the sheets there are', async () => {
    const judgement = await judge('no-sources', { missingSheet: 'Sources' });
    expect(byRule(judgement, 'structure.missing-sheet')).toEqual([expect.objectContaining({ severity: 'critical', location: { label: 'sheet "Sources"', sheet: 'Sources' }, actual: 'sheets: Summary, Comps' })]);
  });

  it('a missing column is high, with where it belongs', async () => {
    const judgement = await judge('no-multiple', { missingColumn: 'EV/EBITDA' });
    expect(byRule(judgement, 'structure.missing-column')).toEqual([expect.objectContaining({ severity: 'high', location: expect.objectContaining({ sheet: 'Comps', column: 'EV/EBITDA' }) as unknown, expected: 'a column "EV/EBITDA" after "EV (EURm)"' })]);
  });

  it('a formula error is high at its row and column', async () => {
    const judgement = await judge('error', { formulaErrorAt: 2 });
    expect(byRule(judgement, 'content.formula-error')).toEqual([expect.objectContaining({ severity: 'high', location: expect.objectContaining({ sheet: 'Comps', row: 6, column: 'EV/EBITDA', label: 'sheet "Comps" row 6, column "EV/EBITDA"' }) as unknown, actual: '#DIV/0!' })]);
  });

  it('shallow and filler descriptions', async () => {
    const shallow = await judge('shallow', { shallow: true });
    expect(byRule(shallow, 'content.shallow')[0]).toMatchObject({ severity: 'high', location: { sheet: 'Comps', row: 4, column: 'Description' } });
    const filler = await judge('filler', { filler: true });
    expect(byRule(filler, 'content.filler')[0]).toMatchObject({ severity: 'medium', location: { sheet: 'Comps', row: 4, column: 'Description' } });
    expect(byRule(filler, 'content.filler-widespread')).toHaveLength(1);
  });

  it('a hollow workbook (names only, no data) is critical', async () => {
    const judgement = await judge('hollow', { hollow: true });
    expect(judgement.hollow).toBe(true);
    expect(byRule(judgement, 'content.hollow')[0]).toMatchObject({ severity: 'critical' });
    expect(byRule(judgement, 'content.empty-cell')[0]).toMatchObject({ severity: 'high', location: { sheet: 'Comps', row: 5 } });
  });

  it('duplicate rows, links that are not links, numbers stored as text and the header style', async () => {
    const judgement = await judge('mixed', { duplicateRow: true, plainLinks: true, numbersAsText: true, headerColor: '000000' });
    expect(byRule(judgement, 'content.duplicate-row')).toEqual([expect.objectContaining({ severity: 'high', location: expect.objectContaining({ sheet: 'Comps', row: 10, column: 'Company' }) as unknown, actual: 'also in row 5' })]);
    expect(byRule(judgement, 'content.plain-link')[0]).toMatchObject({ severity: 'medium', location: { sheet: 'Comps', row: 4, column: 'Website' } });
    expect(byRule(judgement, 'content.number-as-text')[0]).toMatchObject({ severity: 'medium', location: { column: 'Market cap (EURm)' } });
    expect(byRule(judgement, 'format.header-color')).toEqual([expect.objectContaining({ severity: 'medium', expected: '#FFFFFF', actual: '#000000' })]);
  });

  it('a defect in thousands of rows folds past ten rows into one finding that names the rows', async () => {
    const judgement = await judge('many', { companies: companies(60), plainLinks: true });
    const links = byRule(judgement, 'content.plain-link');
    expect(links).toHaveLength(11);
    expect(links[10]).toMatchObject({ message: 'The "Website" cell is not a clickable link: 50 more rows like this', location: { label: 'sheet "Comps", column "Website"' } });
    expect(links[10]!.actual).toMatch(/^rows 14, 15, 16/);
  });
});
