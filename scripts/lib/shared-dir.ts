import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The folder `../shared` beside the checkout: material handed to the team (the real-page corpus, MiniWoB++, the office
 * corpus, DESIGN.md). It is present on the team's machines and in CI, and absent in a user's clone. This module is
 * the one place that knows where it is: tests and scripts ask it, and a test that needs it skips with the reason it
 * gives (tests/unit/support/shared-dir-guard.test.ts checks that every test file does).
 *
 * Not to be confused with the project's own `shared/` folder (isomorphic code), which is inside the checkout.
 */
export const SHARED_DIR = resolve(import.meta.dirname, '..', '..', '..', 'shared');

/** A path inside the shared folder, e.g. sharedPath('corpus', 'pages'). */
export function sharedPath(...parts: string[]): string {
  return join(SHARED_DIR, ...parts);
}

/**
 * Why `relative` (a folder or file inside the shared folder) cannot be used here, naming what is missing, or null when
 * it is there. A folder counts as there when it holds something: an empty checkout of it is as good as none.
 */
export function sharedMissing(relative: string, dir = SHARED_DIR): string | null {
  const path = join(dir, relative);
  const where = `${path} (the shared folder beside the checkout, ${dir})`;
  if (!existsSync(dir)) return `${relative} is missing: there is no shared folder at ${dir} beside the checkout`;
  if (!existsSync(path)) return `${relative} is missing: nothing at ${where}`;
  if (statSync(path).isDirectory() && readdirSync(path).length === 0) return `${relative} is missing: ${where} is empty`;
  return null;
}
