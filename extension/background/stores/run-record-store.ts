import type { z } from 'zod';
import type { Store } from '../../platform/storage';

/**
 * The one record of a host-side run the side panel shows (a desktop task, a shell task), kept in session storage under
 * one key. Every change goes through one queue, so events that arrive together are applied in order; each new version
 * is stored, then sent to the open panels.
 */
export class RunRecordStore<T> {
  private queue: Promise<unknown> = Promise.resolve();
  /** Runs this service worker has heard of: a run from before a restart had its host connection end with it. */
  private readonly live = new Set<string>();

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

  /** A run this service worker started or heard from. */
  markLive(id: string): void {
    this.live.add(id);
  }

  isLive(id: string): boolean {
    return this.live.has(id);
  }

  /** A host event for the run: parsed (anything else is ignored), its run marked live, then folded into the record. */
  applyEvent<E>(data: unknown, schema: z.ZodType<E>, idOf: (event: E) => string, fold: (current: T | undefined, event: E) => T): Promise<T | undefined> {
    const event = schema.safeParse(data);
    if (!event.success) return Promise.resolve(undefined);
    this.live.add(idOf(event.data));
    return this.change((current) => fold(current, event.data));
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
