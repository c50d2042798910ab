import { describe, expect, it } from 'vitest';
import { TaskStore } from '../../../../../extension/background/tasks/task-store';
import type { TaskRecord } from '../../../../../shared/protocol';
import { taskRecord } from '../../ui/task-record-fixture';
import { memoryScreenshots } from '../support/memory-screenshots';
import { memoryStore } from '../support/memory-store';

const DAY = 86_400_000;

function record(id: string, createdAt: number, status: TaskRecord['status'] = 'completed'): TaskRecord {
  return taskRecord({ id, text: `task ${id}`, status, createdAt, updatedAt: createdAt, agent: null });
}

describe('the task store', () => {
  it('appends each trace record as its own key, without reading or writing the trace before it', async () => {
    const store = memoryStore();
    const tasks = new TaskStore(store);
    for (let n = 0; n < 30; n += 1) await tasks.appendTrace('t1', { type: 'tool', n });
    // Each record is one small key; nothing holds the whole trace.
    expect([...store.data.keys()].filter((key) => key.startsWith('trace:t1:'))).toHaveLength(30);
    const largest = Math.max(...[...store.data.values()].map((value) => value.length));
    expect(largest).toBeLessThan(60);
    expect((await tasks.trace('t1')).map((line) => (JSON.parse(line) as { n: number }).n)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    // A worker that restarted goes on numbering where the trace ended.
    const again = new TaskStore(store);
    await again.appendTrace('t1', { type: 'end' });
    expect(await again.trace('t1')).toHaveLength(31);
  });

  it('keeps appends in order when they come at once', async () => {
    const tasks = new TaskStore(memoryStore());
    await Promise.all(Array.from({ length: 10 }, (_, n) => tasks.appendTrace('t1', { n })));
    expect((await tasks.trace('t1')).map((line) => (JSON.parse(line) as { n: number }).n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('still reads a trace written whole by an earlier version, and deletes every part of a task', async () => {
    const store = memoryStore();
    const shots = memoryScreenshots();
    const tasks = new TaskStore(store, shots);
    await tasks.save(record('old', 1));
    await store.set('trace:old', ['{"type":"task"}', '{"type":"observation"}']);
    await tasks.appendTrace('old', { type: 'end' });
    await tasks.saveScreenshot('old', { step: 0, mediaType: 'image/jpeg', base64: '/9j/', at: 1 });
    expect((await tasks.trace('old')).map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['task', 'observation', 'end']);
    expect(await tasks.screenshotsOf('old')).toHaveLength(1);
    expect(await tasks.delete('old')).toBe(true);
    expect([...store.data.keys()].filter((key) => key.includes('old'))).toEqual([]);
    expect(await tasks.screenshotsOf('old')).toEqual([]);
  });

  it('prunes finished tasks past the count and the age limits, with their traces and screenshots, never one still working', async () => {
    const now = 100 * DAY;
    const shots = memoryScreenshots();
    const tasks = new TaskStore(memoryStore(), shots);
    // Saved oldest first, so the index lists them newest first, as the panel shows them.
    const ages = [40, 20, 5, 4, 3, 2, 1];
    for (const [i, age] of ages.entries()) {
      await tasks.save(record(`t${i}`, now - age * DAY, i === 0 ? 'running' : 'completed'));
      await tasks.appendTrace(`t${i}`, { type: 'task' });
      await tasks.saveScreenshot(`t${i}`, { step: 0, mediaType: 'image/jpeg', base64: '/9j/', at: 0 });
    }
    expect(await tasks.prune({ maxTasks: 4, maxDays: 30 }, now)).toBe(2);
    // t1 is past 30 days and t2 beyond the newest four finished tasks; t0 is older still, but working.
    expect((await tasks.list()).map((r) => r.id)).toEqual(['t6', 't5', 't4', 't3', 't0']);
    expect(await tasks.trace('t1')).toEqual([]);
    expect(await tasks.screenshotsOf('t2')).toEqual([]);
    expect(await tasks.screenshotsOf('t3')).toHaveLength(1);
    expect(await tasks.prune({ maxTasks: 4, maxDays: 30 }, now)).toBe(0);
  });
});
