import type { BuildOptions } from 'esbuild';

/** How every Node script of the project is bundled (the host, the CLI runners, test fixtures): one ESM file for Node 20. */
export const NODE_BUNDLE = { bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' } as const satisfies BuildOptions;

/** The first line of a bundle started by name, as a CLI is. */
export const NODE_SHEBANG = '#!/usr/bin/env node';
