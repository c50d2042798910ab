import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';

/** Bundles the native host and CLI into dist-host/deputy.mjs; npm packages stay external and load from node_modules. */
const outfile = 'dist-host/deputy.mjs';
await build({
  entryPoints: ['native-host/index.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
await chmod(outfile, 0o755);
process.stderr.write(`built ${outfile}\n`);
