import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Judgement } from '../../native-host/documents/judge-document';
import { findRenderTools } from '../../native-host/documents/render-pages';
import { buildDeck } from '../fixtures/documents/deck-builder';
import { buildReport } from '../fixtures/documents/report-builder';
import { companies } from '../fixtures/documents/sample-companies';
import { tempFiles } from '../fixtures/documents/temp-files';
import { buildWorkbook } from '../fixtures/documents/workbook-builder';
import { BUILT_HOST, ensureBuiltHost } from './host-harness';

/**
 * `deputy compare` from the built bin, as a user (or the fix loop) runs it: documents made by pptxgenjs, exceljs and
 * docx; exit codes 0 (no critical or high finding), 1 (findings), 2 (bad input); JSON findings; --learn; and the HTML
 * report with real LibreOffice pages side by side.
 */
const files = tempFiles('deputy-compare-e2e-');
const tools = findRenderTools();
const canRender = tools.soffice !== undefined && tools.pdftoppm !== undefined;
const paths: Record<string, string> = {};

function deputy(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BUILT_HOST, 'compare', ...args], { encoding: 'utf8', timeout: 180_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  ensureBuiltHost();
  paths.refDeck = files.write('reference.pptx', await buildDeck());
  paths.goodDeck = files.write('good.pptx', await buildDeck({ companies: companies(6, 5) }));
  paths.badDeck = files.write('bad.pptx', await buildDeck({ titleSize: 20, overflowAt: 1 }));
  paths.refBook = files.write('reference.xlsx', await buildWorkbook());
  paths.badBook = files.write('bad.xlsx', await buildWorkbook({ missingSheet: 'Sources', missingColumn: 'EV/EBITDA' }));
  paths.refReport = files.write('reference.docx', await buildReport());
  paths.badReport = files.write('bad.docx', await buildReport({ missingSection: 'Risks' }));
  // An expected output and an output whose third company's EV and country came out wrong.
  const expected = companies(6);
  const wrong = expected.map((company, index) => (index === 2 ? { ...company, ev: company.ev + 125, country: 'Atlantis' } : company));
  paths.expectedBook = files.write('expected.xlsx', await buildWorkbook({ companies: expected }));
  paths.wrongBook = files.write('wrong.xlsx', await buildWorkbook({ companies: wrong }));
  paths.expectedDeck = files.write('expected.pptx', await buildDeck({ companies: expected }));
  paths.wrongDeck = files.write('wrong.pptx', await buildDeck({ companies: wrong }));
  paths.expectedReport = files.write('expected.docx', await buildReport({ company: expected[2]!, competitors: expected }));
  paths.wrongReport = files.write('wrong.docx', await buildReport({ company: wrong[2]!, competitors: wrong }));
});
afterAll(() => files.cleanup());

describe('deputy compare', () => {
  it('a good deck passes with exit 0', () => {
    const run = deputy([paths.goodDeck!, '--template', paths.refDeck!]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`deputy compare: ${paths.goodDeck} against ${paths.refDeck}\nPASS`);
  });

  it('a deck with defects exits 1 and its JSON names each finding with severity, location, expected, actual and fix', () => {
    const run = deputy([paths.badDeck!, '--template', paths.refDeck!, '--json']);
    expect(run.code, run.stderr).toBe(1);
    const judgement = JSON.parse(run.stdout) as Judgement & { exitCode: number };
    expect(judgement).toMatchObject({ kind: 'pptx', passed: false, hollow: false, exitCode: 1 });
    expect(judgement.findings).toContainEqual({ rule: 'format.title-size', severity: 'high', location: { label: 'slide 2, shape "Title"', slide: 2, shape: 'Title' }, message: "The title's font size differs from the template", expected: '28 pt', actual: '20 pt', fix: "Set the title's font size to 28 pt." });
    expect(judgement.findings).toContainEqual(expect.objectContaining({ rule: 'format.overflow', severity: 'high', location: expect.objectContaining({ slide: 3, shape: 'Description' }) as unknown }));
    expect(judgement.counts.high).toBeGreaterThanOrEqual(2);
  });

  it('a workbook missing a sheet and a column, and a report missing a section, exit 1 with readable reports', () => {
    const book = deputy([paths.badBook!, '--template', paths.refBook!]);
    expect(book.code).toBe(1);
    expect(book.stdout).toContain('CRITICAL (1)\n  sheet "Sources": The sheet "Sources" is missing [structure.missing-sheet]');
    expect(book.stdout).toContain('sheet "Comps", column "EV/EBITDA": The column "EV/EBITDA" is missing [structure.missing-column]');
    const report = deputy([paths.badReport!, '--template', paths.refReport!]);
    expect(report.code).toBe(1);
    expect(report.stdout).toContain('The section "Risks" is missing [structure.missing-section]');
  });

  it('bad input and usage mistakes exit 2 with a message that says what to do', () => {
    const corrupt = files.write('corrupt.pptx', readFileSync(paths.refDeck!).subarray(0, 500));
    expect(deputy([corrupt, '--template', paths.refDeck!])).toMatchObject({ code: 2, stderr: `deputy: ${corrupt} is corrupt: its zip package is truncated or damaged (no readable table of contents). Re-create the file.\n` });
    expect(deputy([paths.refDeck!, '--template', paths.refBook!]).stderr).toContain('is a PowerPoint deck (.pptx) but the template');
    expect(deputy([paths.refDeck!])).toMatchObject({ code: 2, stderr: 'deputy: give a --template to compare with, a --reference (an expected output), or a --rules file made by --learn\n' });
    expect(deputy(['--template', paths.refDeck!]).code).toBe(2);
    expect(deputy([paths.refDeck!, '--template', paths.refDeck!, '--max-size', 'lots']).code).toBe(2);
    expect(deputy([paths.refDeck!, '--template', paths.refDeck!, '--no-such-option']).code).toBe(2);
    expect(deputy([paths.refDeck!, '--template', paths.refDeck!, '--max-size', '0.01']).stderr).toMatch(/reference\.pptx is \d+ KB, above the 11 KB limit for one document/);
    const encrypted = deputy([join(import.meta.dirname, '../fixtures/documents/encrypted.xlsx'), '--template', paths.refBook!]);
    expect(encrypted.code).toBe(2);
    expect(encrypted.stderr).toContain('is encrypted (password protected)');
  });

  it('--reference: a file against itself passes with no finding; changed numbers and text are reported where they are', () => {
    for (const file of [paths.expectedBook!, paths.expectedDeck!, paths.expectedReport!]) {
      const same = deputy([file, '--reference', file, '--json']);
      expect(same.code, same.stderr).toBe(0);
      expect((JSON.parse(same.stdout) as Judgement).findings).toEqual([]);
    }
    const book = deputy([paths.wrongBook!, '--reference', paths.expectedBook!, '--json']);
    expect(book.code, book.stderr).toBe(1);
    const values = (JSON.parse(book.stdout) as Judgement).findings.filter((finding) => finding.rule.startsWith('values.'));
    expect(values).toContainEqual(expect.objectContaining({ rule: 'values.number-changed', severity: 'high', location: expect.objectContaining({ sheet: 'Comps', row: 6, column: 'EV (EURm)' }) as unknown }));
    expect(values).toContainEqual(expect.objectContaining({ rule: 'values.text-changed', severity: 'high', actual: '"Atlantis"', location: expect.objectContaining({ sheet: 'Comps', row: 6, column: 'Country' }) as unknown }));
    const deck = deputy([paths.wrongDeck!, '--reference', paths.expectedDeck!]);
    expect(deck.code, deck.stderr).toBe(1);
    expect(deck.stdout).toMatch(/values\.(number|text)-changed.*slide \d+, shape "[^"]+"/s);
    expect(deck.stdout).toContain('Atlantis');
    const report = deputy([paths.wrongReport!, '--reference', paths.expectedReport!, '--json']);
    expect(report.code, report.stderr).toBe(1);
    const found = (JSON.parse(report.stdout) as Judgement).findings.filter((finding) => finding.rule.startsWith('values.'));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((finding) => finding.location.paragraph !== undefined || finding.location.label.includes('table'))).toBe(true);
    const both = deputy([paths.wrongBook!, '--reference', paths.expectedBook!, '--template', paths.expectedBook!]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('either --template');
  });

  it('--learn writes a rules file that judges without the template', () => {
    const rules = join(files.dir, 'rules.json');
    const learn = deputy(['--learn', paths.goodDeck!, '--out', rules]);
    expect(learn.code, learn.stderr).toBe(0);
    expect(learn.stdout).toContain(`Wrote the rules learned from ${paths.goodDeck} to ${rules}`);
    const written = JSON.parse(readFileSync(rules, 'utf8')) as { kind: string; notes: string };
    expect(written.kind).toBe('pptx');
    expect(written.notes).toContain('review every value');
    const run = deputy([paths.badDeck!, '--rules', rules, '--json']);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as Judgement).findings).toContainEqual(expect.objectContaining({ rule: 'format.title-size', actual: '20 pt' }));
  });

  it('--report --no-images writes the HTML report and says the pages were not drawn', () => {
    const dir = join(files.dir, 'report-plain');
    const run = deputy([paths.badDeck!, '--template', paths.refDeck!, '--report', dir, '--no-images']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`Report: ${join(dir, 'report.html')}\nPage images were not requested (--no-images).`);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('format.title-size');
  });

  // CI installs LibreOffice and poppler (.ci/run); elsewhere the test says why it cannot run.
  it.skipIf(!canRender && process.env.CI !== 'true')(`--report draws the output and the reference side by side with LibreOffice${canRender ? '' : ' (skipped: soffice or pdftoppm is not installed here)'}`, () => {
    expect(canRender, 'CI must install LibreOffice and poppler-utils (.ci/run)').toBe(true);
    for (const [output, reference, name] of [
      [paths.badDeck!, paths.refDeck!, 'deck'],
      [paths.badBook!, paths.refBook!, 'book'],
    ] as const) {
      const dir = join(files.dir, `report-${name}`);
      const run = deputy([output, '--template', reference, '--report', dir]);
      expect(run.code, run.stderr).toBe(1);
      const html = readFileSync(join(dir, 'report.html'), 'utf8');
      expect(html, run.stdout).toContain('<img src="output-1.png" alt="output page 1">');
      expect(html).toContain('<img src="reference-1.png" alt="reference page 1">');
      for (const image of ['output-1.png', 'reference-1.png']) {
        expect(existsSync(join(dir, image))).toBe(true);
        expect(readFileSync(join(dir, image)).subarray(1, 4).toString()).toBe('PNG');
        expect(statSync(join(dir, image)).size).toBeGreaterThan(2000);
      }
    }
    // A deck has one page per slide: the reference's seven slides, the output's seven.
    expect(readFileSync(join(files.dir, 'report-deck', 'report.html'), 'utf8')).toContain('id="page-7"');
  });
});
