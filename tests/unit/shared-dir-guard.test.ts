import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanForSharedDir } from '../support/shared-dir-scan';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** The one module that knows where the shared folder is. */
const LOCATOR = 'scripts/lib/shared-dir.ts';
/** The scan and this test hold sample paths on purpose. */
const SCANNER = ['tests/support/shared-dir-scan.ts', 'tests/unit/shared-dir-guard.test.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(?:[cm]?[jt]s|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const scan = (file: string, text: string) => scanForSharedDir(ROOT, file, text);

describe('the scan for reads of the shared folder beside the checkout', () => {
  it('finds direct paths to it, counted from the file or from the checkout, and not the project\'s own shared/', () => {
    expect(scan('tests/e2e/a.test.ts', "const c = resolve('../shared/corpus/pages');").directPaths).toHaveLength(1);
    expect(scan('tests/e2e/a.test.ts', 'const c = join(import.meta.dirname, "../../../shared/miniwob");').directPaths).toHaveLength(1);
    expect(scan('scripts/lib/a.ts', "const d = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'miniwob');").directPaths).toHaveLength(1);
    expect(scan('scripts/a.ts', "const d = join('..', 'shared');").directPaths).toHaveLength(1);
    expect(scanForSharedDir('/work/wt', 'tests/a.ts', 'const d = `/work/shared/office-corpus`;').directPaths).toHaveLength(1);
    expect(scanForSharedDir('/home/me/deputy', 'tests/a.ts', "const d = '/work/shared/office-corpus';").directPaths).toHaveLength(0);
    expect(scan('tests/e2e/a.test.ts', "// Pages from '../shared/corpus', served as corpus.test\nconst url = 'http://shop.test/shared';").directPaths).toEqual([]);
    expect(scan('tests/e2e/a.test.ts', "import type { TaskRecord } from '../../shared/protocol';\nconst x = await import('../../shared/errors');").directPaths).toEqual([]);
    expect(scan('tests/unit/shared/a.test.ts', "const file = resolve(import.meta.dirname, '../../../shared/agent/trace.ts');").directPaths).toEqual([]);
  });

  it('knows a test needs the folder when it imports a module that locates it or opens a page served from it', () => {
    expect(scan('tests/e2e/a.test.ts', "import { needShared } from '../support/shared-dir';").needsShared).toBe(true);
    expect(scan('tests/e2e/a.test.ts', "import { serveMiniwob } from '../../scripts/lib/miniwob-harness';").needsShared).toBe(true);
    expect(scan('tests/e2e/a.test.ts', "await h.open(`/corpus/${name}/index.html`);").needsShared).toBe(true);
    expect(scan('tests/e2e/a.test.ts', "await h.open('/todomvc/index.html');").needsShared).toBe(false);
  });

  it('counts only a skip on the missing-folder reason as a guard', () => {
    expect(scan('a.test.ts', "describe.skipIf(corpus.missing !== null)(corpus.title('x'), () => {});").guarded).toBe(true);
    expect(scan('a.test.ts', "it.skipIf(miniwobMissing() !== null)('x', () => {});").guarded).toBe(true);
    expect(scan('a.test.ts', "describe.skipIf(process.platform === 'win32')('x', () => {});").guarded).toBe(false);
    expect(scan('a.test.ts', "describe('x', () => {});").guarded).toBe(false);
  });
});

describe('every read of the shared folder beside the checkout', () => {
  const files = [...sourceFiles('tests'), ...sourceFiles('scripts')].filter((file) => !SCANNER.includes(file));

  it('goes through scripts/lib/shared-dir.ts, the one module that knows where it is', () => {
    expect(files.length).toBeGreaterThan(100);
    const direct = files
      .filter((file) => file !== LOCATOR)
      .flatMap((file) => scan(file, readFileSync(join(ROOT, file), 'utf8')).directPaths.map((where) => `${file} ${where}`));
    expect(direct, 'ask scripts/lib/shared-dir.ts (or tests/support/shared-dir.ts needShared) for the path instead').toEqual([]);
    expect(scan(LOCATOR, readFileSync(join(ROOT, LOCATOR), 'utf8')).directPaths).toHaveLength(1);
  });

  it('is skipped, with the missing folder named, in every test file that needs it', () => {
    const needing = files.filter((file) => /\.test\.tsx?$/.test(file)).filter((file) => scan(file, readFileSync(join(ROOT, file), 'utf8')).needsShared);
    // The corpus, MiniWoB++ and eval files at least: a scan that finds none has stopped seeing them.
    expect(needing.map((file) => relative('tests/e2e', file))).toEqual(expect.arrayContaining(['chat-corpus.test.ts', 'perception-corpus.test.ts', 'miniwob.test.ts']));
    const unguarded = needing.filter((file) => !scan(file, readFileSync(join(ROOT, file), 'utf8')).guarded);
    expect(unguarded, 'wrap the tests in describe.skipIf(need.missing !== null)(need.title(...)) with need = needShared(...)').toEqual([]);
  });
});
