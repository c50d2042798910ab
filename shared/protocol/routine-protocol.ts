import { z } from 'zod';
import { StoredRoutine } from '../routines/routine';
import { RoutineSchedule, ScheduleInput } from '../routines/routine-schedule';
import { TaskRecord } from './task-protocol';

const RoutineRef = z.object({ id: z.string().min(1) });

/** Side panel (and `npm run task`) methods for routines, merged into the ui channel. */
export const routineUiMethods = {
  /** Saves a finished task's steps as a routine (its elements by identity, the user's values as parameters). */
  'routine.save': { params: z.object({ taskId: z.string().min(1), name: z.string().trim().min(1, 'Name the routine').max(80) }), result: StoredRoutine },
  'routine.list': { params: z.object({}), result: z.array(StoredRoutine) },
  'routine.delete': { params: RoutineRef, result: z.object({ deleted: z.boolean() }) },
  /** The routine as a readable file (sites first, a hash, no secrets). */
  'routine.export': { params: RoutineRef, result: z.object({ fileName: z.string(), text: z.string() }) },
  /** Reads a routine file; one whose hash does not match its content is kept marked as edited. */
  'routine.import': {
    params: z.object({ text: z.string().min(1).max(1_000_000) }),
    result: z.object({ routine: StoredRoutine, note: z.string().nullable() }),
  },
  /**
   * Replays a routine on a tab without the model: its parameters are checked first. The gate, the approvals and the
   * egress guard run as in a live task.
   */
  'routine.run': {
    params: z.object({ id: z.string().min(1), tabId: z.number().int().nonnegative(), params: z.record(z.string(), z.string()).default({}) }),
    result: TaskRecord,
  },
  /** Runs a routine (or a task in words) once at a time, daily or weekly, with a cost cap and a runs-per-day cap. */
  'routine.schedule': { params: ScheduleInput, result: RoutineSchedule },
  'routine.schedules': { params: z.object({}), result: z.array(RoutineSchedule) },
  'routine.unschedule': { params: RoutineRef, result: z.object({ deleted: z.boolean() }) },
  /**
   * Starts every schedule whose run is due (a missed one once), as their alarms would: what `deputy schedules run-due`
   * asks of a browser it started. Says what each came to, and the schedules after it.
   */
  'routine.runDue': {
    /** The due schedules as the host knew them (their last task), so a run the browser's own alarm started is said too. */
    params: z.object({ known: z.array(z.object({ id: z.string(), lastTaskId: z.string().optional() })).max(1000).default([]) }),
    result: z.object({
      ran: z.array(z.object({ id: z.string(), label: z.string(), taskId: z.string().nullable(), error: z.string().nullable() })),
      schedules: z.array(RoutineSchedule),
    }),
  },
  /** The notices of scheduled runs, kept (newest last): what a run the host started headless said when it ended. */
  'routine.notices': {
    params: z.object({}),
    result: z.array(z.object({ id: z.string(), title: z.string(), message: z.string(), at: z.number(), seen: z.boolean() })),
  },
  /** Takes the steps the model repaired in a replay into the routine. */
  'routine.update': { params: z.object({ taskId: z.string().min(1) }), result: StoredRoutine },
} as const;
