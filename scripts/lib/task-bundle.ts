import { basename, resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { NODE_BUNDLE, NODE_REQUIRE, externalPackages, zodEnglishOnly } from './node-bundle';

/** The source `npm run task` starts from, as the metafile names it. */
export const TASK_ENTRY = 'scripts/run-task.ts';

/**
 * The libraries the CLI reads before the first model request. zod (the protocol's schemas) and commander (its flags)
 * are read at start; puppeteer-core where the browser is launched, as a chunk of its own loaded by `await import()`.
 * From node_modules they were hundreds of small files each: zod a third of a second of every start on a busy machine,
 * puppeteer-core about 0.6 s of CPU before the browser could start (0.25 s bundled). zod keeps its English messages only.
 * Every other dependency stays in node_modules.
 */
export const TASK_INLINE = ['zod', 'commander', 'puppeteer-core'] as const;

/** The CLI's chunks share dist-host/chunks/ with the host's; this prefix tells them apart (the host's package leaves them out). */
const TASK_CHUNK_PREFIX = 'task-cli-';

/**
 * How build:host bundles the prebuilt CLI: `<outdir>/run-task.mjs` and its chunks in `<outdir>/chunks/`; `root` holds
 * the package.json to read.
 */
export function taskBundle(outdir: string, root = '.'): BuildOptions {
  return {
    ...NODE_BUNDLE,
    absWorkingDir: resolve(root),
    entryPoints: { 'run-task': TASK_ENTRY },
    outdir,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: `chunks/${TASK_CHUNK_PREFIX}[name]-[hash]`,
    external: externalPackages(TASK_INLINE, root),
    plugins: [zodEnglishOnly],
    // Bundled CommonJS (commander, puppeteer's ws and debug) asks for Node's built-ins through `require`, in every file.
    banner: { js: NODE_REQUIRE },
    sourcemap: 'linked',
  };
}

/** Whether a file of dist-host/ belongs to the task CLI (the entry or one of its chunks), not to the host. */
export function isTaskCliFile(path: string): boolean {
  const name = basename(path);
  return name === 'run-task.mjs' || (basename(resolve(path, '..')) === 'chunks' && name.startsWith(TASK_CHUNK_PREFIX));
}
