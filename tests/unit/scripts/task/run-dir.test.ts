import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newRunDir } from '../../../../scripts/task/run-dir';

const root = await mkdtemp(join(tmpdir(), 'deputy-run-dir-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the folder a task run saves its trace in', () => {
  it('is a new one for each of several runs that end in the same millisecond', async () => {
    const parent = join(root, 'runs');
    const stamp = '2026-11-29T13-18-22-123Z';
    const dirs = await Promise.all(Array.from({ length: 5 }, () => newRunDir(parent, stamp)));
    expect(new Set(dirs).size).toBe(5);
    expect((await readdir(parent)).sort()).toEqual([stamp, `${stamp}-2`, `${stamp}-3`, `${stamp}-4`, `${stamp}-5`]);
    await Promise.all(dirs.map((dir, index) => writeFile(join(dir, 'task.json'), String(index))));
    for (const dir of dirs) expect(await readdir(dir)).toEqual(['task.json']);
  });

  it('fails with the reason when the parent cannot be made', async () => {
    const file = join(root, 'a-file');
    await writeFile(file, '');
    await expect(newRunDir(join(file, 'runs'), 'x')).rejects.toThrow(/ENOTDIR|EEXIST/);
  });
});
