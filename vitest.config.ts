import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The polyfill throws when loaded outside an extension; unit tests get a stand-in that fails only when used.
  resolve: { alias: { 'webextension-polyfill': fileURLToPath(new URL('tests/unit/support/webextension-polyfill.ts', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
    environment: 'node',
    // Vitest's default is one worker fewer than the machine has cores: one on CI's two, which left a core idle for most
    // of the suite. The unit files are independent of one another (the whole suite passes two at a time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A cap for a hung test, not a speed limit: generous enough for a laptop under load (npm run test:e2e:loaded's
    // two busy processes per core and more).
    testTimeout: 60_000,
  },
});
