import { z } from 'zod';

/**
 * When a routine (or a task in words) runs by itself: once at a time, or daily or weekly at a time of day (local
 * time). Each schedule caps what one run may spend and how many runs a day it may start; a run that needs the user's
 * approval waits for it like any task (being scheduled never approves anything).
 */
export const ScheduleInput = z
  .object({
    /** The routine to replay; or `task` (words) with `url` (where it starts), run with the model. */
    routineId: z.string().min(1).optional(),
    task: z.string().trim().min(1).max(4000).optional(),
    url: z.string().url().optional(),
    params: z.record(z.string(), z.string()).default({}),
    every: z.enum(['once', 'daily', 'weekly']),
    /** For daily and weekly: the time of day, HH:MM, 24-hour, local time. */
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time is HH:MM, 24-hour, such as 07:30')
      .optional(),
    /** For weekly: the day, 0 = Sunday … 6 = Saturday. */
    weekday: z.number().int().min(0).max(6).optional(),
    /** For once: when, in milliseconds since 1970 (the panel turns a date and time into it). */
    at: z.number().int().positive().optional(),
    /** What one run may spend on the model, in US dollars (a replay that needs no model spends nothing). */
    costCapUsd: z.number().positive().max(100).default(0.5),
    runsPerDay: z.number().int().min(1).max(48).default(1),
  })
  .superRefine((s, ctx) => {
    if ((s.routineId === undefined) === (s.task === undefined)) ctx.addIssue({ code: 'custom', message: 'Give either a routine or a task in words to schedule, not both.' });
    if (s.task !== undefined && s.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'A task in words needs the address it starts on (url).' });
    if (s.every === 'once' && s.at === undefined) ctx.addIssue({ code: 'custom', path: ['at'], message: 'A run "once" needs the time it runs at (at).' });
    if (s.every !== 'once' && s.time === undefined) ctx.addIssue({ code: 'custom', path: ['time'], message: `A ${s.every} run needs its time of day (time, HH:MM).` });
    if (s.every === 'weekly' && s.weekday === undefined) ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'A weekly run needs its day (weekday, 0 = Sunday … 6 = Saturday).' });
  });
export type ScheduleInput = z.input<typeof ScheduleInput>;

export const RoutineSchedule = z.object({
  id: z.string(),
  routineId: z.string().optional(),
  task: z.string().optional(),
  url: z.string().optional(),
  /** What the schedule runs, in words, for the panel and the notification. */
  label: z.string(),
  params: z.record(z.string(), z.string()),
  every: z.enum(['once', 'daily', 'weekly']),
  time: z.string().optional(),
  weekday: z.number().int().optional(),
  at: z.number().optional(),
  costCapUsd: z.number(),
  runsPerDay: z.number().int(),
  /** The next time it runs, or null once a run "once" has run. */
  nextAt: z.number().nullable(),
  /** Runs started, by local day (YYYY-MM-DD): only the current day is kept. */
  runs: z.object({ day: z.string(), count: z.number().int() }).default({ day: '', count: 0 }),
  lastTaskId: z.string().optional(),
  /** Why the last run did not start (its routine gone, its values no longer valid), until a run starts. */
  lastError: z.string().optional(),
  createdAt: z.number(),
});
export type RoutineSchedule = z.infer<typeof RoutineSchedule>;

/** The local day of a time, YYYY-MM-DD: what a runs-per-day cap counts by. */
export function dayOf(time: number): string {
  const d = new Date(time);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The next time a schedule runs after `now` (local time), or null when a run "once" is in the past. */
export function nextRunAt(s: Pick<RoutineSchedule, 'every' | 'time' | 'weekday' | 'at'>, now: number): number | null {
  if (s.every === 'once') return s.at !== undefined && s.at > now ? s.at : null;
  const [hours, minutes] = (s.time ?? '00:00').split(':').map(Number);
  const next = new Date(now);
  next.setHours(hours ?? 0, minutes ?? 0, 0, 0);
  if (s.every === 'daily') {
    if (next.getTime() <= now) next.setDate(next.getDate() + 1);
    return next.getTime();
  }
  const ahead = ((s.weekday ?? 0) - next.getDay() + 7) % 7;
  next.setDate(next.getDate() + ahead);
  if (next.getTime() <= now) next.setDate(next.getDate() + 7);
  return next.getTime();
}

/** Whether a run may start now under the runs-per-day cap, and the count with this run in it. */
export function takeRun(s: Pick<RoutineSchedule, 'runs' | 'runsPerDay'>, now: number): { allowed: boolean; runs: { day: string; count: number } } {
  const day = dayOf(now);
  const count = s.runs.day === day ? s.runs.count : 0;
  if (count >= s.runsPerDay) return { allowed: false, runs: { day, count } };
  return { allowed: true, runs: { day, count: count + 1 } };
}
