import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The polyfill throws when loaded outside an extension; unit tests get a stand-in that fails only when used.
  resolve: { alias: { 'webextension-polyfill': fileURLToPath(new URL('tests/unit/support/webextension-polyfill.ts', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
    environment: 'node',
    // A cap for a hung test, not a speed limit: generous enough for a laptop under load (npm run test:e2e:loaded's
    // two busy processes per core and more).
    testTimeout: 60_000,
  },
});
