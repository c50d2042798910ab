import { describe, expect, it } from 'vitest';
import { RoutineScheduler, SCHEDULE_ALARM } from '../../../../../extension/background/routines/routine-scheduler';
import { RoutineStore } from '../../../../../extension/background/routines/routine-store';
import type { TaskRecord } from '../../../../../shared/protocol';
import type { Routine } from '../../../../../shared/routines/routine';
import { memoryStore } from '../support/memory-store';

const CARD = '4111 1111 1111 1111';
const routine: Routine = {
  format: 'deputy-routine',
  version: 1,
  name: 'Order paper',
  sites: ['http://shop.test'],
  task: 'Order {{item}} paying with {{redacted_card_1}}',
  startUrl: 'http://shop.test/store',
  params: [
    { name: 'item', kind: 'text', example: 'paper' },
    { name: 'redacted_card_1', kind: 'secret' },
  ],
  steps: [
    { tool: 'type', args: { text: '{{item}}' }, target: { role: 'textbox', name: 'Item', nth: 0, of: 1 }, url: 'http://shop.test/store', text: 'type item' },
    { tool: 'type', args: { text: '{{redacted_card_1}}' }, target: { role: 'textbox', name: 'Card', nth: 0, of: 1 }, url: 'http://shop.test/store', text: 'type card' },
  ],
  createdAt: 1,
};

async function setup(personalData: Record<string, string>) {
  const store = memoryStore();
  const routines = new RoutineStore(store);
  await routines.put({ id: 'r1', routine, edited: false, savedAt: 1 });
  const started: { params: Record<string, string> }[] = [];
  const notices: string[] = [];
  const settings = { personalData, redactEmails: false, redactPhones: false };
  let ids = 0;
  const clock = { now: Date.now() };
  const scheduler = new RoutineScheduler({
    store,
    routines,
    settings: () => Promise.resolve(settings),
    runRoutine: (input) => {
      started.push({ params: input.params });
      return Promise.resolve({ id: `t${started.length}` } as TaskRecord);
    },
    runTask: () => Promise.reject(new Error('not in this test')),
    openTab: () => Promise.resolve(7),
    setAlarm: () => Promise.resolve(),
    clearAlarm: () => Promise.resolve(),
    alarmNames: () => Promise.resolve([]),
    notify: (notice) => {
      notices.push(notice.message);
      return Promise.resolve();
    },
    now: () => clock.now,
    newId: () => `s${(ids += 1)}`,
  });
  // A schedule's alarm rings at its time: the clock is set there first.
  const ringAt = async (schedule: { id: string; nextAt: number | null }) => {
    clock.now = schedule.nextAt ?? clock.now;
    return scheduler.ring(`${SCHEDULE_ALARM}${schedule.id}`);
  };
  return { store, scheduler, started, notices, settings, ringAt };
}

const daily = { routineId: 'r1', every: 'daily' as const, time: '07:30' };

describe('a schedule never keeps a secret in clear', () => {
  it('refuses a secret given in clear, for any secret-looking value, and stores nothing', async () => {
    for (const value of [CARD, 'hunter2', 'sk-live-0123456789abcdef', ' {{ not closed', '{{Card}}']) {
      const { store, scheduler } = await setup({ card_number: CARD });
      await expect(scheduler.add({ ...daily, params: { item: 'paper', redacted_card_1: value } })).rejects.toThrow(/never keeps a secret in clear.*Personal data.*\{\{card_number\}\}/);
      expect(store.data.get('routineSchedules')).toBeUndefined();
    }
  });

  it('keeps a placeholder naming a personal-data entry, resolves it only when the run starts, and never writes the value', async () => {
    const { store, scheduler, started, ringAt } = await setup({ card_number: CARD });
    const schedule = await scheduler.add({ ...daily, params: { item: 'paper', redacted_card_1: '{{ card_number }}' } });
    expect(schedule.params).toEqual({ item: 'paper', redacted_card_1: '{{card_number}}' });
    await ringAt(schedule);
    expect(started).toEqual([{ params: { item: 'paper', redacted_card_1: CARD } }]);
    // Every byte the scheduler stored: the card number (in any spacing) is nowhere in it.
    const stored = [...store.data.values()].join('\n');
    expect(stored.replace(/\s/g, '')).not.toContain(CARD.replace(/\s/g, ''));
    expect(stored).toContain('{{card_number}}');
  });

  it('a placeholder for an entry that is not in personal data is refused at once; one removed later stops the run with the reason', async () => {
    const { scheduler, started, notices, settings, ringAt } = await setup({ card_number: CARD });
    await expect(scheduler.add({ ...daily, params: { item: 'paper', redacted_card_1: '{{visa}}' } })).rejects.toThrow(/\{\{visa\}\}.*not in Settings → Personal data.*card_number/);
    const schedule = await scheduler.add({ ...daily, params: { item: 'paper', redacted_card_1: '{{card_number}}' } });
    settings.personalData = {};
    await ringAt(schedule);
    expect(started).toEqual([]);
    expect(notices.join('\n')).toMatch(/no longer in Settings → Personal data/);
    expect((await scheduler.list())[0]?.lastError).toMatch(/card_number/);
  });

  it('a secret an older version stored in clear is removed from storage when the schedules are restored', async () => {
    const { store, scheduler } = await setup({ card_number: CARD });
    const schedule = await scheduler.add({ ...daily, params: { item: 'paper', redacted_card_1: '{{card_number}}' } });
    await store.set('routineSchedules', [{ ...schedule, params: { item: 'paper', redacted_card_1: CARD } }]);
    await scheduler.reconcile();
    const [kept] = await scheduler.list();
    expect(kept?.params).toEqual({ item: 'paper' });
    expect(kept?.lastError).toMatch(/redacted_card_1 had been kept in clear and was removed/);
    expect([...store.data.values()].join('')).not.toContain(CARD);
  });

  it('a task in words keeps personal data as placeholders and refuses any other secret in it', async () => {
    const { store, scheduler } = await setup({ card_number: CARD });
    const kept = await scheduler.add({ task: `Pay the bill with ${CARD}`, url: 'http://shop.test/bill', every: 'daily', time: '07:30' });
    expect(kept.task).toBe('Pay the bill with {{card_number}}');
    await expect(scheduler.add({ task: 'Pay with 5555 5555 5555 4444', url: 'http://shop.test/bill', every: 'daily', time: '07:30' })).rejects.toThrow(/holds a secret \(card\).*Personal data/);
    expect([...store.data.values()].join('')).not.toMatch(/4111|5555/);
  });

  it('ordinary values are kept as given', async () => {
    const { scheduler } = await setup({ card_number: CARD });
    const schedule = await scheduler.add({ ...daily, params: { item: 'A4 paper, 2 reams', redacted_card_1: '{{card_number}}' } });
    expect(schedule.params.item).toBe('A4 paper, 2 reams');
  });
});
