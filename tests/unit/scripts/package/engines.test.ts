import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_NODE_ENGINES } from '../../../../scripts/package/host-package';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
type Version = [number, number, number];

/** npm's range grammar as package-lock.json's engines use it: `||` of space-separated comparators, ^, ~, bare majors. */
function satisfies(version: Version, range: string): boolean {
  const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  const parse = (text: string): { at: Version; parts: number } => {
    const parts = text.replace(/^v/, '').split('.').filter((part) => part !== '' && part !== 'x' && part !== '*');
    const [major = 0, minor = 0, patch = 0] = parts.map(Number);
    return { at: [major, minor, patch], parts: parts.length };
  };
  const comparator = (text: string): boolean => {
    if (text === '*' || text === 'x') return true;
    const match = /^(\^|~|>=|<=|>|<|=)?\s*(.*)$/.exec(text.trim());
    const operator = match?.[1] ?? '';
    const { at, parts } = parse(match?.[2] ?? '');
    const c = compare(version, at);
    if (operator === '>=') return c >= 0;
    if (operator === '>') return c > 0;
    if (operator === '<=') return c <= 0;
    if (operator === '<') return c < 0;
    if (operator === '^') return c >= 0 && (at[0] > 0 ? version[0] === at[0] : version[0] === 0 && version[1] === at[1]);
    if (operator === '~') return c >= 0 && version[0] === at[0] && (parts < 2 || version[1] === at[1]);
    // A bare or `=` version: a partial one (20, 20.19) is that whole line.
    return version[0] === at[0] && (parts < 2 || version[1] === at[1]) && (parts < 3 || version[2] === at[2]);
  };
  // `>= 8` is one comparator: the operator binds to the version after it.
  return range.replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split('||').some((alternative) => alternative.trim().split(/\s+/).filter(Boolean).every(comparator));
}

/** Every Node release line's minors (with their first and a late patch), 18 to 26: the versions a user may have. */
const NODE_VERSIONS: Version[] = Array.from({ length: 9 }, (_, index) => 18 + index).flatMap((major) =>
  Array.from({ length: 25 }, (_, minor) => [[major, minor, 0] as Version, [major, minor, 9] as Version]).flat(),
);

interface LockEntry {
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
}
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };

/** The Node ranges of the locked packages that `npm ci` (or a global install of the host) checks on this platform. */
function nodeRanges(filter: (entry: LockEntry) => boolean): [string, string][] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    const range = entry.engines !== undefined && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
    // Optional packages are per-platform binaries: npm skips the ones that do not fit, silently.
    return path !== '' && range !== undefined && entry.optional !== true && filter(entry) ? [[path, range] as [string, string]] : [];
  });
}

const show = (version: Version): string => version.join('.');

describe("package.json's engines are what the dependencies need (npm ci prints no engine warning)", () => {
  it('the range npm checks works for the matrix self-test', () => {
    expect(satisfies([20, 19, 0], '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies([22, 11, 0], '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies([21, 0, 0], '18 || 20 || >=22')).toBe(false);
    expect(satisfies([22, 0, 0], '^22 || ^24 || >=26')).toBe(true);
    expect(satisfies([20, 20, 2], '^22 || ^24 || >=26')).toBe(false);
    expect(satisfies([20, 0, 0], '>= 0.8')).toBe(true);
    expect(satisfies([19, 0, 0], '*')).toBe(true);
  });

  it('the repository: every Node it admits runs every locked package, and it admits every Node they all run on', () => {
    const ranges = nodeRanges(() => true);
    const refused = NODE_VERSIONS.filter((version) => satisfies(version, pkg.engines.node)).flatMap((version) =>
      ranges.filter(([, range]) => !satisfies(version, range)).map(([path, range]) => `${show(version)}: ${path} wants ${range}`),
    );
    expect(refused).toEqual([]);
    const needless = NODE_VERSIONS.filter((version) => !satisfies(version, pkg.engines.node) && ranges.every(([, range]) => satisfies(version, range)));
    expect(needless.map(show)).toEqual([]);
    // The README's promise.
    expect(satisfies([20, 19, 0], pkg.engines.node)).toBe(true);
  });

  it("the host's npm package: the same for the packages it runs (the build and test tools left out)", () => {
    const ranges = nodeRanges((entry) => entry.dev !== true);
    const admitted = NODE_VERSIONS.filter((version) => satisfies(version, HOST_NODE_ENGINES));
    expect(admitted.flatMap((version) => ranges.filter(([, range]) => !satisfies(version, range)).map(([path]) => `${show(version)}: ${path}`))).toEqual([]);
    expect(NODE_VERSIONS.filter((version) => !satisfies(version, HOST_NODE_ENGINES) && ranges.every(([, range]) => satisfies(version, range))).map(show)).toEqual([]);
  });
});
