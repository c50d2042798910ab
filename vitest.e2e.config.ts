import { defineConfig } from 'vitest/config';
import unit from './vitest.config';

// End-to-end tests drive real Chromium and the built host. They run one file at a time: the machines that run them
// have two cores, and each file starts its own browser.
export default defineConfig({
  // Tests that import a panel module for its text helpers load it in Node, as the unit tests do.
  resolve: unit.resolve,
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    // expect.poll waits for a state; its default of 1 s decided tests by timing on a busy machine.
    expect: { poll: { timeout: 60_000, interval: 100 } },
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
