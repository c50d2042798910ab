import { defineConfig } from 'vitest/config';
import unit from './vitest.config';

// End-to-end tests drive real Chromium and the built host. Two files run at a time, each in a process of its own with
// a home and a temp folder of its own (tests/e2e/support/own-home.ts), so neither sees the other's host, bridge
// socket, settings or temp files; their screens, ports and servers are each the file's own too. Two at a time keeps a
// 2-core CI machine busy while one file waits on a browser or a host, and the suite holds under far more CPU contention
// than that (npm run test:e2e:loaded). `--maxWorkers=1` runs the files one at a time.
export default defineConfig({
  // Tests that import a panel module for its text helpers load it in Node, as the unit tests do.
  resolve: unit.resolve,
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['tests/e2e/support/own-home.ts'],
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 120_000,
    // expect.poll waits for a state; its default of 1 s decided tests by timing on a busy machine.
    expect: { poll: { timeout: 60_000, interval: 100 } },
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
