import { describe, expect, it } from 'vitest';
import { linesByFile, testChangeReasons, validateDiff } from '../../../../native-host/loop/diff-validator';
import type { DiffSummary } from '../../../../native-host/loop/git-ops';

const rules = { protectedPaths: ['CLAUDE.md'], allowedPaths: [], fabricationPatterns: [] };

function diff(files: Array<[string, string, string[], string[]]>): DiffSummary {
  const patch = files
    .map(([, path, added, removed]) => [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, '@@ -1 +1 @@', ...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)].join('\n'))
    .join('\n');
  return { files: files.map(([status, path]) => ({ status, path })), patch, insertions: 0, deletions: 0 };
}

describe('validateDiff', () => {
  it('accepts an honest fix', () => {
    const verdict = validateDiff(diff([['M', 'src/math.mjs', ['export const add = (a, b) => a + b;'], ['export const add = (a, b) => a - b;']]]), rules);
    expect(verdict).toEqual({ ok: true, reasons: [], cannotFix: false, empty: false });
  });

  it('reports an empty change', () => {
    expect(validateDiff(diff([]), rules)).toMatchObject({ ok: true, empty: true });
  });

  it('rejects protected paths, including the guidance file and CI', () => {
    const verdict = validateDiff(diff([['M', '.env', ['A=1'], []], ['M', 'CLAUDE.md', ['x'], []], ['A', '.github/workflows/ci.yml', ['on: push'], []]]), rules);
    expect(verdict.reasons).toEqual(['changed .env is a protected path', 'changed CLAUDE.md is a protected path', 'changed .github/workflows/ci.yml is a protected path']);
  });

  it('says what a change does to each test file: deleted, weakened, skipped, or changed at all', () => {
    const changes = diff([
      ['D', 'test/cart.test.js', [], ['expect(total).toBe(3);']],
      ['M', 'src/prices.spec.ts', ['  // checked elsewhere'], ['  expect(price(2)).toBe(4);', '  expect(price(0)).toBe(0);']],
      ['M', 'tests/test_api.py', ['@pytest.mark.skip(reason="flaky")'], []],
      ['M', 'src/__tests__/a.js', ['it.skip("works", () => {});'], []],
      ['M', 'test/math.test.mjs', ["  ['add', () => add(2, 3) === -1],"], ["  ['add', () => add(2, 3) === 5],"]],
    ]);
    expect(validateDiff(changes, rules).reasons).toEqual([]);
    expect(changes.files.flatMap((file) => testChangeReasons(changes, file.path))).toEqual([
      'deleted the test file test/cart.test.js',
      'weakened src/prices.spec.ts: 2 assertion(s) removed',
      'disabled a test in tests/test_api.py (skip, todo or xfail)',
      'disabled a test in src/__tests__/a.js (skip, todo or xfail)',
      'changed the test file test/math.test.mjs (tests must stay as they were)',
    ]);
  });

  it('rejects fabricated data and secrets in added lines only', () => {
    const verdict = validateDiff(
      diff([
        ['M', 'src/report.js', ["const source = 'https://api.example.com/v1';", 'const years = [2018, 2019, 2020, 2021];', 'const key = "sk-ant-abcdefghijklmnopqrstuvwxyz012345";'], ["const old = 'https://example.com';"]],
      ]),
      { ...rules, fabricationPatterns: ['\\bN/A\\b'] },
    );
    expect(verdict.reasons).toEqual([
      'src/report.js adds fabricated data: a fake example URL',
      'src/report.js adds fabricated data: a hard-coded year series',
      'src/report.js adds a secret: an API key',
    ]);
    const removedOnly = validateDiff(diff([['M', 'src/a.js', ['const x = 1;'], ["const url = 'https://example.com';"]]]), rules);
    expect(removedOnly.ok).toBe(true);
  });

  it('keeps to the allowed paths when they are set', () => {
    const verdict = validateDiff(diff([['M', 'src/a.js', ['x'], []], ['M', 'docs/readme.md', ['y'], []]]), { ...rules, allowedPaths: ['src/**'] });
    expect(verdict.reasons).toEqual(['changed docs/readme.md is outside the allowed paths (src/**)']);
  });

  it('sees CANNOT_FIX.md as a request for a human, not as a violation', () => {
    expect(validateDiff(diff([['A', 'CANNOT_FIX.md', ['# Needs data'], []]]), rules)).toMatchObject({ ok: true, cannotFix: true });
  });

  it('splits a patch by file', () => {
    const lines = linesByFile('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n');
    expect(lines.get('x')).toEqual({ added: ['new'], removed: ['old'] });
  });
});
