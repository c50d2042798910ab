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

/** What a change does to one test file: deleted, assertions removed, tests skipped; a plain "changed" otherwise. */
export function testChangeReasons(diff: DiffSummary, path: string): string[] {
  const file = diff.files.find((entry) => entry.path === path);
  if (!file || !isTestFile(path)) return [];
  if (file.status === 'D') return [`deleted the test file ${path}`];
  const change = linesByFile(diff.patch).get(path) ?? { added: [], removed: [] };
  const reasons: string[] = [];
  const removedAsserts = change.removed.filter((line) => ASSERTION.test(line)).length;
  const addedAsserts = change.added.filter((line) => ASSERTION.test(line)).length;
  if (removedAsserts > addedAsserts) reasons.push(`weakened ${path}: ${removedAsserts - addedAsserts} assertion(s) removed`);
  if (change.added.some((line) => DISABLING.test(line))) reasons.push(`disabled a test in ${path} (skip, todo or xfail)`);
  return reasons.length > 0 ? reasons : [`changed the test file ${path} (tests must stay as they were)`];
}

/**
 * Judges the fixer's change from the diff Deputy computed itself, so nothing the fixer says or skips can bypass it:
 * protected paths, fabricated data and secrets. Tests and the check's definition are judged by the validate step with
 * testChangeReasons and check-definition, because the user may allow such changes for approval.
 */
export function validateDiff(diff: DiffSummary, rules: GuardRules): Validation {
  const reasons: string[] = [];
  const cannotFix = diff.files.some((file) => file.path === CANNOT_FIX_FILE && file.status !== 'D');
  const lines = linesByFile(diff.patch);
  for (const file of diff.files) {
    if (file.path === CANNOT_FIX_FILE) continue;
    const violation = pathViolation(file.path, rules);
    if (violation) reasons.push(`changed ${violation}`);
    const added = (lines.get(file.path)?.added ?? []).join('\n');
    for (const found of new Set(contentViolations(added, rules))) reasons.push(`${file.path} adds ${found}`);
  }
  return { ok: reasons.length === 0, reasons, cannotFix, empty: diff.files.length === 0 };
}
