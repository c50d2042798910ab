import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { staticInputs, staticPackages } from '../../../../scripts/lib/host-start-graph';
import { TASK_ENTRY, isTaskCliFile, taskBundle } from '../../../../scripts/lib/task-bundle';

/**
 * `npm run task` starts from dist-host/run-task.mjs, bundled as build:host bundles it: before its model check it must
 * read no package from node_modules (each was hundreds of small files: zod alone a third of a second of every start
 * on a busy machine), and puppeteer-core, bundled too, is read only where the browser is launched, from a chunk.
 */
const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const here = mkdtempSync(join(tmpdir(), 'deputy-task-bundle-'));
afterAll(() => rmSync(here, { recursive: true, force: true }));

describe('the prebuilt task CLI', () => {
  it('reads no package from node_modules before its first await import(), and puppeteer-core from a chunk of its own', async () => {
    const { metafile } = await build({ ...taskBundle(here, ROOT), write: false, metafile: true, logLevel: 'silent' });
    expect(Object.keys(metafile.inputs)).toContain(TASK_ENTRY);
    expect(Object.fromEntries(staticPackages(metafile, TASK_ENTRY))).toEqual({});
    // zod and commander are in the entry file itself, zod with its English messages only; puppeteer-core is not.
    const atStart = [...staticInputs(metafile, TASK_ENTRY).keys()];
    expect(atStart.some((file) => file.includes('node_modules/zod/'))).toBe(true);
    expect(atStart.some((file) => file.includes('node_modules/commander/'))).toBe(true);
    expect(atStart.filter((file) => file.includes('node_modules/puppeteer-core/'))).toEqual([]);
    expect(Object.keys(metafile.inputs).filter((file) => /node_modules\/zod\/.*locales\/(?!en\.)/.test(file))).toEqual([]);
    const outputs = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.mjs'));
    const [entry] = outputs.filter(([, output]) => output.entryPoint === TASK_ENTRY);
    expect(entry?.[0]).toMatch(/\/run-task\.mjs$/);
    // The browser library is one of the entry's dynamic imports, and a file of the CLI (the host's package leaves it out).
    const puppeteerChunk = outputs.find(([, output]) => Object.keys(output.inputs).some((file) => file.includes('node_modules/puppeteer-core/lib/esm/puppeteer/puppeteer-core.js')));
    expect(entry?.[1].imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path)).toContain(puppeteerChunk?.[0]);
    for (const [file] of outputs) expect(isTaskCliFile(file)).toBe(true);
    expect(isTaskCliFile('/pkg/dist-host/chunks/wired-host-ABC123.mjs')).toBe(false);
    expect(isTaskCliFile('/pkg/dist-host/deputy.mjs')).toBe(false);
  }, 120_000);
});
