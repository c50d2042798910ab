// @ts-check
/**
 * A lint rule that rejects import cycles among the project's own modules, type-only imports included: a cycle through
 * `import type` compiles, but it still ties two modules together so that neither can change or be tested alone.
 * (import-x/no-cycle skips type-only imports by design, which is why this small rule exists.)
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const SPECIFIER = /\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '/index.ts', '/index.tsx'];

/** @type {Map<string, { mtime: number; imports: string[] }>} */
const graph = new Map();

/** @param {string} from @param {string} specifier @returns {string | undefined} */
function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier.replace(/\.(?:m?js|jsx)$/, ''));
  for (const candidate of [base, ...EXTENSIONS.map((ext) => base + ext)]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** @param {string} file @returns {string[]} */
function importsOf(file) {
  const mtime = statSync(file).mtimeMs;
  const cached = graph.get(file);
  if (cached && cached.mtime === mtime) return cached.imports;
  const text = readFileSync(file, 'utf8');
  /** @type {string[]} */
  const imports = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const target = resolveImport(file, match[1] ?? match[2] ?? '');
    if (target && !imports.includes(target)) imports.push(target);
  }
  graph.set(file, { mtime, imports });
  return imports;
}

/** The first path of imports from `start` back to `target`, or undefined. @param {string} start @param {string} target */
function pathBack(start, target) {
  /** @type {Set<string>} */
  const seen = new Set();
  /** @type {Array<{ file: string; path: string[] }>} */
  const stack = [{ file: start, path: [start] }];
  while (stack.length > 0) {
    const next = stack.pop();
    if (!next) break;
    for (const imported of importsOf(next.file)) {
      if (imported === target) return next.path;
      if (seen.has(imported)) continue;
      seen.add(imported);
      stack.push({ file: imported, path: [...next.path, imported] });
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const noImportCycle = {
  meta: { type: 'problem', docs: { description: 'forbid import cycles, type-only imports included' }, schema: [] },
  create(context) {
    const file = context.filename;
    return {
      Program() {
        if (!existsSync(file)) return;
        for (const imported of importsOf(file)) {
          const back = pathBack(imported, file);
          if (!back) continue;
          const cycle = [file, ...back, file].map((entry) => relative(context.cwd, entry)).join(' -> ');
          context.report({ loc: { line: 1, column: 0 }, message: `Import cycle: ${cycle}. Move the shared types or code into a module that both can import.` });
          return;
        }
      },
    };
  },
};

export const cyclesPlugin = { rules: { 'no-import-cycle': noImportCycle } };

/** @type {import('eslint').Linter.Config[]} */
export const cycles = [
  {
    files: ['native-host/**/*.ts', 'shared/**/*.ts', 'extension/**/*.ts', 'extension/**/*.tsx'],
    plugins: { deputy: cyclesPlugin },
    rules: { 'deputy/no-import-cycle': 'error' },
  },
];
