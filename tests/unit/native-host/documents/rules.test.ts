import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentScanner } from '../../../../native-host/documents/content-scan';
import { judgeDocument, learnRules } from '../../../../native-host/documents/judge-document';
import { mergeRules, parseRules, Rules } from '../../../../native-host/documents/rules';
import { buildDeck } from '../../../fixtures/documents/deck-builder';
import { tempFiles } from '../../../fixtures/documents/temp-files';
import { buildWorkbook } from '../../../fixtures/documents/workbook-builder';

const files = tempFiles();
let reference = '';
let titleDefect = '';

beforeAll(async () => {
  reference = files.write('reference.pptx', await buildDeck());
  titleDefect = files.write('title.pptx', await buildDeck({ titleSize: 20 }));
});
afterAll(() => files.cleanup());

describe('rules: learned from a reference, tuned by the user', () => {
  it('learning reads the template: slide kinds with title style, divider, description lengths, tables and the cover', async () => {
    const rules = await learnRules(reference);
    expect(rules.kind).toBe('pptx');
    expect(rules.pptx?.requiredKinds).toEqual(['COMPANY', 'SUMMARY']);
    expect(rules.pptx?.kinds?.COMPANY).toMatchObject({ title: { size: 28, color: '1F3864', font: 'Georgia' }, titleTopIn: 0.3, dividers: [{ yIn: 1.05, color: '1F3864' }], descriptions: { 'name:Description': { min: 22 } } });
    expect(rules.pptx?.kinds?.SUMMARY?.tables).toEqual([{ columns: ['Company', 'HQ', 'EV (EURm)'] }]);
    expect(rules.pptx?.cover).toEqual({ roles: ['title', 'subtitle'], labels: ['Date'] });
  });

  it('learned rules survive JSON and judge like the template they came from', async () => {
    const learned = parseRules(JSON.parse(JSON.stringify(await learnRules(reference))), 'learned rules');
    const withTemplate = await judgeDocument(titleDefect, reference);
    const withRules = await judgeDocument(titleDefect, undefined, learned);
    expect(withRules.findings).toEqual(withTemplate.findings);
    expect(withRules.findings.some((finding) => finding.rule === 'format.title-size')).toBe(true);
  });

  it("the user's rules override learned values field by field", async () => {
    const judgement = await judgeDocument(titleDefect, reference, { pptx: { kinds: { COMPANY: { title: { size: 20 } } } } });
    expect(judgement.findings.filter((finding) => finding.rule === 'format.title-size')).toEqual([]);
    // The colour and font learned from the template still apply.
    expect(judgement.rules.pptx?.kinds?.COMPANY?.title).toEqual({ size: 20, color: '1F3864', font: 'Georgia' });
  });

  it('severity overrides change a rule or turn it off, and notes reach the judgement', async () => {
    const overridden = await judgeDocument(titleDefect, reference, { severity: { 'format.title-size': 'medium' }, notes: 'Titles are the company name only.' });
    expect(overridden.findings.find((finding) => finding.rule === 'format.title-size')?.severity).toBe('medium');
    expect(overridden.passed).toBe(true);
    expect(overridden.notes).toBe('Titles are the company name only.');
    const off = await judgeDocument(titleDefect, reference, { severity: { 'format.title-size': 'off' } });
    expect(off.findings.some((finding) => finding.rule === 'format.title-size')).toBe(false);
  });

  it('extra filler phrases and blocked domains, and a required column the template lacks', async () => {
    const workbook = files.write('book.xlsx', await buildWorkbook());
    const judgement = await judgeDocument(workbook, workbook, {
      content: { extraFillerPhrases: ['recurring service contracts'], blockedDomains: ['bundesanzeiger.de'] },
      xlsx: { sheets: { Comps: { columns: ['Company', 'Ticker', 'Country', 'Market cap (EURm)', 'EV (EURm)', 'EV/EBITDA', 'Description', 'Website', 'Net debt'] } } },
    });
    expect(judgement.findings.find((finding) => finding.rule === 'content.filler')?.actual).toBe('"recurring service contracts"');
    expect(judgement.findings.find((finding) => finding.rule === 'content.blocked-source')).toMatchObject({ severity: 'high', location: { sheet: 'Sources', row: 2, column: 'URL' } });
    expect(judgement.findings.find((finding) => finding.rule === 'structure.missing-column')).toMatchObject({ severity: 'high', expected: 'a column "Net debt" after "Website"' });
  });

  it('mergeRules: objects merge, arrays and values replace', () => {
    expect(mergeRules({ a: { b: 1, c: [1, 2] }, d: 'x' }, { a: { c: [3] }, e: true })).toEqual({ a: { b: 1, c: [3] }, d: 'x', e: true });
    expect(Rules.safeParse({ tolerance: { sizePt: -1 } }).success).toBe(false);
  });
});

describe('content phrases', () => {
  it('placeholders in capitals match only in capitals; other phrases in any case, on word boundaries', () => {
    const scanner = contentScanner({});
    expect(scanner.placeholder('Revenue: TBD')).toBe('TBD');
    expect(scanner.placeholder('Makes a todo list app for teams')).toBeUndefined();
    expect(scanner.placeholder('LOREM IPSUM dolor')).toBe('lorem ipsum');
    expect(scanner.filler('It Is A Company That sells pumps')).toEqual(['is a company that']);
    expect(scanner.filler('This is a company thatcher founded')).toEqual([]);
    expect(scanner.blockedDomain('https://shop.example.com/x')).toBe('example.com');
    expect(scanner.blockedDomain('https://api.service.test/')).toBe('test');
    expect(scanner.blockedDomain('https://www.bundesanzeiger.de')).toBeUndefined();
  });
});
