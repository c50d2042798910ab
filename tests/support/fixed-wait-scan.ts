import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Finds fixed-time waits in test code: a timer that waits (`setTimeout(…)`, `waitForTimeout(…)`, `sleep(…)`, the
 * promise timers of node:timers/promises). The e2e tests wait for the state they need instead (see
 * tests/e2e/support/wait-until.ts): a timer is either too short on a loaded machine or a waste on a quiet one.
 */
const FIXED_WAIT = [/\bsetTimeout\s*\(/, /\bwaitForTimeout\s*\(/, /(?<![\w.])sleep\s*\(/, /['"](?:node:)?timers\/promises['"]/];

/** The 1-based numbers and text of the lines of `text` that wait for a fixed time (comments are passed over). */
export function fixedWaits(text: string): { line: number; text: string }[] {
  return text.split('\n').flatMap((line, index) => {
    const code = line.replace(/\/\/.*$/, '').trim();
    if (code.startsWith('*') || code.startsWith('/*')) return [];
    return FIXED_WAIT.some((pattern) => pattern.test(code)) ? [{ line: index + 1, text: code }] : [];
  });
}

/** Every script file under `dir` (the e2e suite and its support), for the scans of its waits. */
export function scriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return scriptFiles(path);
    return /\.[cm]?[jt]s$/.test(entry.name) ? [path] : [];
  });
}
