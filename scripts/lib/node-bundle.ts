import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';

/** How every Node script of the project is bundled (the host, the CLI runners, test fixtures): one ESM file for Node 20. */
export const NODE_BUNDLE = { bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' } as const satisfies BuildOptions;

/** The first line of a bundle started by name, as a CLI is. */
export const NODE_SHEBANG = '#!/usr/bin/env node';

/**
 * For CommonJS code bundled into an ES module: a `require` for the Node built-ins it asks for, which esbuild leaves
 * as calls to the enclosing scope's `require`.
 */
export const NODE_REQUIRE = "import { createRequire as __deputyCreateRequire } from 'node:module'; const require = __deputyCreateRequire(import.meta.url);";

/**
 * zod carries its messages in 50 languages (about 360 kB bundled), all reached through `z.locales`; the host speaks
 * English and never switches, so a bundle gets the English one only. Parsing the rest cost every host start.
 */
export const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir) ? { path: join(args.resolveDir, '..', 'locales'), namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({ contents: 'export { default as en } from "./en.js";', resolveDir: args.path, loader: 'js' }));
  },
};

/**
 * The project's dependencies a bundle leaves to node_modules (each with its subpaths): all of them but `inline`, which
 * are bundled into it. Development packages are never imported by what is bundled for Node.
 */
export function externalPackages(inline: readonly string[], root = '.'): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.keys(pkg.dependencies)
    .filter((name) => !inline.includes(name))
    .flatMap((name) => [name, `${name}/*`]);
}
