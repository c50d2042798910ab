import { z } from 'zod';
import { TaskRecord } from '../../../shared/protocol';
import type { ScreenshotStore } from '../../platform/screenshot-db';
import type { Store } from '../../platform/storage';

const INDEX = 'task-index';
const taskKey = (id: string): string => `task:${id}`;
/** A trace as one array, as versions before append-only traces wrote it: still read, and deleted with the task. */
const legacyTraceKey = (id: string): string => `trace:${id}`;
const traceCountKey = (id: string): string => `trace-count:${id}`;
const traceLineKey = (id: string, n: number): string => `trace:${id}:${n}`;

const FINISHED = new Set(['completed', 'failed', 'stopped', 'handed_to_user']);
const DAY_MS = 86_400_000;

/** How much history to keep (from the settings). */
export interface HistoryLimits {
  maxTasks: number;
  maxDays: number;
}

/**
 * Tasks and their traces in chrome.storage.local, newest first, and their step screenshots beside them. Writes to one
 * key are queued one after another, so a step saved while an approval is answered never loses either change. A trace
 * is append-only: each record is its own key, so a long task's trace is never read and written back whole.
 */
export class TaskStore {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly traceCounts = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly screenshots?: ScreenshotStore,
  ) {}

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
    await this.serial(traceCountKey(id), async () => {
      const count = await this.traceCount(id);
      await this.store.remove([legacyTraceKey(id), traceCountKey(id), ...Array.from({ length: count }, (_, n) => traceLineKey(id, n))]);
      this.traceCounts.delete(id);
    });
    await this.screenshots?.delete(id);
    await this.serial(INDEX, async () => {
      const ids = (await this.store.get(INDEX, z.array(z.string()))) ?? [];
      await this.store.set(INDEX, ids.filter((other) => other !== id));
    });
    return existed;
  }

  /** Adds one record to the task's trace: one small write, whatever the length of the trace. */
  appendTrace(id: string, record: unknown): Promise<void> {
    return this.serial(traceCountKey(id), async () => {
      const n = await this.traceCount(id);
      await this.store.setMany({ [traceLineKey(id, n)]: JSON.stringify(record), [traceCountKey(id)]: n + 1 });
      this.traceCounts.set(id, n + 1);
    });
  }

  async trace(id: string): Promise<string[]> {
    const legacy = (await this.store.get(legacyTraceKey(id), z.array(z.string()))) ?? [];
    const count = await this.traceCount(id);
    const keys = Array.from({ length: count }, (_, n) => traceLineKey(id, n));
    const found = await this.store.getMany(keys);
    return [...legacy, ...keys.map((key) => found[key]).filter((line): line is string => typeof line === 'string')];
  }

  /**
   * Deletes finished tasks past the limits, with their traces and screenshots: those older than `maxDays`, and the
   * oldest beyond the newest `maxTasks`. A task still working is never deleted. Returns how many went.
   */
  async prune(limits: HistoryLimits, now: number): Promise<number> {
    const ids = (await this.store.get(INDEX, z.array(z.string()))) ?? [];
    const cutoff = now - limits.maxDays * DAY_MS;
    let kept = 0;
    let deleted = 0;
    for (const id of ids) {
      const record = await this.get(id);
      if (!record) {
        await this.delete(id);
        continue;
      }
      if (!FINISHED.has(record.status)) continue;
      kept += 1;
      if (kept > limits.maxTasks || record.createdAt < cutoff) {
        await this.delete(id);
        deleted += 1;
      }
    }
    return deleted;
  }

  /** Keeps a step's screenshot; returns the tasks whose screenshots went to stay under the size cap. */
  saveScreenshot(id: string, shot: Parameters<ScreenshotStore['save']>[1]): Promise<string[]> {
    return this.screenshots?.save(id, shot) ?? Promise.resolve([]);
  }

  thumbnailsOf(id: string): Promise<Awaited<ReturnType<ScreenshotStore['thumbnails']>>> {
    return this.screenshots?.thumbnails(id) ?? Promise.resolve([]);
  }

  screenshotOf(id: string, step: number): Promise<Awaited<ReturnType<ScreenshotStore['get']>>> {
    return this.screenshots?.get(id, step) ?? Promise.resolve(undefined);
  }

  screenshotsOf(id: string): Promise<Awaited<ReturnType<ScreenshotStore['list']>>> {
    return this.screenshots?.list(id) ?? Promise.resolve([]);
  }

  private async traceCount(id: string): Promise<number> {
    const known = this.traceCounts.get(id);
    if (known !== undefined) return known;
    const count = (await this.store.get(traceCountKey(id), z.number().int().nonnegative())) ?? 0;
    this.traceCounts.set(id, count);
    return count;
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
