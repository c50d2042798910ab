import { defineConfig } from 'vitest/config';
import unit from './vitest.config';

// End-to-end tests drive real Chromium and the built host. Each file runs in a process of its own with a home and a
// temp folder of its own (tests/e2e/support/own-home.ts), so two files could run at once without seeing each other's
// host, bridge socket, settings or temp files; `--maxWorkers=2` does that (2622 s for the whole suite beside other
// work on a 2-core machine, against ~3200 s one at a time). They run one at a time by default all the same: run two at
// a time, two tests still decide by the clock under the extra load (routines-host-schedules' 45 s until schedules
// fall due, web-page-states' 30 s search of a 40,000-row page).
export default defineConfig({
  // Tests that import a panel module for its text helpers load it in Node, as the unit tests do.
  resolve: unit.resolve,
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['tests/e2e/support/own-home.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 120_000,
    // expect.poll waits for a state; its default of 1 s decided tests by timing on a busy machine.
    expect: { poll: { timeout: 60_000, interval: 100 } },
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
