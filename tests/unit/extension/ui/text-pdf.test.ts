import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textPdf, wrapLine } from '../../../../extension/ui/text-pdf';

const poppler = spawnSync('pdftotext', ['-v']).error ? 'pdftotext (Debian package poppler-utils) is not installed' : null;

function readBack(bytes: Uint8Array): { text: string; pages: number } {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-pdf-'));
  const file = join(dir, 'case.pdf');
  writeFileSync(file, bytes);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return { text, pages: Number(/Pages:\s+(\d+)/.exec(info)?.[1]) };
}

describe('the case file as a PDF', () => {
  it('wraps at spaces and cuts only a word longer than a line', () => {
    expect(wrapLine('aaa bbb ccc', 7)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapLine('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapLine('', 4)).toEqual(['']);
  });

  it.skipIf(poppler !== null)(`is a valid PDF whose text reads back, across pages${poppler ? ` (skipped: ${poppler})` : ''}`, () => {
    const lines = Array.from({ length: 150 }, (_, i) => `${i}: Support (Sam) said \\ "refund in 5 days" — café, 12 € ${'x'.repeat(i % 7)}`);
    const { text, pages } = readBack(textPdf('Deputy support case on shop.test', lines.join('\n')));
    expect(pages).toBe(3);
    expect(text).toContain('Deputy support case on shop.test');
    for (const i of [0, 71, 149]) expect(text).toContain(`${i}: Support (Sam) said \\ "refund in 5 days" — café, 12 €`);
  });

  it.skipIf(poppler !== null)(`says when characters its font lacks were replaced${poppler ? ` (skipped: ${poppler})` : ''}`, () => {
    expect(readBack(textPdf('t', 'plain')).text).not.toContain('cannot show');
    const { text } = readBack(textPdf('t', '返金 please'));
    expect(text).toContain('2 characters this PDF');
    expect(text).toContain('?? please');
  });
});
