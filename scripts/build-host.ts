import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';
import { NODE_BUNDLE, NODE_SHEBANG } from './lib/node-bundle';

/** One Node bundle for Node 20; npm packages stay external (load from node_modules) unless `inline` is set. */
function bundle(entry: string, outfile: string, options: { inline?: boolean; banner?: string } = {}): Promise<unknown> {
  return build({
    ...NODE_BUNDLE,
    entryPoints: [entry],
    outfile,
    ...(options.inline ? { minify: true } : { packages: 'external', sourcemap: 'linked' }),
    ...(options.banner ? { banner: { js: options.banner } } : {}),
  });
}

/** The native host and CLI: dist-host/deputy.mjs. */
const outfile = 'dist-host/deputy.mjs';
await bundle('native-host/index.ts', outfile, { banner: NODE_SHEBANG });
await chmod(outfile, 0o755);

/**
 * The fix loop's guard hook, which Claude Code starts for every writing tool call: one self-contained file with its
 * few dependencies inlined, so each call costs a Node start and nothing more.
 */
const hookfile = 'dist-host/loop-hook.mjs';
await bundle('native-host/loop-hook.ts', hookfile, { inline: true });

/**
 * `npm run task`, prebuilt: the CLI starts without compiling TypeScript (scripts/task.mjs runs it, and falls back to
 * the sources through tsx when it has not been built).
 */
const taskfile = 'dist-host/run-task.mjs';
await bundle('scripts/run-task.ts', taskfile);
process.stderr.write(`built ${outfile}, ${hookfile} and ${taskfile}\n`);
