import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Paragraph, Shape } from '../../../../native-host/documents/document-model';
import type { Finding } from '../../../../native-host/documents/finding';
import { formatForFixer, formatReport } from '../../../../native-host/documents/format-findings';
import { writeReport } from '../../../../native-host/documents/html-report';
import type { Judgement } from '../../../../native-host/documents/judge-document';
import { renderPages } from '../../../../native-host/documents/render-pages';
import { estimateFit } from '../../../../native-host/documents/text-fit';
import { tempFiles } from '../../../fixtures/documents/temp-files';

const files = tempFiles();
afterAll(() => files.cleanup());

const finding = (severity: Finding['severity'], n: number, extra: Partial<Finding> = {}): Finding => ({
  rule: `test.rule-${n}`,
  severity,
  location: { label: `slide ${n}`, slide: n },
  message: `Problem ${n}`,
  expected: 'this',
  actual: 'that',
  fix: `Fix ${n}.`,
  ...extra,
});

function judgementOf(findings: Finding[], extra: Partial<Judgement> = {}): Judgement {
  const counts = { critical: 0, high: 0, medium: 0 };
  for (const item of findings) counts[item.severity] += 1;
  return { kind: 'pptx', output: '/out/deck.pptx', template: '/ref/deck.pptx', findings, counts, hollow: false, passed: counts.critical + counts.high === 0, summary: 'FAIL: test', rules: {}, ...extra };
}

describe('findings for a fixer and for people', () => {
  it('the fixer prompt groups by severity, critical first, within a line budget, with the reference notes', () => {
    const findings = [finding('critical', 1), finding('high', 2), finding('high', 3), finding('medium', 4), finding('medium', 5)];
    const text = formatForFixer(judgementOf(findings, { notes: 'Use EUR everywhere.' }), 4);
    expect(text.indexOf('## Critical (1)')).toBeLessThan(text.indexOf('## High (2)'));
    expect(text.indexOf('## High (2)')).toBeLessThan(text.indexOf('## Medium (2)'));
    expect(text).toContain('- [test.rule-1] slide 1: Problem 1. Expected this; found that. Fix: Fix 1.');
    expect(text).toContain('- ... and 1 more medium finding');
    expect(text).not.toContain('Problem 5');
    expect(text).toContain("## The template's reference notes\nUse EUR everywhere.");
  });

  it('the terminal report lists each finding with expected, actual and fix', () => {
    const text = formatReport(judgementOf([finding('high', 2)]));
    expect(text).toContain('HIGH (1)\n  slide 2: Problem 2 [test.rule-2]\n      expected: this\n      actual:   that\n      fix:      Fix 2.');
  });

  it('the HTML report escapes document text and says why there are no page images', async () => {
    const hostile = finding('high', 3, { actual: '<script>alert(1)</script>', location: { label: 'slide 3, shape "<img src=x onerror=alert(1)>"', slide: 3 } });
    const report = await writeReport(judgementOf([hostile]), files.dir, {});
    const html = readFileSync(report.html, 'utf8');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(report.images).toBe(false);
    expect(report.imagesNote).toContain('Page images skipped: LibreOffice (soffice) was not found: install LibreOffice and poppler');
    expect(JSON.parse(readFileSync(join(files.dir, 'findings.json'), 'utf8'))).toMatchObject({ findings: [{ rule: 'test.rule-3' }] });
  });

  it('rendering without pdftoppm says so instead of failing', async () => {
    expect(await renderPages('/x.pptx', files.dir, 'p', { tools: { soffice: '/usr/bin/soffice' } })).toEqual({ ok: false, reason: expect.stringContaining('pdftoppm was not found') as unknown });
  });
});

describe('text fit estimate', () => {
  const paragraph = (text: string, size: number): Paragraph => ({ text, level: 0, runs: [], style: { size, font: 'Calibri' }, lineSpacing: { multiple: 1 }, spaceBeforePt: 0, spaceAfterPt: 0, indentEmu: 0, align: 'l' });
  const shape = (paragraphs: Paragraph[], w: number, h: number): Shape => ({ id: '1', name: 'Text', kind: 'text', role: 'body', key: 'name:Text', box: { x: 0, y: 0, w: w * 914400, h: h * 914400 }, paragraphs, text: paragraphs.map((item) => item.text).join('\n'), links: [], inherited: false, autofit: 'none', wrap: true, insets: { l: 91440, t: 45720, r: 91440, b: 45720 } });

  it('a short line fits, the same text twenty times does not, and lines grow with the size', () => {
    const line = 'Revenue reached EUR 38m last year, up 40% on the year before.';
    expect(estimateFit(shape([paragraph(line, 14)], 6, 1))!.lines).toBe(1);
    const long = estimateFit(shape([paragraph(Array(20).fill(line).join(' '), 14)], 6, 1))!;
    expect(long.ratio).toBeGreaterThan(3);
    expect(estimateFit(shape([paragraph(line, 28)], 6, 1))!.lines).toBe(2);
  });
});
