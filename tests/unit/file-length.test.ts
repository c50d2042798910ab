import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No product file holds two jobs: a file of the product (extension/, native-host/, shared/; not tests, scripts or
 * build output) longer than LIMIT lines must say at its top why it is long, in a comment among its first lines:
 *
 *   // Over 400 lines for a reason: <why this is one job that does not split>
 *   // Long because: <why>
 *
 * A file that has shrunk under the limit loses the note (a stale reason misleads the next reader).
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const PRODUCT = ['extension', 'native-host', 'shared'];
const LIMIT = 400;
/** How many opening lines may hold the reason (a shebang or a directive may come first). */
const HEAD = 5;
const SOURCE = /\.(?:[cm]?[jt]s|tsx|css|html)$/;
const REASON = /^\s*(?:\/\/|\/\*+|\*|<!--)\s*(?:Over \d+ lines for a reason|Long because)\s*:\s*(.*)$/i;
/** A reason is a sentence, not a word: this many characters at least. */
const MIN_REASON = 20;

function productFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : productFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** What is wrong with a file's length or its note about it, or nothing. */
function lengthProblem(path: string, text: string): string | undefined {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  const reason = lines
    .slice(0, HEAD)
    .map((line) => REASON.exec(line)?.[1]?.trim())
    .find((found) => found !== undefined);
  if (lines.length > LIMIT) {
    if (reason === undefined) return `${path} has ${lines.length} lines (over ${LIMIT}) and no reason at its top: split it by job, or say why in its first lines ("// Over ${LIMIT} lines for a reason: ...")`;
    if (reason.length < MIN_REASON) return `${path} has ${lines.length} lines and its reason ("${reason}") says too little: write why this is one job`;
    return undefined;
  }
  if (reason !== undefined) return `${path} has ${lines.length} lines, under ${LIMIT}: remove the note on why it is long`;
  return undefined;
}

describe('the length check on product files', () => {
  const long = (head: string): string => `${head}\n${'const x = 1;\n'.repeat(LIMIT + 1)}`;
  it('refuses a long file with no reason, or a reason of a word, and names the file and the fix', () => {
    expect(lengthProblem('shared/a.ts', long('import { a } from "./a";'))).toMatch(/^shared\/a\.ts has 402 lines \(over 400\) and no reason at its top: split it/);
    expect(lengthProblem('shared/a.ts', long('// Long because: big'))).toMatch(/says too little/);
    // A reason far down the file is no reason at its top.
    expect(lengthProblem('shared/a.ts', `${'\n'.repeat(HEAD)}${long('// Long because: one walk of the DOM that decides every node')}`)).toMatch(/no reason at its top/);
  });

  it('accepts a long file whose first lines say why, in a line or block comment, or in HTML', () => {
    expect(lengthProblem('shared/a.ts', long('// Over 400 lines for a reason: the agent loop is one sequence sharing its state'))).toBeUndefined();
    expect(lengthProblem('shared/a.ts', long('#!/usr/bin/env node\n/* Long because: one table of every key the protocol knows */'))).toBeUndefined();
    expect(lengthProblem('extension/a.html', long('<!-- Long because: the whole onboarding page in one document -->'))).toBeUndefined();
  });

  it('refuses the note on a file that is no longer long, and passes a short file without one', () => {
    expect(lengthProblem('shared/a.ts', '// Long because: it used to be a lot longer than it is now\nconst x = 1;\n')).toMatch(/under 400: remove the note/);
    expect(lengthProblem('shared/a.ts', 'const x = 1;\n')).toBeUndefined();
  });
});

describe('product files', () => {
  const files = PRODUCT.flatMap(productFiles);

  it('are found (the walk reads the product folders)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(join('shared', 'agent', 'run-agent.ts'));
  });

  it(`are at most ${LIMIT} lines, or say at their top why they are longer`, () => {
    const problems = files.map((file) => lengthProblem(file, readFileSync(join(ROOT, file), 'utf8'))).filter((problem) => problem !== undefined);
    expect(problems).toEqual([]);
  });
});
