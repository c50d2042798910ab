import { resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { NODE_BUNDLE, NODE_REQUIRE, externalPackages, zodEnglishOnly } from './node-bundle';

/** The source `npm run task` starts from, as the metafile names it. */
export const TASK_ENTRY = 'scripts/run-task.ts';

/**
 * The libraries the CLI reads before it starts the browser (zod for the protocol's schemas, commander for its flags):
 * loaded from node_modules they were hundreds of small files, a third of a second of every `npm run task` before the
 * model check; bundled into run-task.mjs (zod with its English messages only) they are one read. Every other
 * dependency (puppeteer-core above all) stays in node_modules and is loaded with `await import()` where first needed.
 */
export const TASK_INLINE = ['zod', 'commander'] as const;

/** How build:host bundles the prebuilt CLI (dist-host/run-task.mjs); `root` holds the package.json to read. */
export function taskBundle(outfile: string, root = '.'): BuildOptions {
  return {
    ...NODE_BUNDLE,
    absWorkingDir: resolve(root),
    entryPoints: [TASK_ENTRY],
    outfile,
    external: externalPackages(TASK_INLINE, root),
    plugins: [zodEnglishOnly],
    // Bundled CommonJS (commander) asks for Node's built-ins through `require`.
    banner: { js: NODE_REQUIRE },
    sourcemap: 'linked',
  };
}
