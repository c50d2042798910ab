import { describe, expect, it } from 'vitest';
import { RoutineScheduler, SCHEDULE_ALARM } from '../../../../../extension/background/routines/routine-scheduler';
import { RoutineStore } from '../../../../../extension/background/routines/routine-store';
import { ScheduleNotices } from '../../../../../extension/background/routines/schedule-notices';
import type { TaskRecord } from '../../../../../shared/protocol';
import type { Routine } from '../../../../../shared/routines/routine';
import { memoryStore } from '../support/memory-store';

const routine: Routine = {
  format: 'deputy-routine',
  version: 1,
  name: 'Order paper',
  sites: ['http://shop.test'],
  task: 'Order paper',
  startUrl: 'http://shop.test/store',
  params: [],
  steps: [{ tool: 'click', args: {}, target: { role: 'button', name: 'Order', nth: 0, of: 1 }, url: 'http://shop.test/store', text: 'click Order' }],
  createdAt: 1,
};

async function setup() {
  const store = memoryStore();
  const routines = new RoutineStore(store);
  await routines.put({ id: 'r1', routine, edited: false, savedAt: 1 });
  const shown: { id: string; message: string }[] = [];
  const clock = { now: Date.UTC(2027, 3, 1, 6, 0) };
  const notices = new ScheduleNotices({ store, show: (n) => (shown.push(n), Promise.resolve()), now: () => clock.now });
  let ids = 0;
  let tasks = 0;
  const scheduler = new RoutineScheduler({
    store,
    routines,
    settings: () => Promise.resolve({ personalData: {}, redactEmails: false, redactPhones: false }),
    runRoutine: () => Promise.resolve({ id: `t${(tasks += 1)}` } as TaskRecord),
    runTask: () => Promise.reject(new Error('not in this test')),
    openTab: () => Promise.resolve(7),
    setAlarm: () => Promise.resolve(),
    clearAlarm: () => Promise.resolve(),
    alarmNames: () => Promise.resolve([]),
    notify: (n) => notices.notify(n),
    notices: () => notices.list(),
    now: () => clock.now,
    newId: () => `s${(ids += 1)}`,
  });
  return { store, scheduler, notices, shown, clock };
}

const scheduled = (id: string, patch: Partial<TaskRecord>): TaskRecord => ({ id, text: 'Replay "Order paper"', schedule: { id: 's1', costCapUsd: 0.5 }, status: 'running', approval: null, ...patch }) as TaskRecord;

describe('the due runs the host asks for', () => {
  it('starts each due run once, and says a run its missed alarm had already started, so the host follows it', async () => {
    const { scheduler, clock } = await setup();
    const a = await scheduler.add({ routineId: 'r1', every: 'daily', time: '07:30' });
    const b = await scheduler.add({ routineId: 'r1', every: 'daily', time: '08:00' });
    clock.now = (b.nextAt ?? 0) + 60_000;
    // The browser started and rang a's missed alarm before the host's call came.
    await scheduler.ring(`${SCHEDULE_ALARM}${a.id}`);
    const ran = await scheduler.runDue([{ id: a.id }, { id: b.id }]);
    expect(ran).toEqual([
      { id: b.id, label: 'Routine "Order paper"', taskId: 't2', error: null },
      { id: a.id, label: 'Routine "Order paper"', taskId: 't1', error: null },
    ]);
    // A second call finds nothing due, and a run the host already knew of (its last task) is not said again.
    expect(await scheduler.runDue([{ id: a.id, lastTaskId: 't1' }, { id: b.id, lastTaskId: 't2' }])).toEqual([]);
  });

  it('says a schedule the host knew that the extension no longer has', async () => {
    const { scheduler } = await setup();
    expect(await scheduler.runDue([{ id: 'gone' }])).toEqual([{ id: 'gone', label: 'gone', taskId: null, error: 'That schedule is no longer set in the extension.' }]);
  });
});

describe('the notice of a scheduled run', () => {
  it('says which approval a stopped run waited for, once, and keeps it until the user has seen it', async () => {
    const { scheduler, notices, shown } = await setup();
    scheduler.taskUpdated(scheduled('t1', { status: 'awaiting_approval', approval: { intent: 'Click [3] button "Place order"' } as TaskRecord['approval'] }));
    scheduler.taskUpdated(scheduled('t1', { status: 'stopped', agent: { endReason: 'Stopped by the user.' } as TaskRecord['agent'] }));
    // An ended task that changes again (its files let go) is not told again.
    scheduler.taskUpdated(scheduled('t1', { status: 'stopped' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const kept = await notices.list();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ id: 'schedule-run:t1', title: 'Deputy: scheduled run stopped', seen: false });
    expect(kept[0]?.message).toMatch(/needed your approval of "Click \[3\] button "Place order"" and nobody was at the browser, so it was stopped there, not approved/);
    expect(shown).toHaveLength(1);
    // The browser starts again: what was not seen is shown again; once seen, it is not.
    await notices.showUnseen();
    expect(shown.map((n) => n.id)).toEqual(['schedule-run:t1', 'schedule-run:t1']);
    await notices.seen('schedule-run:t1');
    await notices.seen('not-a-schedule-notice');
    await notices.showUnseen();
    expect(shown).toHaveLength(2);
  });

  it('keeps the newest 50, one per id', async () => {
    const { notices } = await setup();
    for (let i = 0; i < 60; i += 1) await notices.notify({ id: `n${i % 55}`, title: 't', message: `m${i}` });
    const kept = await notices.list();
    expect(kept).toHaveLength(50);
    expect(new Set(kept.map((n) => n.id)).size).toBe(50);
    expect(kept.at(-1)).toMatchObject({ id: 'n4', message: 'm59' });
  });
});
