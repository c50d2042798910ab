import type { z } from 'zod';
import type { Store } from '../platform/storage';

/**
 * The one record of a host-side run the side panel shows (a desktop task, a shell task), kept in session storage under
 * one key. Every change goes through one queue, so events that arrive together are applied in order; each new version
 * is stored, then sent to the open panels.
 */
export class RunRecordStore<T> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: { store: Store; key: string; schema: z.ZodType<T>; broadcast: (record: T) => void },
  ) {}

  current(): Promise<T | null> {
    return this.enqueue(async () => (await this.load()) ?? null);
  }

  /** Applies `update` to the stored record; returning undefined leaves it as it was (nothing is stored or sent). */
  change(update: (current: T | undefined) => T | undefined): Promise<T | undefined> {
    return this.enqueue(async () => {
      const next = update(await this.load());
      if (!next) return undefined;
      await this.deps.store.set(this.deps.key, next);
      this.deps.broadcast(next);
      return next;
    });
  }

  private load(): Promise<T | undefined> {
    return this.deps.store.get(this.deps.key, this.deps.schema);
  }

  private enqueue<R>(work: () => Promise<R>): Promise<R> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
