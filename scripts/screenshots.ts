/**
 * Takes the README's screenshots from the real side panel: runs the end-to-end tests that drive the built extension
 * through each view (they save every view in light and dark under test-artifacts/screenshots), then copies the ones
 * the README shows to docs/screenshots. Run it after a UI change (`npm run screenshots`) and commit the images; CI runs
 * the same tests, so a view that breaks fails there, and CI never commits images.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const SOURCE = 'test-artifacts/screenshots';
const TARGET = process.argv[2] ?? 'docs/screenshots';
/** The tests whose screens the README shows. */
const TESTS = ['tests/e2e/sidepanel-onboarding.test.ts', 'tests/e2e/sidepanel-task.test.ts', 'tests/e2e/sidepanel-history.test.ts'];
/** README image name -> the test's screenshot. */
const SHOTS: Record<string, string> = {
  'first-run.png': 'panel-first-run-light.png',
  'task-completed.png': 'panel-task-completed-light.png',
  'approval.png': 'panel-approval-light.png',
  'plan-approval.png': 'panel-plan-approval-light.png',
  'honest-steps-dark.png': 'panel-task-honest-steps-dark.png',
  'history.png': 'panel-history-light.png',
};

const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.e2e.config.ts', ...TESTS], { stdio: 'inherit' });
if (run.status !== 0) {
  console.error('The tests that take the screenshots failed: the images were not updated.');
  process.exit(run.status ?? 1);
}
await mkdir(TARGET, { recursive: true });
for (const [name, shot] of Object.entries(SHOTS)) {
  const from = join(SOURCE, shot);
  await stat(from).catch(() => {
    throw new Error(`${from} was not written by the tests: rename it in scripts/screenshots.ts`);
  });
  await copyFile(from, join(TARGET, name));
  console.log(`${join(TARGET, name)} <- ${from}`);
}
