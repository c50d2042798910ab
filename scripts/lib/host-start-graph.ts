import type { Metafile } from 'esbuild';

/**
 * The libraries the host must not load before it answers: each one costs tens to hundreds of milliseconds of Node's
 * start (measured by `npm run bench:host`), so each is loaded with `await import()` by the command that needs it.
 */
export const HEAVY_PACKAGES = [
  'exceljs',
  'mammoth',
  'jszip',
  'fast-xml-parser',
  'imapflow',
  'mailparser',
  '@googleapis/gmail',
  'google-auth-library',
  'openai',
  '@anthropic-ai/sdk',
  '@modelcontextprotocol/sdk',
  'ssh2',
  '@lydell/node-pty',
  '@nut-tree-fork/nut-js',
  'sharp',
  'uiohook-napi',
  'puppeteer-core',
  'picomatch',
] as const;

/** `@scope/name/sub/path.js` -> `@scope/name`; `name/sub` -> `name`; undefined for node: builtins and paths. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || specifier.startsWith('.') || specifier.startsWith('/')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Every npm package that `entry` (a source path as the metafile names it) loads before its first `await import()`:
 * what static `import` statements reach, with the chain of source files that reaches each, shortest first.
 */
export function staticPackages(metafile: Metafile, entry: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[entry, [entry]]]);
  const packages = new Map<string, string[]>();
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const chain = chains.get(file) ?? [file];
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.kind !== 'import-statement' && imported.kind !== 'require-call') continue;
      if (imported.external) {
        const name = packageOf(imported.path);
        if (name !== undefined && !packages.has(name)) packages.set(name, [...chain, imported.path]);
        continue;
      }
      if (chains.has(imported.path)) continue;
      chains.set(imported.path, [...chain, imported.path]);
      queue.push(imported.path);
    }
  }
  return packages;
}

/**
 * Every source file (npm packages bundled in included, as `node_modules/...` paths) that `entry` reaches through static
 * imports, with the chain that reaches each: what its bundle chunk loads before its first `await import()`.
 */
export function staticInputs(metafile: Metafile, entry: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const chain = chains.get(file) ?? [file];
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.external || (imported.kind !== 'import-statement' && imported.kind !== 'require-call')) continue;
      if (chains.has(imported.path)) continue;
      chains.set(imported.path, [...chain, imported.path]);
      queue.push(imported.path);
    }
  }
  return chains;
}
