import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Page } from 'puppeteer-core';
import type { ApprovalDecision, TaskRecord } from '../../shared/protocol';
import { browserAt } from '../lib/find-browser';
import { launchWithExtension, preloadBrowserLibrary, type ExtensionBrowser } from '../lib/launch-browser';
import { ControlPage } from './control-page';
import { formatEvent } from './event-format';
import { EXIT, ExitError } from './exit-codes';
import { checkModelServer } from './model-preflight';
import { newRunDir } from './run-dir';
import { type TaskEvent, taskEvents } from './task-events';
import type { TaskOptions } from './task-flags';

export interface TaskIo {
  write(line: string): void;
  /** Asks the person at the terminal; absent when nobody is there (no TTY). Rejects when `signal` aborts. */
  ask?: (question: string, signal: AbortSignal) => Promise<string>;
}

/** Points where a caller (the end-to-end tests) may look at the browser while the task runs and before it closes. */
export interface TaskHooks {
  onLaunched?(browser: ExtensionBrowser): Promise<void> | void;
  /** The task's tab before the task starts on it (an evaluation loads and seeds its page here). */
  beforeStart?(target: Page): Promise<void> | void;
  beforeClose?(target: Page, record: TaskRecord): Promise<void> | void;
}

export interface TaskRun {
  exitCode: number;
  record: TaskRecord;
  runDir: string;
}

const FINISHED = new Set(['completed', 'failed', 'stopped', 'handed_to_user']);
/** How long a stopped task may take to say it stopped before the run ends without its last word. */
const STOP_GRACE_MS = 15_000;

/**
 * Runs one task through the same path the side panel uses: the model server is checked first, then Chromium starts
 * with the built extension (in a profile of its own or the user's), the task is started on a tab of its own (opening
 * `--url` first when given), and the background is driven over the "ui" port from the extension's own panel page.
 * Each step is reported as it happens; the redacted trace, a screenshot of each step and the final task record go to
 * runs/<time>/. An abort of `signal` (Ctrl-C) stops the task, saves what it did, and ends with exit 130.
 */
export async function runTask(options: TaskOptions, io: TaskIo, hooks: TaskHooks = {}, signal?: AbortSignal): Promise<TaskRun> {
  const emit = (event: TaskEvent): void => {
    if (options.json) io.write(JSON.stringify(event));
    else for (const line of formatEvent(event)) io.write(line);
  };
  if (!existsSync('dist/manifest.json')) throw new ExitError('The extension is not built: run `npm run build` first.', EXIT.browser);
  const executablePath = options.browser === undefined ? undefined : browserAt(options.browser, '--browser');
  // The browser library is read while the model server is checked: the browser itself starts only after the check.
  preloadBrowserLibrary();
  // A replay needs the model only to repair a step: a server that is down is worth a warning, not a refusal.
  const preflight = await checkModelServer(options.provider, { hostRules: options.hostRules }).catch((error: unknown) => {
    if (options.routine === undefined) throw error;
    return { warning: `${error instanceof Error ? error.message : String(error)} The routine runs without it; a step that no longer fits will fail.` };
  });
  if (preflight.warning) emit({ type: 'info', message: `warning: ${preflight.warning}` });
  if (signal?.aborted) throw new ExitError('Interrupted before the browser started.', EXIT.interrupted);

  let ext: ExtensionBrowser;
  try {
    ext = await launchWithExtension({
      headless: !options.headful,
      ...(options.profile === undefined ? {} : { userDataDir: options.profile }),
      ...(executablePath === undefined ? {} : { executablePath }),
      ...(options.hostRules === undefined ? {} : { hostRules: options.hostRules }),
    });
  } catch (error) {
    throw new ExitError(`The browser could not be started: ${error instanceof Error ? error.message : String(error)}`, EXIT.browser);
  }
  try {
    // A tab of the task's own, told apart by a fragment nobody else uses (a kept profile may restore other tabs). The
    // blank tab the browser opened with is that tab, rather than a second one beside it (a renderer the task never uses).
    // Driven from a blank page of the extension over the side panel's own port, without the panel's interface. Both
    // are made ready while the extension's worker starts; the first call over the port is what waits for the worker.
    const blank = `about:blank#deputy-${randomUUID()}`;
    const tabReady = ext.blankTab().then(async (page) => {
      await page.goto(blank);
      return page;
    });
    const controlReady = ext.openExtensionPage('extension/control/index.html').then((page) => ControlPage.open(page));
    // Waited for below; a failure of one while the other is awaited is not left unhandled meanwhile.
    tabReady.catch(() => undefined);
    const control = await controlReady;
    await hooks.onLaunched?.(ext);
    if (signal?.aborted) throw new ExitError('Interrupted before the task started.', EXIT.interrupted);
    const target = await tabReady;
    const tabs = await control.page.evaluate(() => chrome.tabs.query({}));
    const tabId = tabs.find((tab) => tab.url === blank)?.id;
    if (tabId === undefined) throw new Error('The task tab could not be found in the browser');
    await hooks.beforeStart?.(target);
    await target.bringToFront();
    return await drive({ options, io, hooks, signal, emit, ext, target, control, tabId });
  } finally {
    await ext.close();
  }
}

interface DriveContext {
  options: TaskOptions;
  io: TaskIo;
  hooks: TaskHooks;
  signal: AbortSignal | undefined;
  emit: (event: TaskEvent) => void;
  ext: ExtensionBrowser;
  target: Page;
  control: ControlPage;
  tabId: number;
}

async function drive(context: DriveContext): Promise<TaskRun> {
  const { options, io, emit, control, signal } = context;
  // In a kept profile the user's own settings are put back afterwards, so the key given for this run is not left there.
  const savedSettings = options.profile === undefined ? undefined : await control.page.evaluate(async () => (await chrome.storage.local.get('settings')).settings as unknown);
  await control.call('settings.set', {
    provider: options.provider,
    defaultMode: options.mode,
    screenshots: options.screenshots,
    pageView: options.pageView ?? 'diff',
    ...(options.steps === undefined ? {} : { stepBudget: options.steps }),
    maxCostUsd: options.maxCost ?? null,
  });
  const events = taskEvents(emit);
  const answered = new Set<string>();
  const asking = new AbortController();
  let latest: TaskRecord | undefined;
  let taskId = '';
  let settle: (record: TaskRecord | undefined) => void = () => undefined;
  const finished = new Promise<TaskRecord | undefined>((resolve) => (settle = resolve));

  const onRecord = (record: TaskRecord): void => {
    if (record.id !== taskId || (latest && record.updatedAt < latest.updatedAt)) return;
    latest = record;
    events.update(record);
    void respond(record);
    if (FINISHED.has(record.status)) settle(record);
  };
  const respond = async (record: TaskRecord): Promise<void> => {
    const approval = record.approval;
    if (approval && !answered.has(approval.id)) {
      answered.add(approval.id);
      const { decision, by } = await decide(options, io, `Approve "${approval.intent}"? (${approval.reason})`, asking.signal, approval.siteApproval ?? null);
      if (asking.signal.aborted) return;
      emit({ type: 'decision', approvalId: approval.id, intent: approval.intent, decision, by });
      await control.call('task.approve', { taskId, approvalId: approval.id, decision }).catch((error: unknown) => emit({ type: 'info', message: `  (approval not taken: ${String(error)})` }));
    }
    const question = record.question;
    if (question && !answered.has(question.id)) {
      answered.add(question.id);
      const answer = io.ask
        ? await io.ask(`The agent asks: ${question.text}\n> `, asking.signal).catch(() => undefined)
        : 'Nobody is at the keyboard: decide with what you know, or finish and say what is missing.';
      if (answer === undefined || asking.signal.aborted) return;
      await control.call('task.answer', { taskId, questionId: question.id, answer }).catch((error: unknown) => emit({ type: 'info', message: `  (answer not taken: ${String(error)})` }));
    }
  };
  control.onTask(onRecord);
  const onDisconnect = (): void => {
    emit({ type: 'error', message: 'The browser closed before the task ended.' });
    settle(latest);
  };
  context.ext.browser.on('disconnected', onDisconnect);

  let interrupted = false;
  const interrupt = (): void => {
    if (interrupted) return;
    interrupted = true;
    asking.abort();
    emit({ type: 'info', message: 'Stopping the task (Ctrl-C)…' });
    if (taskId) void control.call('task.stop', { taskId }).catch(() => undefined);
    // A background that no longer answers must not hold the terminal.
    setTimeout(() => settle(latest), STOP_GRACE_MS).unref();
  };
  signal?.addEventListener('abort', interrupt, { once: true });

  try {
    const started = options.routine !== undefined ? await startRoutine(context, options.routine) : await control.call('task.start', {
      tabId: context.tabId,
      text: options.task,
      mode: options.mode,
      flow: options.flow,
      ...(options.url === undefined ? {} : { url: options.url }),
      ...(options.flow === 'chat' ? { facts: options.facts } : {}),
      files: options.files.map(({ name, size, type, path }) => ({ name, size, type, path })),
    });
    taskId = started.id;
    emit({ type: 'start', taskId, site: started.site, url: options.url ?? null, mode: options.mode });
    if (interrupted) void control.call('task.stop', { taskId }).catch(() => undefined);
    // Events carry every change; a slow poll covers the moments the worker restarts between them.
    const poll = setInterval(() => {
      void control.call('task.get', { taskId }).then((record) => record && onRecord(record), () => undefined);
    }, 2000);
    const record = (await finished.finally(() => clearInterval(poll))) ?? started;
    asking.abort();
    await keepRoutine(context, record);
    return await saveRun(context, record, interrupted);
  } finally {
    signal?.removeEventListener('abort', interrupt);
    context.ext.browser.off('disconnected', onDisconnect);
    if (options.profile !== undefined && context.ext.browser.connected) {
      await control.page
        .evaluate(async (saved) => (saved === undefined ? chrome.storage.local.remove('settings') : chrome.storage.local.set({ settings: saved })), savedSettings)
        .catch(() => undefined);
    }
  }
}

/** Imports the routine file into the browser's Deputy and starts its replay; an edited file is said to be one. */
async function startRoutine(context: DriveContext, file: string): Promise<TaskRecord> {
  const { control, emit, options } = context;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ExitError(`The routine file ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`, EXIT.usage);
  }
  const imported = await control.call('routine.import', { text }).catch((error: unknown) => {
    throw new ExitError(error instanceof Error ? error.message : String(error), EXIT.usage);
  });
  const routine = imported.routine.routine;
  emit({ type: 'info', message: `Routine "${routine.name}": ${routine.steps.length} steps on ${routine.sites.join(', ') || 'no site'}${imported.note ? ` — ${imported.note}` : ''}` });
  return control.call('routine.run', { id: imported.routine.id, tabId: context.tabId, params: options.params ?? {} }).catch((error: unknown) => {
    throw new ExitError(error instanceof Error ? error.message : String(error), EXIT.usage);
  });
}

/** --save-routine writes the finished task as a routine file; a replay's repairs are offered, or written with --update-routine. */
async function keepRoutine(context: DriveContext, record: TaskRecord): Promise<void> {
  const { control, emit, options } = context;
  const write = async (id: string, path: string | undefined): Promise<string> => {
    const file = await control.call('routine.export', { id });
    const target = path ?? join(options.routinesDir ?? 'routines', file.fileName);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.text);
    return target;
  };
  if (options.saveRoutine !== undefined) {
    try {
      const saved = await control.call('routine.save', { taskId: record.id, name: options.saveRoutine });
      const path = await write(saved.id, undefined);
      emit({ type: 'info', message: `Saved the routine "${saved.routine.name}" to ${path} (parameters: ${saved.routine.params.map((p) => p.name).join(', ') || 'none'}).` });
    } catch (error) {
      emit({ type: 'error', message: `The routine was not saved: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  const run = record.routine;
  if (!run) return;
  emit({ type: 'info', message: `Routine replay: ${run.done} of ${run.steps.length} steps, ${run.modelCalls} model call${run.modelCalls === 1 ? '' : 's'}, ${run.repairs.length} repaired.` });
  if (run.repairs.length === 0) return;
  if (!options.updateRoutine || options.routine === undefined) {
    emit({ type: 'info', message: `The model repaired ${run.repairs.map((r) => `step ${r.step + 1}`).join(', ')}: run again with --update-routine to keep the repair in the file.` });
    return;
  }
  const updated = await control.call('routine.update', { taskId: record.id });
  emit({ type: 'info', message: `Updated ${await write(updated.id, options.routine)} with the repaired steps.` });
}

/** Writes the trace, the screenshots and the task record to runs/<time>/ and reports the end. */
async function saveRun(context: DriveContext, record: TaskRecord, interrupted: boolean): Promise<TaskRun> {
  const { options, control, emit } = context;
  const runDir = await newRunDir(options.runsDir, new Date().toISOString().replace(/[:.]/g, '-'));
  await writeFile(join(runDir, 'task.json'), `${JSON.stringify(record, null, 2)}\n`);
  const alive = context.ext.browser.connected;
  const trace = alive ? await control.call('task.trace', { taskId: record.id }).catch(() => undefined) : undefined;
  if (trace) await writeFile(join(runDir, 'trace.jsonl'), trace.jsonl);
  const shots = alive ? await control.call('task.screenshots', { taskId: record.id }).catch(() => []) : [];
  for (const shot of shots) {
    await writeFile(join(runDir, `step-${String(shot.step + 1).padStart(3, '0')}.jpg`), Buffer.from(shot.base64, 'base64'));
  }
  const outcome = record.agent?.outcome;
  const success = record.status === 'completed' && outcome?.success === true;
  const exitCode = interrupted ? EXIT.interrupted : success ? EXIT.success : EXIT.notDone;
  await context.hooks.beforeClose?.(context.target, record);
  emit({
    type: 'end',
    taskId: record.id,
    status: record.status,
    success,
    summary: success ? outcome.summary : (record.agent?.endReason ?? record.error?.message ?? outcome?.summary ?? 'no reason given'),
    usage: record.agent?.usage ?? null,
    chat: record.chat,
    downloads: record.downloads ?? [],
    runDir,
    trace: trace ? join(runDir, 'trace.jsonl') : null,
    records: trace?.records ?? 0,
    screenshots: shots.length,
    exitCode,
  });
  return { exitCode, record, runDir };
}

async function decide(
  options: TaskOptions,
  io: TaskIo,
  question: string,
  signal: AbortSignal,
  site: string | null,
): Promise<{ decision: ApprovalDecision; by: 'user' | 'flag' | 'nobody' }> {
  if (options.approve === 'all') return { decision: 'approve', by: 'flag' };
  if (options.approve === 'none') return { decision: 'reject', by: 'flag' };
  if (!io.ask) return { decision: 'reject', by: 'nobody' };
  // "Approve for site" is offered only where the step allows it (a low-risk step), for its destination, in this task.
  const choices = site ? `[y]es / [n]o / [s]ite: allow ${site.replace(/^https?:\/\//, '')} for the rest of this task` : '[y]es / [n]o';
  const answer = await io.ask(`${question} ${choices} > `, signal).catch(() => '');
  const text = answer.trim().toLowerCase();
  return { decision: site && text.startsWith('s') ? 'approve_site' : text.startsWith('y') ? 'approve' : 'reject', by: 'user' };
}
