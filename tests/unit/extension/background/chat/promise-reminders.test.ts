import { describe, expect, it } from 'vitest';
import { alarmName, parseAlarm, PromiseReminders, taskOfPromiseNotice } from '../../../../../extension/background/chat/promise-reminders';
import type { Notice } from '../../../../../extension/platform/notifications';
import type { TaskRecord } from '../../../../../shared/protocol';
import { taskRecord } from '../../ui/task-record-fixture';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 28, 9, 0, 0);

function caseWith(id: string, dues: number[]): TaskRecord {
  return taskRecord({
    id,
    flow: 'chat',
    chat: {
      outcome: 'agreed',
      summary: 'Refund promised.',
      vendor: 'crisp',
      transcript: [],
      promises: dues.map((dueAt, i) => ({ quote: `Promise ${i}: your refund will arrive within 5 days.`, when: 'within 5 days', dueAt })),
    },
  });
}

function harness(records: TaskRecord[], alarmsAlready: string[] = []) {
  const store = new Map(records.map((r) => [r.id, r]));
  const alarms = new Map<string, number>(alarmsAlready.map((name) => [name, 0]));
  const shown: Notice[] = [];
  let now = NOW;
  const reminders = new PromiseReminders({
    setAlarm: (name, when) => Promise.resolve(void alarms.set(name, when)),
    alarmNames: (prefix) => Promise.resolve([...alarms.keys()].filter((name) => name.startsWith(prefix))),
    show: (notice) => Promise.resolve(void shown.push(notice)),
    list: () => Promise.resolve([...store.values()]),
    get: (id) => Promise.resolve(store.get(id)),
    markReminded: (id, index, at, note) => {
      const r = store.get(id)!;
      store.set(id, { ...r, chat: { ...r.chat!, promises: r.chat!.promises!.map((p, i) => (i === index ? { ...p, remindedAt: at } : p)) }, notes: [...(r.notes ?? []), { at, afterCalls: 0, text: note }] });
      return Promise.resolve();
    },
    now: () => now,
    log: { info: () => undefined, warn: () => undefined },
  });
  return { reminders, alarms, shown, store, advance: (ms: number) => void (now += ms) };
}

describe("support's promises as reminders", () => {
  it('sets one alarm per promise at its due time, once however often the case is saved', async () => {
    const record = caseWith('t1', [NOW + 5 * DAY, NOW + 9 * DAY]);
    const h = harness([record]);
    await h.reminders.update(record);
    await h.reminders.update(record);
    expect([...h.alarms.entries()]).toEqual([
      [alarmName('t1', 0), NOW + 5 * DAY],
      [alarmName('t1', 1), NOW + 9 * DAY],
    ]);
  });

  it('rings once: a notification quoting the promise, and a note in the case', async () => {
    const record = caseWith('t1', [NOW + 5 * DAY]);
    const h = harness([record]);
    h.advance(5 * DAY);
    await h.reminders.ring(alarmName('t1', 0));
    await h.reminders.ring(alarmName('t1', 0));
    expect(h.shown).toHaveLength(1);
    expect(h.shown[0]!.message).toContain('"Promise 0: your refund will arrive within 5 days."');
    expect(taskOfPromiseNotice(h.shown[0]!.id)).toBe('t1');
    const saved = h.store.get('t1')!;
    expect(saved.chat?.promises?.[0]?.remindedAt).toBe(NOW + 5 * DAY);
    expect(saved.notes?.at(-1)?.text).toMatch(/^Support's promise fell due on \d{4}-\d\d-\d\d: "Promise 0/);
  });

  it('at start, reminds what fell due while the browser was closed and sets the alarms a restart dropped', async () => {
    const due = caseWith('t1', [NOW - DAY]);
    const later = caseWith('t2', [NOW + 3 * DAY]);
    const reminded = caseWith('t3', [NOW - 2 * DAY]);
    reminded.chat!.promises![0]!.remindedAt = NOW - DAY;
    const h = harness([due, later, reminded]);
    await h.reminders.reconcile();
    expect(h.shown.map((notice) => taskOfPromiseNotice(notice.id))).toEqual(['t1']);
    expect([...h.alarms.keys()]).toEqual([alarmName('t2', 0)]);
  });

  it('reads its own alarm names back, and nothing else', () => {
    expect(parseAlarm(alarmName('a-b-c', 3))).toEqual({ taskId: 'a-b-c', index: 3 });
    expect(parseAlarm('routine:x')).toBeNull();
    expect(parseAlarm('deputy-promise:x:-1')).toBeNull();
    expect(taskOfPromiseNotice('approval:3:x')).toBeUndefined();
  });
});
