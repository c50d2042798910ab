import { dirname, relative, resolve, sep } from 'node:path';

/**
 * Finds, in one source file of tests/ or scripts/, the ways it reaches the shared folder beside the checkout
 * (`../shared`) without asking scripts/lib/shared-dir.ts, and whether a test file that needs that folder skips when
 * it is absent. Used by tests/unit/shared-dir-guard.test.ts over the whole tree.
 */

/** The modules that hand out paths inside the shared folder: a test file importing one needs the folder. */
const LOCATING_MODULES = /(?:^|\/)(?:shared-dir|miniwob-harness)$/;

/** Served addresses backed by the shared folder (the perception harness mounts the corpus at /corpus/). */
const SHARED_MOUNTS = /['"`]\/corpus\//;

/** A skip whose condition is the reason the folder is missing. */
const GUARD = /\b(?:describe|it|test)\.skipIf\(\s*[^)]*\b(?:missing|\w*Missing)\b/;

export interface ScanResult {
  /** Direct references to the shared folder (a path literal or path segments), with the line they are on. */
  directPaths: string[];
  /** True when the file needs the folder (imports a locating module or opens a mount served from it). */
  needsShared: boolean;
  /** True when the file skips with the missing-folder reason. */
  guarded: boolean;
}

const IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*|\brequire\(\s*)(['"])[^'"]*\1/g;
/** Comments (skipped) or string literals (read), whichever starts first: a URL's // inside a string stays a string. */
const STRING_LITERAL = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.)*)`/g;
const SEGMENTS = /((?:['"]\.\.['"]\s*,\s*)+)['"]shared['"]/g;

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir + sep);
}

/**
 * Scans `text`, the content of `file` (a path relative to `root`, the checkout). `sharedDir` is the shared folder's
 * absolute path (root/../shared).
 */
export function scanForSharedDir(root: string, file: string, text: string): ScanResult {
  const sharedDir = resolve(root, '..', 'shared');
  const fileDir = dirname(resolve(root, file));
  // Import specifiers are module paths: '../../shared/protocol' is the project's own shared/ folder.
  const body = text.replace(IMPORT_SPECIFIER, (match) => match.replace(/(['"])[^'"]*\1/, "''"));
  const directPaths: string[] = [];
  for (const match of body.matchAll(STRING_LITERAL)) {
    const value = match[1] ?? match[2] ?? match[3];
    if (value === undefined || !value.includes('shared')) continue;
    const candidates = value.startsWith('/') ? [value] : value.startsWith('.') ? [resolve(fileDir, value), resolve(root, value)] : [];
    if (candidates.some((path) => isInside(path, sharedDir) && !isInside(path, root))) {
      directPaths.push(`line ${lineAt(body, match.index)}: ${match[0]}`);
    }
  }
  const code = body.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  for (const match of code.matchAll(SEGMENTS)) {
    const ups = (match[1] ?? '').split(',').filter((part) => part.includes('..')).length;
    const fromFile = relative(root, fileDir).split(sep).filter(Boolean).length + 1;
    // Counted from the file's folder (import.meta.dirname) or from the checkout (the working directory).
    if (ups === fromFile || ups === 1) directPaths.push(`line ${lineAt(code, match.index)}: ${match[0]}`);
  }
  const importsLocator = [...text.matchAll(/\bfrom\s*(['"])([^'"]+)\1/g)].some((match) => LOCATING_MODULES.test((match[2] ?? '').replace(/\.[cm]?[jt]s$/, '')));
  return { directPaths, needsShared: importsLocator || SHARED_MOUNTS.test(body), guarded: GUARD.test(text) };
}
