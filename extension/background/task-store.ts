import { z } from 'zod';
import { TaskRecord } from '../../shared/protocol';
import type { Store } from '../platform/storage';

const INDEX = 'task-index';
const taskKey = (id: string): string => `task:${id}`;
const traceKey = (id: string): string => `trace:${id}`;

/**
 * Tasks and their traces in chrome.storage.local, newest first. Writes to one key are queued one after another, so
 * a step saved while an approval is answered never loses either change.
 */
export class TaskStore {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly store: Store) {}

  get(id: string): Promise<TaskRecord | undefined> {
    return this.store.get(taskKey(id), TaskRecord);
  }

  async save(record: TaskRecord): Promise<void> {
    await this.serial(taskKey(record.id), () => this.store.set(taskKey(record.id), record));
    await this.serial(INDEX, async () => {
      const ids = (await this.store.get(INDEX, z.array(z.string()))) ?? [];
      if (!ids.includes(record.id)) await this.store.set(INDEX, [record.id, ...ids]);
    });
  }

  /** Applies a change to the stored record, in order with every other change to it. */
  update(id: string, change: (record: TaskRecord) => TaskRecord): Promise<TaskRecord | undefined> {
    return this.serial(taskKey(id), async () => {
      const current = await this.get(id);
      if (!current) return undefined;
      const next = change(current);
      await this.store.set(taskKey(id), next);
      return next;
    });
  }

  async list(filter: { tabId?: number | undefined; site?: string | undefined; limit?: number | undefined } = {}): Promise<TaskRecord[]> {
    const ids = (await this.store.get(INDEX, z.array(z.string()))) ?? [];
    const records: TaskRecord[] = [];
    for (const id of ids) {
      const record = await this.get(id);
      if (!record) continue;
      if (filter.tabId !== undefined && record.tabId !== filter.tabId) continue;
      if (filter.site !== undefined && record.site !== filter.site) continue;
      records.push(record);
      if (filter.limit !== undefined && records.length >= filter.limit) break;
    }
    return records;
  }

  async delete(id: string): Promise<boolean> {
    const existed = (await this.get(id)) !== undefined;
    await this.store.remove(taskKey(id));
    await this.store.remove(traceKey(id));
    await this.serial(INDEX, async () => {
      const ids = (await this.store.get(INDEX, z.array(z.string()))) ?? [];
      await this.store.set(INDEX, ids.filter((other) => other !== id));
    });
    return existed;
  }

  appendTrace(id: string, record: unknown): Promise<void> {
    return this.serial(traceKey(id), async () => {
      const lines = (await this.store.get(traceKey(id), z.array(z.string()))) ?? [];
      lines.push(JSON.stringify(record));
      await this.store.set(traceKey(id), lines);
    });
  }

  async trace(id: string): Promise<string[]> {
    return (await this.store.get(traceKey(id), z.array(z.string()))) ?? [];
  }

  private serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return next;
  }
}
