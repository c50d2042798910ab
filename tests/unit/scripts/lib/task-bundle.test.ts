import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { staticInputs, staticPackages } from '../../../../scripts/lib/host-start-graph';
import { TASK_ENTRY, taskBundle } from '../../../../scripts/lib/task-bundle';

/**
 * `npm run task` starts from dist-host/run-task.mjs, bundled as build:host bundles it: before its model check and the
 * browser's launch it must read no package from node_modules (each was hundreds of small files: zod alone was a third
 * of a second of every start on a busy machine), and puppeteer-core is loaded only where the browser is launched.
 */
const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const here = mkdtempSync(join(tmpdir(), 'deputy-task-bundle-'));
afterAll(() => rmSync(here, { recursive: true, force: true }));

describe('the prebuilt task CLI', () => {
  it('reads no package from node_modules before its first await import(), and puppeteer-core only through one', async () => {
    const { metafile } = await build({ ...taskBundle(join(here, 'run-task.mjs'), ROOT), write: false, metafile: true, logLevel: 'silent' });
    expect(Object.keys(metafile.inputs)).toContain(TASK_ENTRY);
    expect(Object.fromEntries(staticPackages(metafile, TASK_ENTRY))).toEqual({});
    // zod and commander are in the bundle itself, zod with its English messages only.
    const bundled = [...staticInputs(metafile, TASK_ENTRY).keys()];
    expect(bundled.some((file) => file.includes('node_modules/zod/'))).toBe(true);
    expect(bundled.some((file) => file.includes('node_modules/commander/'))).toBe(true);
    expect(Object.keys(metafile.inputs).filter((file) => /node_modules\/zod\/.*locales\/(?!en\.)/.test(file))).toEqual([]);
    const dynamic = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external && i.kind === 'dynamic-import').map((i) => i.path));
    expect(dynamic).toContain('puppeteer-core');
  }, 60_000);
});
