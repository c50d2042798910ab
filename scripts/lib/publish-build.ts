import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Moving a finished build from its staging folder into the folder hosts run from, so that an interrupted build or
 * one made while a host runs never leaves that folder empty or half-written:
 * - every file is written in full in the staging folder (same file system) and moved with rename(), which is atomic;
 * - the chunks move first: their names carry a hash of their content, so a new chunk never replaces a file a running
 *   host may still import, and the old entry file keeps working until the new one replaces it;
 * - the entry files move last, each with one rename();
 * - chunks the new build no longer uses are removed only once older than `keepUnusedMs`, because a host started from
 *   the previous build (the browser's native host lives as long as the browser) loads its chunks lazily.
 */
export interface PublishOptions {
  /** The staging folder the build wrote to (inside or beside `target`, on the same file system). */
  staging: string;
  /** The folder hosts run from. */
  target: string;
  /** Sub-folder of content-hashed chunks (moved first, old ones kept for a while). */
  chunksDir: string;
  /** How long a chunk the new build does not use is kept for hosts still running the previous build. */
  keepUnusedMs: number;
  now?: number;
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

export async function publishBuild(options: PublishOptions): Promise<{ moved: number; pruned: string[] }> {
  const { staging, target, chunksDir } = options;
  const built = await filesUnder(staging);
  const isChunk = (file: string): boolean => file.startsWith(`${chunksDir}/`) || file.startsWith(`${chunksDir}\\`);
  const ordered = [...built.filter(isChunk), ...built.filter((file) => !isChunk(file))];
  for (const file of ordered) {
    await mkdir(join(target, file, '..'), { recursive: true });
    await rename(join(staging, file), join(target, file));
  }
  const used = new Set(built.filter(isChunk));
  const pruned: string[] = [];
  const now = options.now ?? Date.now();
  for (const file of (await filesUnder(join(target, chunksDir))).map((name) => join(chunksDir, name))) {
    if (used.has(file)) continue;
    const info = await stat(join(target, file));
    if (now - info.mtimeMs < options.keepUnusedMs) continue;
    await rm(join(target, file), { force: true });
    pruned.push(file);
  }
  await rm(staging, { recursive: true, force: true });
  return { moved: ordered.length, pruned };
}

/** Staging folders left by builds that were interrupted (`prefix` + pid); removed before a new build starts. */
export async function removeStaleStaging(target: string, prefix: string): Promise<void> {
  const entries = await readdir(target).catch(() => [] as string[]);
  await Promise.all(
    entries.filter((name) => name.startsWith(prefix)).map((name) => rm(join(target, name), { recursive: true, force: true })),
  );
}
