import { open, readFile, rm } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import type { ParamsOf, ResultOf, TaskRecord, UiMethods } from '../../shared/protocol';
import { dueSchedules, toHostSchedule, type HostSchedule } from '../../shared/routines/host-schedules';
import { readSchedulesFile, writeSchedulesFile } from './schedules-file';

/** A browser started on the user's profile with the extension, driven over its "ui" channel as the side panel does. */
export interface ScheduleBrowser {
  call<K extends keyof UiMethods & string>(method: K, params: ParamsOf<UiMethods, K>): Promise<ResultOf<UiMethods, K>>;
  close(): Promise<void>;
}

export interface RunDueDeps {
  /** The host's copy of the schedules (see schedules-file). */
  file: string;
  /** Held while a run-due runs, so two started by the timer at once never run a schedule twice. */
  lockFile: string;
  now(): number;
  /** Starts the browser; throws a `ProfileBusy` AppError ('busy') when the browser is already open on the profile. */
  openBrowser(): Promise<ScheduleBrowser>;
  say(line: string): void;
  sleep(ms: number): Promise<void>;
  pidAlive(pid: number): boolean;
  pid: number;
  /** How long one run may take before it is stopped (default 30 min). */
  runTimeoutMs?: number;
  /** Only this schedule (its id, as `deputy schedules list` shows it): an id the file does not hold is an error. */
  only?: string;
}

export interface RunDueResult {
  exitCode: number;
  /** What each due run came to: `completed`, a task's end status, `waiting for approval`, or why it did not start. */
  outcomes: { id: string; label: string; outcome: string; taskId: string | null }[];
}

const ENDED = new Set(['completed', 'failed', 'stopped', 'handed_to_user']);
const POLL_MS = 500;
const NOTICE_WAIT_MS = 10_000;

/**
 * `deputy schedules run-due`: runs, with no browser of the user's open, every schedule whose time has come (a missed one
 * once). Safe to call as often as a timer likes: with nothing due it starts no browser, a second call while one runs
 * does nothing, and a run moves its schedule's next time on before it starts, so a run is never started twice. The
 * runs are the extension's own (its gate, its egress guard, History); a run that needs the user's approval or answer
 * is stopped and said, never approved: nobody is at this browser to be asked.
 */
export async function runDue(deps: RunDueDeps): Promise<RunDueResult> {
  const saved = await readSchedulesFile(deps.file);
  if (deps.only !== undefined && !saved.schedules.some((s) => s.id === deps.only)) {
    const known = saved.schedules.map((s) => `${s.id} (${s.label})`);
    throw new AppError(
      'not_found',
      `No schedule ${deps.only} in ${deps.file}: ${known.length > 0 ? `its schedules are ${known.join(', ')}` : 'it holds no schedule'}. Run deputy schedules list to see them; a schedule set in the browser since comes here when Deputy next connects to the host.`,
    );
  }
  const due = dueSchedules(saved.schedules, deps.now()).filter((s) => deps.only === undefined || s.id === deps.only);
  if (due.length === 0) {
    const next = saved.schedules.filter((s) => s.nextAt !== null).sort((a, b) => (a.nextAt ?? 0) - (b.nextAt ?? 0))[0];
    deps.say(next ? `Nothing is due. Next: ${next.label} at ${new Date(next.nextAt ?? 0).toLocaleString()}.` : `Nothing is due: no schedule is set (${deps.file}).`);
    return { exitCode: 0, outcomes: [] };
  }
  if (!(await takeLock(deps))) return { exitCode: 0, outcomes: [] };
  try {
    return await runInBrowser(deps, due);
  } finally {
    await rm(deps.lockFile, { force: true });
  }
}

async function runInBrowser(deps: RunDueDeps, due: HostSchedule[]): Promise<RunDueResult> {
  deps.say(`${due.length} scheduled run${due.length === 1 ? ' is' : 's are'} due: starting the browser.`);
  let browser: ScheduleBrowser;
  try {
    browser = await deps.openBrowser();
  } catch (error) {
    if (error instanceof AppError && error.code === 'busy') {
      deps.say(`${error.message} Nothing ran and nothing is lost: while that browser is open its Deputy runs the due schedules itself; once it is closed, the next run-due runs them.`);
      return { exitCode: 0, outcomes: [] };
    }
    throw error;
  }
  try {
    const known = due.map((s) => ({ id: s.id, ...(s.lastTaskId !== undefined ? { lastTaskId: s.lastTaskId } : {}) }));
    const { ran: all, schedules } = await browser.call('routine.runDue', { known });
    const ran = all.filter((run) => deps.only === undefined || run.id === deps.only);
    // The extension's schedules are the truth: the host's copy takes their next times now, before the runs end.
    await writeSchedulesFile(deps.file, schedules.map(toHostSchedule), deps.now());
    const outcomes: RunDueResult['outcomes'] = [];
    for (const run of ran) {
      if (run.taskId === null) {
        deps.say(`${run.label}: did not run. ${run.error ?? ''}`.trim());
        outcomes.push({ id: run.id, label: run.label, outcome: `not started: ${run.error ?? ''}`, taskId: null });
        continue;
      }
      const outcome = await watch(deps, browser, run.taskId);
      await noticeKept(deps, browser, run.taskId);
      deps.say(`${run.label}: ${outcome} (in History as task ${run.taskId}).`);
      outcomes.push({ id: run.id, label: run.label, outcome, taskId: run.taskId });
    }
    if (ran.length === 0) deps.say('Nothing was due any more: the browser had run it already.');
    return { exitCode: outcomes.every((o) => o.outcome === 'completed') ? 0 : 1, outcomes };
  } finally {
    await browser.close();
  }
}

/** Follows a run to its end; one that stops for the user is stopped (never approved), and the reason is its outcome. */
async function watch(deps: RunDueDeps, browser: ScheduleBrowser, taskId: string): Promise<string> {
  const deadline = deps.now() + (deps.runTimeoutMs ?? 30 * 60_000);
  for (;;) {
    const record: TaskRecord | null = await browser.call('task.get', { taskId });
    if (!record) return 'gone from History';
    if (ENDED.has(record.status)) {
      const said = record.agent?.endReason ?? record.error?.message ?? '';
      return record.status === 'completed' && record.agent?.outcome?.success !== false ? 'completed' : `${record.status.replaceAll('_', ' ')}${said ? `: ${said}` : ''}`;
    }
    const waitingFor = record.approval ? `your approval of "${record.approval.intent}"` : record.question ? `your answer to "${record.question.text}"` : record.status === 'awaiting_user' || record.status === 'paused' ? 'you' : null;
    if (waitingFor !== null || deps.now() > deadline) {
      await browser.call('task.stop', { taskId }).catch(() => undefined);
      return waitingFor !== null
        ? `waits for ${waitingFor}; nobody is at the browser, so it was stopped, not approved: run it from Deputy's panel`
        : 'stopped: it ran past its time';
    }
    await deps.sleep(POLL_MS);
  }
}

/**
 * The run's end is told as a notification, which the extension also keeps (it shows it again when the browser next
 * starts): the browser is closed only once that record is written, or after a few seconds without it.
 */
async function noticeKept(deps: RunDueDeps, browser: ScheduleBrowser, taskId: string): Promise<void> {
  const deadline = deps.now() + NOTICE_WAIT_MS;
  while (deps.now() < deadline) {
    const notices = await browser.call('routine.notices', {});
    if (notices.some((n) => n.id === `schedule-run:${taskId}`)) return;
    await deps.sleep(100);
  }
  deps.say(`(The notice of task ${taskId} was not kept in time: its result is in History.)`);
}

/** The lock holds the pid of the run that took it; one left by a run that died is taken over. */
async function takeLock(deps: RunDueDeps): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(deps.lockFile, 'wx', 0o600);
      await handle.writeFile(String(deps.pid));
      await handle.close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(deps.lockFile, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && deps.pidAlive(holder)) {
        deps.say(`Another run-due (pid ${holder}) is running the due schedules: nothing to do.`);
        return false;
      }
      await rm(deps.lockFile, { force: true });
    }
  }
  throw new AppError('busy', `The lock ${deps.lockFile} could not be taken: remove it if no run-due is running.`);
}
