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

/**
 * The fix loop's guard hook, which Claude Code starts for every writing tool call: one self-contained file with its
 * few dependencies inlined, so each call costs a Node start and nothing more.
 */
const hookfile = 'dist-host/loop-hook.mjs';
await build({
  entryPoints: ['native-host/loop-hook.ts'],
  outfile: hookfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  logLevel: 'warning',
});
/**
 * `npm run task`, prebuilt: the CLI starts without compiling TypeScript (scripts/task.mjs runs it, and falls back to
 * the sources through tsx when it has not been built).
 */
const taskfile = 'dist-host/run-task.mjs';
await build({
  entryPoints: ['scripts/run-task.ts'],
  outfile: taskfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
process.stderr.write(`built ${outfile}, ${hookfile} and ${taskfile}\n`);
