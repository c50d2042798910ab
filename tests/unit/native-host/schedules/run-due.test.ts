import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/protocol';
import type { RoutineSchedule } from '../../../../shared/routines/routine-schedule';
import { runDue, type ScheduleBrowser } from '../../../../native-host/schedules/run-due';
import { writeSchedulesFile } from '../../../../native-host/schedules/schedules-file';

const NOW = Date.UTC(2027, 3, 1, 9, 0);
const schedule = (id: string, nextAt: number | null): RoutineSchedule => ({ id, routineId: 'r1', label: `Routine ${id}`, params: {}, every: 'daily', time: '07:30', costCapUsd: 0.5, runsPerDay: 1, nextAt, runs: { day: '', count: 0 }, createdAt: 1 });

let dir = '';
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'run-due-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

function fakeBrowser(extension: RoutineSchedule[], status: (taskId: string) => Partial<TaskRecord>) {
  const calls: string[] = [];
  let opened = 0;
  const browser: ScheduleBrowser = {
    call: ((method: string, params: { taskId?: string }) => {
      calls.push(method);
      if (method === 'routine.runDue') {
        const due = extension.filter((s) => s.nextAt !== null && s.nextAt <= NOW);
        for (const s of due) s.nextAt = NOW + 86_400_000;
        return Promise.resolve({ ran: due.map((s) => ({ id: s.id, label: s.label, taskId: `t-${s.id}`, error: null })), schedules: extension });
      }
      if (method === 'routine.notices') return Promise.resolve(extension.map((s) => ({ id: `schedule-run:t-${s.id}`, title: 'Deputy: scheduled run completed', message: s.label, at: NOW, seen: false })));
      if (method === 'task.get') return { id: params.taskId, approval: null, question: null, ...status(params.taskId ?? '') };
      return Promise.resolve(null);
    }) as ScheduleBrowser['call'],
    close: () => Promise.resolve(),
  };
  return { calls, opened: () => opened, open: () => ((opened += 1), Promise.resolve(browser)) };
}

const deps = (file: string, open: () => Promise<ScheduleBrowser>, said: string[]) => ({
  file, lockFile: `${file}.lock`, now: () => NOW, openBrowser: open, say: (l: string) => void said.push(l), sleep: () => Promise.resolve(), pidAlive: () => true, pid: 4242,
});

describe('deputy schedules run-due', () => {
  it('runs a missed run once, leaves a future one alone, and a second call finds nothing due', async () => {
    const file = join(dir, 'schedules.json');
    const extension = [schedule('missed', NOW - 3 * 86_400_000), schedule('later', NOW + 3_600_000)];
    await writeSchedulesFile(file, extension, NOW);
    const fake = fakeBrowser(extension, () => ({ status: 'completed', agent: { outcome: { success: true } } } as Partial<TaskRecord>));
    const said: string[] = [];
    const first = await runDue(deps(file, fake.open, said));
    expect(first.outcomes.map((o) => [o.id, o.outcome])).toEqual([['missed', 'completed']]);
    expect(first.exitCode).toBe(0);
    const second = await runDue(deps(file, fake.open, said));
    expect(second.outcomes).toEqual([]);
    expect(fake.opened()).toBe(1);
    expect(said.at(-1)).toMatch(/^Nothing is due\. Next: Routine later/);
  });

  it('a run waiting for approval is stopped, never approved, and said', async () => {
    const file = join(dir, 'schedules.json');
    const extension = [schedule('pay', NOW - 1000)];
    await writeSchedulesFile(file, extension, NOW);
    const fake = fakeBrowser(extension, () => ({ status: 'awaiting_approval', approval: { intent: 'Place order' } } as Partial<TaskRecord>));
    const result = await runDue(deps(file, fake.open, []));
    expect(result.outcomes[0]?.outcome).toMatch(/waits for your approval of "Place order".*stopped, not approved/);
    expect(fake.calls).toContain('task.stop');
    expect(fake.calls).not.toContain('task.approve');
    expect(result.exitCode).toBe(1);
  });

  it('a bad schedules file is a clear error, and the file is left as it was', async () => {
    const file = join(dir, 'schedules.json');
    await writeFile(file, '{"version":1,"schedules":[{"id":3}]');
    const fake = fakeBrowser([], () => ({}));
    await expect(runDue(deps(file, fake.open, []))).rejects.toThrow(/schedules file .* is not one Deputy wrote.*left as it is/);
    expect(await readFile(file, 'utf8')).toBe('{"version":1,"schedules":[{"id":3}]');
    expect(fake.opened()).toBe(0);
  });

  it('does nothing while another run-due holds the lock', async () => {
    const file = join(dir, 'schedules.json');
    await writeSchedulesFile(file, [schedule('a', NOW - 1)], NOW);
    await writeFile(`${file}.lock`, '999');
    const fake = fakeBrowser([schedule('a', NOW - 1)], () => ({}));
    const said: string[] = [];
    expect((await runDue(deps(file, fake.open, said))).outcomes).toEqual([]);
    expect(fake.opened()).toBe(0);
    expect(said.join('\n')).toMatch(/Another run-due \(pid 999\)/);
  });

  it('--only: an id the file does not hold is a clear error naming the ones it does; a known one runs alone', async () => {
    const file = join(dir, 'schedules.json');
    const extension = [schedule('a', NOW - 1), schedule('b', NOW - 1)];
    await writeSchedulesFile(file, extension, NOW);
    const fake = fakeBrowser(extension, () => ({ status: 'completed', agent: { outcome: { success: true } } } as Partial<TaskRecord>));
    await expect(runDue({ ...deps(file, fake.open, []), only: 'zzz' })).rejects.toThrow(/No schedule zzz in .*its schedules are a \(Routine a\), b \(Routine b\)\. Run deputy schedules list/);
    expect(fake.opened()).toBe(0);
    const only = await runDue({ ...deps(file, fake.open, []), only: 'b' });
    expect(only.outcomes.map((o) => o.id)).toEqual(['b']);
  });

  it('a browser that closes without keeping a run\'s notice in time is said, and the result stays in History', async () => {
    const file = join(dir, 'schedules.json');
    const extension = [schedule('a', NOW - 1)];
    await writeSchedulesFile(file, extension, NOW);
    const fake = fakeBrowser(extension, () => ({ status: 'completed', agent: { outcome: { success: true } } } as Partial<TaskRecord>));
    const browser = await fake.open();
    const silent: typeof browser = { ...browser, call: ((method: string, params: never) => (method === 'routine.notices' ? Promise.resolve([]) : browser.call(method as 'task.get', params))) as typeof browser.call };
    let clock = NOW;
    const said: string[] = [];
    const result = await runDue({ ...deps(file, () => Promise.resolve(silent), said), now: () => (clock += 1000) });
    expect(result.outcomes.map((o) => o.outcome)).toEqual(['completed']);
    expect(said.join('\n')).toMatch(/notice of task t-a was not kept in time: its result is in History/);
  });
});
