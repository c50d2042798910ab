import { describe, expect, it } from 'vitest';
import { byRule, compareHarness } from '../../../fixtures/documents/compare-harness';
import { buildReport, type ReportOptions } from '../../../fixtures/documents/report-builder';
import { companies } from '../../../fixtures/documents/sample-companies';

/** Due-diligence reports made with docx: a reference, a good output and outputs with known defects. */
const { judge } = compareHarness<ReportOptions>('docx', buildReport);

describe('report compared with its template', () => {
  it('a good report on another company has no critical or high finding', async () => {
    const judgement = await judge('good', { company: companies(1, 7)[0]!, competitors: companies(6, 2) });
    expect(judgement.findings.filter((finding) => finding.severity !== 'medium')).toEqual([]);
  });

  it('a missing section is high and says where it belongs', async () => {
    const judgement = await judge('no-risks', { missingSection: 'Risks' });
    expect(byRule(judgement, 'structure.missing-section')).toEqual([expect.objectContaining({ severity: 'high', expected: 'a section "Risks" after "Financials"' })]);
  });

  it('wrong heading size and colour are high, located by section number and title', async () => {
    const judgement = await judge('headings', { heading1Color: 'C00000', heading1Size: 12 });
    expect(byRule(judgement, 'format.heading-size')[0]).toMatchObject({ severity: 'high', location: { section: '1', label: 'section 1 "Executive summary"' }, expected: '16 pt', actual: '12 pt' });
    expect(byRule(judgement, 'format.heading-color')[0]).toMatchObject({ severity: 'high', expected: '#1F3864', actual: '#C00000' });
    // Level-2 headings keep their own style and are not reported.
    expect(judgement.findings.some((finding) => finding.location.section === '2.1')).toBe(false);
  });

  it('shallow sections are high, numbered as in the outline', async () => {
    const judgement = await judge('shallow', { shallow: true });
    expect(byRule(judgement, 'content.shallow').map((finding) => finding.location.section)).toContain('3.1');
    expect(byRule(judgement, 'content.shallow')[0]).toMatchObject({ severity: 'high', location: { label: 'section 1 "Executive summary"' } });
  });

  it('filler, a hollow report, a missing table, an empty cover field and plain links', async () => {
    const filler = await judge('filler', { filler: true });
    expect(byRule(filler, 'content.filler')[0]).toMatchObject({ severity: 'medium', location: { section: '1' } });
    const hollow = await judge('hollow', { hollow: true });
    expect(hollow.hollow).toBe(true);
    expect(byRule(hollow, 'content.hollow')[0]).toMatchObject({ severity: 'critical' });
    const other = await judge('other', { noTable: true, noPreparedFor: true, plainLinks: true });
    expect(byRule(other, 'structure.table-missing')).toEqual([expect.objectContaining({ severity: 'high', location: expect.objectContaining({ section: '3.1', label: 'section 3.1 "Competitors"' }) as unknown })]);
    expect(byRule(other, 'structure.cover-field')).toEqual([expect.objectContaining({ severity: 'high', message: 'The cover field "Prepared for" is empty' })]);
    expect(byRule(other, 'content.plain-link')[0]).toMatchObject({ severity: 'medium', location: { section: '6' } });
  });
});
