import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import type { Settings, TaskRecord } from '../../../shared/protocol';
import { checkParams } from '../../../shared/routines/routine-params';
import { RoutineSchedule, ScheduleInput, nextRunAt, takeRun } from '../../../shared/routines/routine-schedule';
import { dueSchedules, isDue } from '../../../shared/routines/host-schedules';
import { dropClearSecrets, keepableScheduleParams, resolveScheduleParams } from '../../../shared/routines/schedule-secrets';
import { taskWithoutClearSecrets } from './schedule-task-text';
import type { Store } from '../../platform/storage';
import type { UiHandlers } from '../ui/ui-server';
import type { RoutineStore } from './routine-store';
import type { ScheduleNotice } from './schedule-notices';
import type { ScheduleMethod } from './routine-ui-handlers';

const KEY = 'routineSchedules';
const Saved = z.array(RoutineSchedule);
export const SCHEDULE_ALARM = 'routine-schedule:';
const ENDED = new Set(['completed', 'failed', 'stopped', 'handed_to_user']);
/** An alarm rings at its time or a little after; one for a run further ahead than this is stale (the run already ran). */
const ALARM_EARLY_MS = 60_000;

/** What one due run came to when the host asked for the due runs (`routine.runDue`). */
export interface DueRun {
  id: string;
  label: string;
  taskId: string | null;
  /** Why it did not start (its cap reached, a secret's placeholder no longer in personal data), or null. */
  error: string | null;
}

export interface SchedulerDeps {
  store: Store;
  routines: RoutineStore;
  /** The user's settings: their personal data is where a schedule's secrets live (the schedule keeps placeholders). */
  settings(): Promise<Pick<Settings, 'personalData' | 'redactEmails' | 'redactPhones'>>;
  /** Starts a routine's replay (its parameters checked) on a tab, as the panel's Run does. */
  runRoutine(input: { id: string; tabId: number; params: Record<string, string>; schedule: { id: string; costCapUsd: number } }): Promise<TaskRecord>;
  /** Starts a task in words on a tab, with the model. */
  runTask(input: { tabId: number; text: string; url: string; schedule: { id: string; costCapUsd: number } }): Promise<TaskRecord>;
  /** A tab of its own for a run, in the background (the user may be working in another). */
  openTab(): Promise<number>;
  setAlarm(name: string, when: number): Promise<void>;
  clearAlarm(name: string): Promise<void>;
  alarmNames(prefix: string): Promise<string[]>;
  notify(notice: { id: string; title: string; message: string }): Promise<void>;
  now(): number;
  newId(): string;
  /** The notices of scheduled runs as kept (see schedule-notices), for `routine.notices`. */
  notices?(): Promise<ScheduleNotice[]>;
  /** Every change of the schedules: the native host keeps a copy without their values, to run them when the browser is closed. */
  onChange?(schedules: RoutineSchedule[]): void;
}

/**
 * Schedules of routines (and tasks in words), run by the browser's alarms while it is open. A run is an ordinary task
 * in a tab of its own: History keeps it, its steps pass the policy gate, and a step that needs approval waits for the
 * user (the notice for a waiting approval comes from the task's own notices). Each run is capped in cost; a schedule
 * starts at most its runs-per-day. Its end arrives as a notification.
 */
export class RoutineScheduler {
  /** Runs ring one at a time: an alarm and the host's run-due that meet never start the same run twice. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Scheduled runs waiting for an approval now, and what it is for (what their end's notice says if they are stopped). */
  private readonly waitedFor = new Map<string, string>();
  /** Scheduled runs whose end was told (in this worker's life). */
  private readonly ended = new Set<string>();

  constructor(private readonly deps: SchedulerDeps) {}

  async list(): Promise<RoutineSchedule[]> {
    return (await this.deps.store.get(KEY, Saved)) ?? [];
  }

  private async put(schedule: RoutineSchedule): Promise<void> {
    await this.save([...(await this.list()).filter((s) => s.id !== schedule.id), schedule]);
  }

  private async save(all: RoutineSchedule[]): Promise<void> {
    await this.deps.store.set(KEY, all);
    this.deps.onChange?.(all);
  }

  async add(raw: ScheduleInput): Promise<RoutineSchedule> {
    const parsed = ScheduleInput.safeParse(raw);
    if (!parsed.success) throw new AppError('bad_request', parsed.error.issues.map((i) => i.message).join(' '));
    const input = parsed.data;
    const settings = await this.deps.settings();
    // A secret is never kept in clear: a task's words keep placeholders for personal data, and a routine's secret
    // parameters keep only a placeholder naming an entry of the user's personal data.
    const task = input.task === undefined ? undefined : taskWithoutClearSecrets(input.task, settings);
    let label = task ?? '';
    let params = input.params;
    if (input.routineId !== undefined) {
      const saved = await this.deps.routines.get(input.routineId);
      if (!saved) throw new AppError('not_found', 'That routine is gone: save or import it again, then schedule it.');
      label = `Routine "${saved.routine.name}"`;
      params = keepableScheduleParams(saved.routine, input.params, settings.personalData);
      // Its values are checked now, so a value the routine cannot use is said at once, not at 3 a.m.
      checkParams(saved.routine, resolveScheduleParams(saved.routine, params, settings.personalData));
    }
    const now = this.deps.now();
    const nextAt = nextRunAt(input, now);
    if (nextAt === null) throw new AppError('bad_request', 'That time has passed: pick a time in the future.');
    const schedule: RoutineSchedule = {
      id: this.deps.newId(),
      ...(input.routineId !== undefined ? { routineId: input.routineId } : {}),
      ...(task !== undefined ? { task } : {}),
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.time !== undefined ? { time: input.time } : {}),
      ...(input.weekday !== undefined ? { weekday: input.weekday } : {}),
      ...(input.at !== undefined ? { at: input.at } : {}),
      label,
      params,
      every: input.every,
      costCapUsd: input.costCapUsd,
      runsPerDay: input.runsPerDay,
      nextAt,
      runs: { day: '', count: 0 },
      createdAt: now,
    };
    await this.put(schedule);
    await this.deps.setAlarm(`${SCHEDULE_ALARM}${schedule.id}`, nextAt);
    return schedule;
  }

  async remove(id: string): Promise<boolean> {
    const all = await this.list();
    await this.deps.clearAlarm(`${SCHEDULE_ALARM}${id}`);
    if (!all.some((s) => s.id === id)) return false;
    await this.save(all.filter((s) => s.id !== id));
    return true;
  }

  /** Alarms may not survive a browser restart: every schedule with a next run gets its alarm again (a missed one now). */
  async reconcile(): Promise<void> {
    await this.dropClearSecrets();
    const set = new Set(await this.deps.alarmNames(SCHEDULE_ALARM));
    for (const s of await this.list()) {
      if (s.nextAt !== null && !set.has(`${SCHEDULE_ALARM}${s.id}`)) await this.deps.setAlarm(`${SCHEDULE_ALARM}${s.id}`, Math.max(s.nextAt, this.deps.now() + 1000));
    }
  }

  /** Secrets an older version kept in clear in a schedule are removed from storage; the schedule says to set them again. */
  private async dropClearSecrets(): Promise<void> {
    for (const s of await this.list()) {
      const saved = s.routineId === undefined ? undefined : await this.deps.routines.get(s.routineId);
      if (!saved) continue;
      const { params, dropped } = dropClearSecrets(saved.routine, s.params);
      if (dropped.length === 0) continue;
      await this.put({ ...s, params, lastError: `${dropped.join(', ')} had been kept in clear and was removed: set the schedule again, giving a personal-data placeholder for it.` });
    }
  }

  /**
   * Every schedule whose run is due now (missed ones too: each runs once, however many times it was missed) starts, as
   * if its alarm rang: what the native host asks for when it runs the due schedules with the browser closed.
   */
  async runDue(known: { id: string; lastTaskId?: string | undefined }[] = []): Promise<DueRun[]> {
    const ran: DueRun[] = [];
    for (const schedule of dueSchedules(await this.list(), this.deps.now())) {
      const record = await this.ring(`${SCHEDULE_ALARM}${schedule.id}`, 0);
      const after = (await this.list()).find((s) => s.id === schedule.id);
      if (record) ran.push({ id: schedule.id, label: schedule.label, taskId: record.id, error: null });
      else if (after?.lastTaskId !== undefined && after.lastTaskId !== schedule.lastTaskId && after.lastError === undefined) ran.push({ id: schedule.id, label: schedule.label, taskId: after.lastTaskId, error: null });
      else ran.push({ id: schedule.id, label: schedule.label, taskId: null, error: after?.lastError ?? 'It did not start.' });
    }
    // A browser that starts rings its missed alarms itself: a run the host knew as due, started by such an alarm
    // (its last task is not the one the host knew), is said too, so the host follows it to its end.
    await this.queue;
    for (const { id, lastTaskId } of known) {
      if (ran.some((r) => r.id === id)) continue;
      const schedule = (await this.list()).find((s) => s.id === id);
      if (!schedule) ran.push({ id, label: id, taskId: null, error: 'That schedule is no longer set in the extension.' });
      else if (schedule.lastTaskId !== undefined && schedule.lastTaskId !== lastTaskId) ran.push({ id, label: schedule.label, taskId: schedule.lastTaskId, error: null });
      else if (schedule.lastError !== undefined) ran.push({ id, label: schedule.label, taskId: null, error: schedule.lastError });
    }
    return ran;
  }

  /** An alarm rang: the schedule's run starts (within its caps), and its next one is set. Not yet due: nothing happens. */
  ring(name: string, earlyMs = ALARM_EARLY_MS): Promise<TaskRecord | null> {
    const next = this.queue.then(() => this.ringNow(name, earlyMs));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async ringNow(name: string, earlyMs: number): Promise<TaskRecord | null> {
    if (!name.startsWith(SCHEDULE_ALARM)) return null;
    const schedule = (await this.list()).find((s) => s.id === name.slice(SCHEDULE_ALARM.length));
    if (!schedule) return null;
    const now = this.deps.now();
    if (!isDue(schedule, now + earlyMs)) return null;
    // From its own time, not now: a run "once" is done, and a missed daily run moves to its next time to come.
    const nextAt = nextRunAt(schedule, Math.max(now, schedule.nextAt ?? now) + 1000);
    const taken = takeRun(schedule, now);
    await this.put({ ...schedule, nextAt, runs: taken.runs });
    if (nextAt !== null) await this.deps.setAlarm(name, nextAt);
    if (!taken.allowed) {
      await this.put({ ...schedule, nextAt, runs: taken.runs, lastError: `It already ran ${schedule.runsPerDay} time(s) today, its cap.` });
      await this.deps.notify({ id: `schedule-skipped:${schedule.id}`, title: 'Deputy: scheduled run skipped', message: `${schedule.label} already ran ${schedule.runsPerDay} time(s) today, its cap.` });
      return null;
    }
    const mark = { id: schedule.id, costCapUsd: schedule.costCapUsd };
    try {
      const params = schedule.routineId !== undefined ? await this.resolved(schedule) : {};
      const tabId = await this.deps.openTab();
      const record =
        schedule.routineId !== undefined
          ? await this.deps.runRoutine({ id: schedule.routineId, tabId, params, schedule: mark })
          : await this.deps.runTask({ tabId, text: schedule.task ?? '', url: schedule.url ?? 'about:blank', schedule: mark });
      const started: RoutineSchedule = { ...schedule, nextAt, runs: taken.runs, lastTaskId: record.id };
      delete started.lastError;
      await this.put(started);
      return record;
    } catch (error) {
      await this.put({ ...schedule, nextAt, runs: taken.runs, lastError: error instanceof Error ? error.message : String(error) });
      await this.deps.notify({ id: `schedule-failed:${schedule.id}`, title: 'Deputy: scheduled run did not start', message: `${schedule.label}: ${error instanceof Error ? error.message : String(error)}` });
      return null;
    }
  }

  /** A schedule's values with its secrets' placeholders resolved from the user's personal data, as the run starts. */
  private async resolved(schedule: RoutineSchedule): Promise<Record<string, string>> {
    const saved = await this.deps.routines.get(schedule.routineId ?? '');
    if (!saved) throw new AppError('not_found', 'That routine is gone: save or import it again, then schedule it.');
    return resolveScheduleParams(saved.routine, schedule.params, (await this.deps.settings()).personalData);
  }

  /**
   * Every task change passes here: a scheduled run that ended gets its notification (once: the id is the task's). A
   * run stopped while it waited for an approval says so: the step was not done, nobody approved it.
   */
  taskUpdated(record: TaskRecord): void {
    if (!record.schedule) return;
    if (record.approval) this.waitedFor.set(record.id, record.approval.intent);
    // An ended task can change again (its files let go, History pruned): its notice is sent once, at its end.
    if (!ENDED.has(record.status) || this.ended.has(record.id)) return;
    this.ended.add(record.id);
    const intent = this.waitedFor.get(record.id);
    this.waitedFor.delete(record.id);
    const said =
      record.status === 'stopped' && intent !== undefined
        ? `it needed your approval of "${intent.slice(0, 240)}" and nobody was at the browser, so it was stopped there, not approved: run it again from Deputy's panel`
        : (record.agent?.outcome?.summary ?? record.agent?.endReason ?? record.error?.message ?? '');
    void this.deps
      .notify({ id: `schedule-run:${record.id}`, title: `Deputy: scheduled run ${record.status.replaceAll('_', ' ')}`, message: `${record.text.slice(0, 120)}${said ? ` — ${said.slice(0, 400)}` : ''}` })
      .catch(() => undefined);
  }

  handlers(): Pick<UiHandlers, ScheduleMethod> {
    return {
      'routine.schedule': (params) => this.add(params),
      'routine.schedules': () => this.list(),
      'routine.unschedule': async ({ id }) => ({ deleted: await this.remove(id) }),
      'routine.notices': async () => (await this.deps.notices?.()) ?? [],
      'routine.runDue': async ({ known }) => ({ ran: await this.runDue(known), schedules: await this.list() }),
    };
  }
}
