import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import manifest from './manifest.config.ts';

export default defineConfig({
  plugins: [preact(), crx({ manifest })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The extension runs in current Chrome only; no legacy transforms.
    target: 'chrome116',
    rollupOptions: {
      input: { popup: 'extension/popup/index.html', control: 'extension/control/index.html' },
    },
  },
  server: { port: 5173, strictPort: true, hmr: { port: 5173 } },
});
