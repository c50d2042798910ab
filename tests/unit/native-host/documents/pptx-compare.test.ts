import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../../native-host/documents/finding';
import { judgeDocument, type Judgement } from '../../../../native-host/documents/judge-document';
import { byRule, compareHarness } from '../../../fixtures/documents/compare-harness';
import { buildDeck, type DeckOptions } from '../../../fixtures/documents/deck-builder';
import { companies } from '../../../fixtures/documents/sample-companies';

/**
 * Decks made with pptxgenjs as a research service makes them: a reference of five companies, good outputs of the
 * same code with other data, and outputs with one known defect each, found with its severity and location.
 */
const { judge, reference } = compareHarness<DeckOptions>('pptx', buildDeck);
const serious = (judgement: Judgement): Finding[] => judgement.findings.filter((finding) => finding.severity !== 'medium');

describe('deck compared with its template', () => {
  it('a good output of the same template, with other companies and another slide count, has no critical or high finding', async () => {
    const judgement = await judge('good', { companies: companies(8, 5) });
    expect(serious(judgement)).toEqual([]);
    expect(judgement.passed).toBe(true);
    expect(judgement.hollow).toBe(false);
    expect(judgement.summary).toMatch(/^PASS/);
  });

  it('the template compared with itself has no finding at all', async () => {
    const judgement = await judgeDocument(reference(), reference());
    expect(judgement.findings).toEqual([]);
  });

  it('a wrong title size and colour are high, on every company slide, with the expected and actual values', async () => {
    const judgement = await judge('title', { titleSize: 20, titleColor: 'C00000' });
    const size = byRule(judgement, 'format.title-size');
    expect(size[0]).toMatchObject({ severity: 'high', location: { slide: 2, shape: 'Title', label: 'slide 2, shape "Title"' }, expected: '28 pt', actual: '20 pt' });
    expect(byRule(judgement, 'format.title-color')[0]).toMatchObject({ severity: 'high', location: { slide: 2 }, expected: '#1F3864', actual: '#C00000' });
    // Three slides in full, the other two folded into one finding that names them.
    expect(size.map((finding) => finding.location.label)).toEqual(['slide 2, shape "Title"', 'slide 3, shape "Title"', 'slide 4, shape "Title"', 'slide 5, shape "Title"; slide 6, shape "Title"']);
    expect(judgement.passed).toBe(false);
    // The template's title is centred by its master; the generator's own box is left-aligned.
    expect(byRule(judgement, 'format.title-align')[0]).toMatchObject({ severity: 'medium', location: { slide: 2 }, expected: 'centred', actual: 'left' });
  });

  it('text that overflows its box is high, on the right slide and shape', async () => {
    const judgement = await judge('overflow', { overflowAt: 1 });
    const overflow = byRule(judgement, 'format.overflow');
    expect(overflow).toHaveLength(1);
    expect(overflow[0]).toMatchObject({ severity: 'high', location: { slide: 3, shape: 'Description' } });
    expect(overflow[0]!.actual).toMatch(/lines needing \d+ pt \(\d+% of the box\)/);
  });

  it('a table moved over the description is a high overlap naming both shapes', async () => {
    const judgement = await judge('overlap', { overlapAt: 2 });
    expect(byRule(judgement, 'format.overlap')).toEqual([expect.objectContaining({ severity: 'high', location: expect.objectContaining({ slide: 4, shape: 'Description' }) as unknown, message: 'Shape "Description" overlaps shape "Facts"' })]);
  });

  it('shallow descriptions are high on each company slide', async () => {
    const judgement = await judge('shallow', { shallow: true });
    const shallow = byRule(judgement, 'content.shallow');
    expect(shallow.length).toBeGreaterThanOrEqual(4);
    expect(shallow[0]).toMatchObject({ severity: 'high', location: { slide: 2, shape: 'Description' }, expected: 'at least 22 words' });
    expect(judgement.passed).toBe(false);
  });

  it('filler descriptions are medium one by one and high when most descriptions use them', async () => {
    const judgement = await judge('filler', { filler: true });
    expect(byRule(judgement, 'content.filler')[0]).toMatchObject({ severity: 'medium', location: { slide: 2, shape: 'Description' } });
    expect(byRule(judgement, 'content.filler')[0]!.actual).toContain('"is a company that"');
    expect(byRule(judgement, 'content.filler')[0]!.actual).toContain('"was founded in"');
    expect(byRule(judgement, 'content.filler-widespread')).toEqual([expect.objectContaining({ severity: 'high', actual: '5 of 5 descriptions use filler phrases' })]);
  });

  it('a hollow deck is critical and says so, so a loop can stop instead of iterating', async () => {
    const judgement = await judge('hollow', { hollow: true });
    expect(judgement.hollow).toBe(true);
    expect(byRule(judgement, 'content.hollow')).toEqual([expect.objectContaining({ severity: 'critical' })]);
    expect(judgement.summary).toMatch(/^HOLLOW/);
    expect(byRule(judgement, 'content.empty')[0]).toMatchObject({ severity: 'high', location: { slide: 3 } });
  });

  it('structure: a missing summary layout, an empty cover date and a missing table are high', async () => {
    const judgement = await judge('structure', { noSummary: true, noDate: true });
    expect(byRule(judgement, 'structure.missing-layout')).toEqual([expect.objectContaining({ severity: 'high', message: 'No slide uses the layout "SUMMARY"' })]);
    expect(byRule(judgement, 'structure.cover-field')).toEqual([expect.objectContaining({ severity: 'high', location: expect.objectContaining({ slide: 1 }) as unknown, message: 'The cover field "Date" is empty' })]);
  });

  it('a missing divider line and a summary table without a column', async () => {
    const judgement = await judge('layout', { noDivider: true, summaryWithout: 'EV (EURm)' });
    expect(byRule(judgement, 'format.divider-missing')[0]).toMatchObject({ severity: 'medium', location: { slide: 2 }, expected: 'a horizontal line at 1.05 in in #1F3864', actual: 'no divider line' });
    expect(byRule(judgement, 'structure.table-columns')).toEqual([expect.objectContaining({ severity: 'high', location: expect.objectContaining({ slide: 7, shape: 'Summary table' }) as unknown, message: 'The table lacks column EV (EURm)' })]);
  });

  it('too few body paragraphs on a slide are medium (the user minimum, the template maximum)', async () => {
    const judgement = await judgeDocument(reference(), reference(), { pptx: { kinds: { COMPANY: { paragraphs: { min: 3 } } } } });
    expect(byRule(judgement, 'content.paragraphs')[0]).toMatchObject({ severity: 'medium', location: { slide: 2 }, expected: '3 to 4 paragraphs, as in the template' });
  });

  it('duplicated descriptions, blocked sources and links that are not links', async () => {
    const judgement = await judge('content', { duplicate: true, blockedSourceAt: 3, plainLinks: true });
    expect(byRule(judgement, 'content.duplicate')).toEqual([expect.objectContaining({ severity: 'high', location: expect.objectContaining({ slide: 4, shape: 'Description' }) as unknown })]);
    expect(byRule(judgement, 'content.duplicate')[0]!.actual).toContain('slide 3, shape "Description"');
    expect(byRule(judgement, 'content.blocked-source')).toEqual([expect.objectContaining({ severity: 'high', location: expect.objectContaining({ slide: 5, shape: 'Source' }) as unknown, actual: 'https://www.example.com/company-profile' })]);
    expect(byRule(judgement, 'content.plain-link')[0]).toMatchObject({ severity: 'medium', location: { slide: 2, shape: 'Source' } });
  });

  it('orders findings most severe first and counts them by severity', async () => {
    const judgement = await judge('mixed', { hollow: true, titleSize: 18 });
    const ranks = judgement.findings.map((finding) => ['critical', 'high', 'medium'].indexOf(finding.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(judgement.counts.critical + judgement.counts.high + judgement.counts.medium).toBe(judgement.findings.length);
  });
});
