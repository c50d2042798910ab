import { z } from 'zod';
import { RoutineSchedule } from './routine-schedule';

/**
 * A schedule as the native host keeps it on disk (so that `deputy schedules run-due` can tell, with no browser
 * running, whether anything is due): when it runs and what it is called, never its values. The values (and a
 * secret's placeholder) stay in the extension's storage, which resolves them from the user's personal data when the run
 * starts; nothing a run types is ever written to the host's file.
 */
export const HostSchedule = RoutineSchedule.omit({ params: true, task: true, url: true });
export type HostSchedule = z.infer<typeof HostSchedule>;

export const SchedulesFile = z.object({
  version: z.literal(1),
  /** When the extension last wrote it (or run-due, after its runs). */
  syncedAt: z.number(),
  schedules: z.array(HostSchedule),
});
export type SchedulesFile = z.infer<typeof SchedulesFile>;

/** What the host may keep of a schedule: no parameter values, no task text. */
export function toHostSchedule(schedule: RoutineSchedule): HostSchedule {
  const kept: Partial<RoutineSchedule> = { ...schedule };
  delete kept.params;
  delete kept.task;
  delete kept.url;
  return HostSchedule.parse(kept);
}

/**
 * Whether a schedule's run is due at `now`: its next run is at or before now. A missed run (the machine was off, the
 * browser closed) stays due until it runs once; its next run then moves past now, so a second look finds nothing.
 */
export function isDue(schedule: Pick<RoutineSchedule, 'nextAt'>, now: number): boolean {
  return schedule.nextAt !== null && schedule.nextAt <= now;
}

export function dueSchedules<T extends Pick<RoutineSchedule, 'nextAt'>>(schedules: readonly T[], now: number): T[] {
  return schedules.filter((s) => isDue(s, now)).sort((a, b) => (a.nextAt ?? 0) - (b.nextAt ?? 0));
}
