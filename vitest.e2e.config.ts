import { defineConfig } from 'vitest/config';
import unit from './vitest.config';

// End-to-end tests drive real Chromium and the built host. Each file runs in a process of its own with a home and a
// temp folder of its own (tests/e2e/support/own-home.ts), so two files run at once without seeing each other's host,
// bridge socket, settings or temp files. Two at a time is the default: the suite takes about half the time of one at a
// time on a 2-core machine, and its tests wait for states, not for time, so the extra load decides nothing. One test
// still does: web-page-states' find over a 40,000-row page within its longest budget (30 s), which the walk of 160,000
// elements overran at a load of 16 with two files running (a search that stops at its budget is product behaviour).
// DEPUTY_E2E_WORKERS=1 runs them one at a time (to read one file's output alone, or on a 1-core machine); a number
// given to vitest's --maxWorkers still wins.
const workers = Number(process.env.DEPUTY_E2E_WORKERS ?? 2);
if (!Number.isInteger(workers) || workers < 1) throw new Error(`DEPUTY_E2E_WORKERS must be a whole number of e2e files run at once (1 or more), not "${process.env.DEPUTY_E2E_WORKERS}"`);

export default defineConfig({
  // Tests that import a panel module for its text helpers load it in Node, as the unit tests do.
  resolve: unit.resolve,
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['tests/e2e/support/own-home.ts'],
    pool: 'forks',
    fileParallelism: workers > 1,
    maxWorkers: workers,
    testTimeout: 120_000,
    // expect.poll waits for a state; its default of 1 s decided tests by timing on a busy machine.
    expect: { poll: { timeout: 60_000, interval: 100 } },
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
