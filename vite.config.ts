import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import manifest from './manifest.config.ts';

export default defineConfig({
  // The content script is one self-contained file run as the document starts, not a module the loader imports after
  // it: a page that just loaded answers the background at once, instead of after its module graph is fetched and
  // evaluated (the settle after a navigating click, and the look that follows it, waited for that).
  plugins: [preact(), crx({ manifest, contentScripts: { standaloneFiles: ['extension/content/index.ts'] } })],
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
