import { mkdtemp, mkdir, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publishBuild, removeStaleStaging } from '../../../../scripts/lib/publish-build';

const DAY = 24 * 3600_000;
let root: string;

/** A build like esbuild's: an entry that lazily imports a content-named chunk which says which build it came from. */
async function writeBuild(folder: string, build: string): Promise<void> {
  await mkdir(join(folder, 'chunks'), { recursive: true });
  await writeFile(join(folder, 'chunks', `part-${build}.mjs`), `export const build = ${JSON.stringify(build)};\n`);
  await writeFile(
    join(folder, 'entry.mjs'),
    `export const load = () => import('./chunks/part-${build}.mjs').then((m) => m.build);\n`,
  );
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'publish-build-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('publishBuild', () => {
  it('moves a build in, keeps the chunks a running host of the previous build still loads, and removes the staging', async () => {
    const target = join(root, 'dist');
    await writeBuild(join(root, 'stage-1'), 'one');
    await publishBuild({ staging: join(root, 'stage-1'), target, chunksDir: 'chunks', keepUnusedMs: DAY });
    // A host started from build one (its entry is loaded, its chunk is not yet).
    const running = (await import(`${pathToFileURL(join(target, 'entry.mjs')).href}?one`)) as { load(): Promise<string> };

    await writeBuild(join(root, 'stage-2'), 'two');
    const result = await publishBuild({ staging: join(root, 'stage-2'), target, chunksDir: 'chunks', keepUnusedMs: DAY });
    expect(result.pruned).toEqual([]);
    expect(await running.load()).toBe('one');
    const fresh = (await import(`${pathToFileURL(join(target, 'entry.mjs')).href}?two`)) as { load(): Promise<string> };
    expect(await fresh.load()).toBe('two');
    expect(existsSync(join(root, 'stage-2'))).toBe(false);
  });

  it('removes chunks no build uses once they are older than the grace period, never the ones in use', async () => {
    const target = join(root, 'dist');
    await writeBuild(join(root, 'stage-1'), 'one');
    await publishBuild({ staging: join(root, 'stage-1'), target, chunksDir: 'chunks', keepUnusedMs: DAY });
    const old = new Date(Date.now() - 2 * DAY);
    await utimes(join(target, 'chunks', 'part-one.mjs'), old, old);
    await writeBuild(join(root, 'stage-2'), 'two');
    const result = await publishBuild({ staging: join(root, 'stage-2'), target, chunksDir: 'chunks', keepUnusedMs: DAY });
    expect(result.pruned).toEqual([join('chunks', 'part-one.mjs')]);
    expect(await readdir(join(target, 'chunks'))).toEqual(['part-two.mjs']);
    expect(await readFile(join(target, 'entry.mjs'), 'utf8')).toContain('part-two.mjs');
  });

  it('an interrupted build (staging never published) leaves the running build whole; the next build clears it', async () => {
    const target = join(root, 'dist');
    await writeBuild(join(root, '.staging-1'), 'one');
    await publishBuild({ staging: join(root, '.staging-1'), target, chunksDir: 'chunks', keepUnusedMs: DAY });
    // Build two stopped half-way: its chunk written, its entry not.
    await mkdir(join(root, '.staging-2', 'chunks'), { recursive: true });
    await writeFile(join(root, '.staging-2', 'chunks', 'part-two.mjs'), 'export const build = "tw');
    expect(await readdir(join(target, 'chunks'))).toEqual(['part-one.mjs']);
    const entry = (await import(pathToFileURL(join(target, 'entry.mjs')).href)) as { load(): Promise<string> };
    expect(await entry.load()).toBe('one');
    await removeStaleStaging(root, '.staging-');
    expect((await readdir(root)).sort()).toEqual(['dist']);
  });
});
