import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { schedulesHandlers } from '../../../../native-host/schedules/schedules-handlers';
import { readSchedulesFile } from '../../../../native-host/schedules/schedules-file';
import type { HostSchedule } from '../../../../shared/routines/host-schedules';

const schedule = (id: string, nextAt: number | null): HostSchedule => ({ id, routineId: 'r1', label: `Routine ${id}`, every: 'daily', time: '07:30', costCapUsd: 0.5, runsPerDay: 1, nextAt, runs: { day: '', count: 0 }, createdAt: 1 });

let dir = '';
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'schedules-sync-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('schedules.sync', () => {
  it('keeps the newest copy: one read before the file was written (a sync that crossed run-due) is dropped', async () => {
    const file = join(dir, 'schedules.json');
    const sync = schedulesHandlers({ file, now: () => 500 })['schedules.sync'];
    expect(await sync({ schedules: [schedule('a', 100)], at: 200 }, {} as never)).toEqual({ file, kept: true });
    expect(await sync({ schedules: [schedule('a', null)], at: 300 }, {} as never)).toEqual({ file, kept: true });
    // The browser's connect read the list at 250, before the run at 300 moved it on: its copy is older and dropped.
    expect(await sync({ schedules: [schedule('a', 100)], at: 250 }, {} as never)).toEqual({ file, kept: false });
    expect(await readSchedulesFile(file)).toEqual({ version: 1, syncedAt: 300, schedules: [schedule('a', null)] });
  });

  it('keeps the newest of syncs that arrive together (one per schedule set in a row): none is written over by an older one', async () => {
    const file = join(dir, 'schedules.json');
    const sync = schedulesHandlers({ file, now: () => 500 })['schedules.sync'];
    // The extension sends one sync per change, in order: each copy holds one schedule more than the one before.
    const ids = Array.from({ length: 200 }, (_, i) => `s${i}`);
    const replies = await Promise.all(ids.map(async (_, i) => sync({ schedules: ids.slice(0, i + 1).map((id) => schedule(id, 100)), at: 1000 + i }, {} as never)));
    expect(replies.every((r) => r.kept)).toBe(true);
    expect(await readSchedulesFile(file)).toMatchObject({ syncedAt: 1199, schedules: ids.map((id) => schedule(id, 100)) });
  });

  it('moves a file that is not one Deputy wrote aside (nothing lost) and writes the extension\'s schedules', async () => {
    const file = join(dir, 'schedules.json');
    await writeFile(file, '{"version": 1, "schedules": [');
    await schedulesHandlers({ file, now: () => 700 })['schedules.sync']({ schedules: [schedule('b', 900)], at: 600 }, {} as never);
    expect((await readSchedulesFile(file)).schedules.map((s) => s.id)).toEqual(['b']);
    expect(await readFile(join(dir, 'schedules.json.bad-700'), 'utf8')).toBe('{"version": 1, "schedules": [');
    expect((await readdir(dir)).sort()).toEqual(['schedules.json', 'schedules.json.bad-700']);
  });
});
