import type { DiffSummary } from './git-ops';
import { contentViolations, isTestFile, pathViolation, type GuardRules } from './guard-rules';

export const CANNOT_FIX_FILE = 'CANNOT_FIX.md';

export interface Validation {
  ok: boolean;
  reasons: string[];
  /** The fixer wrote CANNOT_FIX.md: the loop stops and asks for a person. */
  cannotFix: boolean;
  empty: boolean;
}

interface FileLines {
  added: string[];
  removed: string[];
}

/** Splits a unified patch into the added and removed lines of each file. */
export function linesByFile(patch: string): Map<string, FileLines> {
  const files = new Map<string, FileLines>();
  let current: FileLines | undefined;
  for (const line of patch.split('\n')) {
    const header = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (header) {
      current = { added: [], removed: [] };
      files.set(header[2] ?? '', current);
      continue;
    }
    if (!current || line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) current.added.push(line.slice(1));
    else if (line.startsWith('-')) current.removed.push(line.slice(1));
  }
  return files;
}

const ASSERTION = /\b(?:expect|assert\w*|should|toBe|toEqual|t\.(?:equal|ok|is|deepEqual))\b/;
const DISABLING = /\b(?:it|test|describe)\.(?:skip|todo)\b|\bx(?:it|test|describe)\s*\(|@pytest\.mark\.(?:skip|xfail)|\bt\.skip\(|@Ignore\b|@Disabled\b/;

/**
 * Judges the fixer's change from the diff Deputy computed itself, so nothing the fixer says or skips can bypass it:
 * protected paths, deleted or weakened tests, fabricated data and secrets.
 */
export function validateDiff(diff: DiffSummary, rules: GuardRules): Validation {
  const reasons: string[] = [];
  const cannotFix = diff.files.some((file) => file.path === CANNOT_FIX_FILE && file.status !== 'D');
  const lines = linesByFile(diff.patch);
  for (const file of diff.files) {
    if (file.path === CANNOT_FIX_FILE) continue;
    const violation = pathViolation(file.path, rules);
    if (violation) reasons.push(`changed ${violation}`);
    if (isTestFile(file.path)) {
      const change = lines.get(file.path) ?? { added: [], removed: [] };
      if (file.status === 'D') reasons.push(`deleted the test file ${file.path}`);
      else {
        const removedAsserts = change.removed.filter((line) => ASSERTION.test(line)).length;
        const addedAsserts = change.added.filter((line) => ASSERTION.test(line)).length;
        if (removedAsserts > addedAsserts) reasons.push(`weakened ${file.path}: ${removedAsserts - addedAsserts} assertion(s) removed`);
        if (change.added.some((line) => DISABLING.test(line))) reasons.push(`disabled a test in ${file.path} (skip, todo or xfail)`);
      }
    }
    const added = (lines.get(file.path)?.added ?? []).join('\n');
    for (const found of new Set(contentViolations(added, rules))) reasons.push(`${file.path} adds ${found}`);
  }
  return { ok: reasons.length === 0, reasons, cannotFix, empty: diff.files.length === 0 };
}
