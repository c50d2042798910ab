import { z } from 'zod';
import type { Store } from '../../platform/storage';

const KEY = 'scheduleNotices';
/** The newest notices kept: enough for a week of a few schedules, small enough to read at every start. */
const KEEP = 50;

export const ScheduleNotice = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  at: z.number(),
  /** The user clicked it or closed it: it is not shown again. */
  seen: z.boolean().default(false),
});
export type ScheduleNotice = z.infer<typeof ScheduleNotice>;
const Saved = z.array(ScheduleNotice);

/**
 * The notices of scheduled runs, kept as well as shown. A run that `deputy schedules run-due` started in a headless
 * browser ends with nobody to see its notification, and the notification goes when that browser closes: its record
 * stays here, and the next time the browser starts, every notice the user has not clicked or closed is shown again.
 */
export class ScheduleNotices {
  constructor(
    private readonly deps: {
      store: Store;
      show(notice: { id: string; title: string; message: string }): Promise<void>;
      now(): number;
    },
  ) {}

  async list(): Promise<ScheduleNotice[]> {
    return (await this.deps.store.get(KEY, Saved)) ?? [];
  }

  /** Keeps the notice (one per id: a later one replaces it), then shows it. */
  async notify(notice: { id: string; title: string; message: string }): Promise<void> {
    const kept = (await this.list()).filter((n) => n.id !== notice.id);
    await this.deps.store.set(KEY, [...kept, { ...notice, at: this.deps.now(), seen: false }].slice(-KEEP));
    await this.deps.show(notice);
  }

  /** The user clicked or closed it. Ids that are not a scheduled run's are ignored. */
  async seen(id: string): Promise<void> {
    const all = await this.list();
    if (!all.some((n) => n.id === id && !n.seen)) return;
    await this.deps.store.set(KEY, all.map((n) => (n.id === id ? { ...n, seen: true } : n)));
  }

  /** At the browser's start: what the user has not seen yet is shown again (a run-due's results among them). */
  async showUnseen(): Promise<void> {
    for (const notice of await this.list()) if (!notice.seen) await this.deps.show(notice);
  }
}
