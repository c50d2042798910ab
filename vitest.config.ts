import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The polyfill throws when loaded outside an extension; unit tests get a stand-in that fails only when used.
  resolve: { alias: { 'webextension-polyfill': fileURLToPath(new URL('tests/unit/support/webextension-polyfill.ts', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
