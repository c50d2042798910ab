import { withFollowUp } from '../../../shared/agent/run-agent';
import { AppError, toErrorShape } from '../../../shared/errors';
import type { ObservedDownload } from '../../../shared/agent/environment';
import type { ApprovalDecision, TaskFile, TaskFileInput, TaskRecord } from '../../../shared/protocol';
import { redactTask } from './found-secrets';
import { callCount } from './refind-task-tab';
import { runTaskAgent } from './task-agent-run';
import { TaskAsks } from './task-asks';
import { rebindTask, resumeAllTasks } from './task-restart';
import type { StartTask, TaskCore, TaskRunnerDeps } from './task-runner-deps';
import { PAUSABLE, isActive, siteOf } from './task-status';

export type { FoundSecrets } from './found-secrets';
export type { StartTask, TaskRunnerDeps } from './task-runner-deps';
export { filesNote, isActive, siteOf } from './task-status';

/**
 * Runs web tasks in the background, one per tab and several tabs at once. chrome.storage holds the truth: every step
 * is persisted before and after its side effect, so a stopped service worker resumes each active task from its last
 * step. What lives only in memory are the handles of runs in this worker: their abort signals and the answers they
 * are waiting for, which a restarted worker rebuilds by resuming (a pending approval is asked again).
 *
 * This file is the task's lifecycle (start, follow-up, pause, resume, stop); its parts are beside it: the agent run
 * (task-agent-run.ts), approvals and questions (task-asks.ts), resuming after a restart (task-restart.ts), the values
 * redaction found (found-secrets.ts) and what a record says about itself (task-status.ts).
 */
export class TaskRunner {
  private readonly runs = new Map<string, AbortController>();
  /** Settles once the tasks interrupted by a stop of the worker or the browser run again. */
  private ready: Promise<void> = Promise.resolve();
  /** Loops held at a pause, by task id: calling one lets its loop go on. */
  private readonly held = new Map<string, () => void>();
  private readonly core: TaskCore;
  private readonly asks: TaskAsks;

  constructor(private readonly deps: TaskRunnerDeps) {
    this.core = { deps, change: (taskId, mutate) => this.change(taskId, mutate) };
    this.asks = new TaskAsks(this.core, this.runs);
  }

  get pendingApprovals(): number {
    return this.asks.pendingApprovals;
  }

  async start(input: StartTask): Promise<TaskRecord> {
    const session = await this.deps.browserSession();
    await this.refuseBusyTab(input.tabId, session);
    const url = await this.deps.tabUrl(input.tabId);
    if (url === undefined) throw new AppError('not_found', `Tab ${input.tabId} is gone.`);
    const settings = await this.deps.settings.get();
    if (!settings.provider) {
      throw new AppError('bad_config', 'Choose a model provider in Settings first (or run a local model server and pick it there).');
    }
    const now = this.deps.now();
    const id = this.deps.newId();
    const files = await this.attach(id, input.files ?? []);
    const record: TaskRecord = {
      id,
      tabId: input.tabId,
      flow: input.flow,
      // Only the redacted task is stored or exported: every card number, IBAN, SSN, key and password the user wrote
      // becomes a placeholder here, its value kept in session memory for the task to type it back.
      text: await redactTask(this.deps.secrets, id, input.text, settings),
      mode: input.mode ?? settings.defaultMode,
      site: siteOf(url),
      status: 'queued',
      createdAt: now,
      updatedAt: now,
      agent: null,
      approval: null,
      question: null,
      error: null,
      stopRequested: false,
      tabSession: session,
      pageUrl: url,
      pauseRequested: false,
      facts: input.flow === 'chat' ? (input.facts ?? {}) : {},
      chat: null,
      ...(files.length > 0 ? { files } : {}),
      // A replay opens its address as its first step (see RoutineRun.open), with its site approved from the start.
      ...(input.url === undefined ? {} : input.routine ? { site: siteOf(input.url) } : { startUrl: input.url, site: siteOf(input.url), pageUrl: input.url }),
      ...(input.routine ? { routine: input.routine, routineParams: input.params ?? {} } : {}),
      ...(input.schedule ? { schedule: input.schedule } : {}),
    };
    // A replay's secret values are the task's from the start, like those its text held: in session memory only.
    if (input.secrets && Object.keys(input.secrets).length > 0) await this.deps.secrets.save(id, { ...(await this.deps.secrets.load(id)), ...input.secrets });
    await this.deps.tasks.save(record);
    this.deps.onUpdate(record);
    void this.run(record, input.url ?? url);
    return record;
  }

  /** Refuses a tab another task works in. A task from before a browser restart names a tab id of that session: it says nothing about this tab. */
  private async refuseBusyTab(tabId: number, session: string, except?: string): Promise<void> {
    const busy = (await this.deps.tasks.list({ tabId })).find((r) => r.id !== except && isActive(r) && (r.tabSession === undefined || r.tabSession === session));
    if (busy?.status === 'paused') throw new AppError('busy', 'A paused task holds this tab: resume it or stop it first.');
    if (busy) throw new AppError('busy', 'A task is already running in this tab: stop it or wait for it to finish.');
  }

  /**
   * Continues an ended task with the user's follow-up: in the same tab, with everything the model was told and did so
   * far, and the follow-up after it. Saved before it runs, so a panel opened again shows it, and a stopped worker resumes it.
   */
  async continue(taskId: string, text: string): Promise<TaskRecord> {
    await this.ready;
    const record = await this.deps.tasks.get(taskId);
    if (!record) throw new AppError('not_found', 'That task is gone (it was deleted): start a new one.');
    if (isActive(record) || this.runs.has(taskId)) throw new AppError('busy', 'The task is still working: wait for it to finish, or stop it, before you write a follow-up.');
    if (!record.agent) throw new AppError('bad_request', 'This task ended before Deputy looked at the page, so there is nothing to continue: start it as a new task.');
    const session = await this.deps.browserSession();
    await this.refuseBusyTab(record.tabId, session, taskId);
    if (record.tabSession === session && (await this.deps.tabUrl(record.tabId)) === undefined) {
      throw new AppError('not_found', "The task's tab was closed: start a new task on the page you want.");
    }
    const settings = await this.deps.settings.get();
    if (!settings.provider) throw new AppError('bad_config', 'Choose a model provider in Settings first (or run a local model server and pick it there).');
    const agent = withFollowUp(record.agent, await redactTask(this.deps.secrets, taskId, text, settings, record), this.deps.now());
    let updated = await this.change(taskId, (r) => ({ ...r, agent, status: 'queued', error: null, stopRequested: false, pauseRequested: false, approval: null, question: null, chat: null }));
    if (!updated) throw new AppError('not_found', 'That task is gone (it was deleted): start a new one.');
    // After a browser restart the task's tab id names a tab of the old session: it finds its page again first.
    if (record.tabSession !== session) {
      const owned = new Set((await this.deps.tasks.list()).filter((r) => isActive(r) && r.tabSession === session).map((r) => r.tabId));
      updated = await rebindTask(this.core, updated, session, owned).catch(async (error: unknown) => {
        await this.change(taskId, (r) => ({ ...r, status: 'failed', error: toErrorShape(error) }));
        throw error;
      });
    }
    void this.run(updated, await this.startUrlOf(updated));
    return updated;
  }

  /** Files given by path are taken as they are; the bytes of files chosen in the panel are kept apart from the record. */
  private async attach(taskId: string, inputs: TaskFileInput[]): Promise<TaskFile[]> {
    const files: TaskFile[] = [];
    for (const input of inputs) {
      const file = { name: input.name, size: input.size, type: input.type ?? '' };
      if ('path' in input) files.push({ ...file, path: input.path });
      else if (!this.deps.keepFile) throw new AppError('unavailable', 'Files cannot be attached here.');
      else files.push({ ...file, stored: await this.deps.keepFile(taskId, input.name, input.base64) });
    }
    return files;
  }

  /** Records what the task downloaded (the side panel and `npm run task` report it). */
  async setDownloads(taskId: string, downloads: ObservedDownload[]): Promise<void> {
    await this.change(taskId, (r) => ({ ...r, downloads }));
  }

  /**
   * Resumes every task that was working when the worker or the browser stopped (see task-restart.ts). Called once when
   * the worker starts. Returns how many were resumed.
   */
  resumeInterrupted(): Promise<number> {
    const resuming = resumeAllTasks(this.core, {
      isRunning: (taskId) => this.runs.has(taskId),
      run: (record, startUrl) => void this.run(record, startUrl),
      startUrlOf: (record) => this.startUrlOf(record),
    }).finally(() => void this.pruneHistory());
    this.ready = resuming.then(
      () => undefined,
      () => undefined,
    );
    return resuming;
  }

  /** Asks a working task to hold before its next action; its status turns 'paused' once it holds. */
  async pause(taskId: string): Promise<TaskRecord> {
    const current = await this.deps.tasks.get(taskId);
    if (!current) throw new AppError('not_found', 'No such task.');
    if (!isActive(current)) throw new AppError('bad_request', 'The task has ended: there is nothing to pause.');
    if (current.stopRequested) throw new AppError('bad_request', 'The task is stopping: there is nothing left to pause.');
    if (current.status === 'paused' || current.pauseRequested) return current;
    if (!PAUSABLE.has(current.status)) throw new AppError('bad_request', 'The task is already waiting for you: answer its card, or stop it.');
    return (await this.change(taskId, (r) => ({ ...r, pauseRequested: true }))) ?? current;
  }

  /** Lets a paused task go on from the point where it held, without doing again anything it had done. */
  async resume(taskId: string): Promise<TaskRecord> {
    const current = await this.deps.tasks.get(taskId);
    if (!current) throw new AppError('not_found', 'No such task.');
    if (current.status !== 'paused' && !current.pauseRequested) throw new AppError('bad_request', 'The task is not paused: nothing to resume.');
    const updated = await this.change(taskId, (r) => ({ ...r, pauseRequested: false, status: r.status === 'paused' ? 'running' : r.status }));
    const release = this.held.get(taskId);
    if (release) {
      this.held.delete(taskId);
      release();
    } else if (current.status === 'paused' && !this.runs.has(taskId) && updated) {
      // The worker restarted while the task was paused: its loop goes on from the saved state.
      this.deps.log.info('resuming paused task', { taskId, steps: updated.agent?.steps.length ?? 0 });
      void this.run(updated, await this.startUrlOf(updated));
    }
    return updated ?? current;
  }

  async stop(taskId: string): Promise<TaskRecord> {
    const record = await this.change(taskId, (r) => ({ ...r, stopRequested: true }));
    if (!record) throw new AppError('not_found', 'No such task.');
    this.runs.get(taskId)?.abort();
    this.held.get(taskId)?.();
    this.held.delete(taskId);
    this.asks.answerStopped(record);
    if (!this.runs.has(taskId) && isActive(record)) {
      return (await this.change(taskId, (r) => ({ ...r, status: 'stopped', approval: null, question: null }))) ?? record;
    }
    return record;
  }

  async approve(taskId: string, approvalId: string, decision: ApprovalDecision, note?: string): Promise<TaskRecord> {
    // A card restored after a restart may be answered before its task has resumed: wait for that first.
    await this.ready;
    return this.asks.approve(taskId, approvalId, decision, note);
  }

  async answer(taskId: string, questionId: string, answer: string): Promise<TaskRecord> {
    await this.ready;
    return this.asks.answer(taskId, questionId, answer);
  }

  private async run(record: TaskRecord, startUrl: string): Promise<void> {
    const controller = new AbortController();
    this.runs.set(record.id, controller);
    const taskId = record.id;
    try {
      await runTaskAgent(this.core, record, startUrl, {
        signal: controller.signal,
        approve: (request) => this.asks.waitForApproval(taskId, request),
        askUser: (question) => this.asks.waitForAnswer(taskId, question),
        untilResumed: (beforeHold) => this.untilResumed(taskId, beforeHold),
        note: (text) => this.note(taskId, text),
      });
    } catch (error) {
      this.deps.log.warn('task failed', { taskId, error: String(error) });
      await this.change(taskId, (r) => ({ ...r, status: 'failed', error: toErrorShape(error), approval: null, question: null }));
    } finally {
      this.runs.delete(taskId);
      // The task no longer runs here: its tabs are the user's again.
      await this.deps.egress?.end(taskId).catch((error: unknown) => this.deps.log.warn('egress guard not ended', { taskId, error: String(error) }));
    }
    await this.pruneHistory();
  }

  /** Deletes old finished tasks past the history limits in the settings; called as tasks end and when the worker starts. */
  async pruneHistory(): Promise<number> {
    try {
      const settings = await this.deps.settings.get();
      const deleted = await this.deps.tasks.prune({ maxTasks: settings.historyMaxTasks, maxDays: settings.historyMaxDays }, this.deps.now());
      if (deleted > 0) this.deps.log.info('old tasks deleted', { deleted });
      return deleted;
    } catch (error) {
      this.deps.log.warn('history not pruned', { error: String(error) });
      return 0;
    }
  }

  /** Adds a line among the task's steps for something Deputy did outside the model's own steps (a cookie banner answered). */
  async addNote(taskId: string, text: string): Promise<void> {
    await this.note(taskId, text);
  }

  /** Adds a line among the task's steps for something that happened outside the model's own steps. */
  private async note(taskId: string, text: string): Promise<void> {
    await this.change(taskId, (r) => ({ ...r, notes: [...(r.notes ?? []), { at: this.deps.now(), afterCalls: callCount(r.agent), text }] }));
  }

  /** Holds the loop while the user has paused the task; settles at once when they have not. */
  private async untilResumed(taskId: string, beforeHold: () => Promise<void>): Promise<void> {
    const record = await this.deps.tasks.get(taskId);
    if (!record?.pauseRequested || record.stopRequested) return;
    await beforeHold();
    await new Promise<void>((resolve) => {
      this.held.set(taskId, resolve);
      // A resume that came in between the read above and this change has cleared the request: go on at once.
      void this.change(taskId, (r) => (r.pauseRequested && !r.stopRequested ? { ...r, status: 'paused' } : r)).then((updated) => {
        if (updated && (!updated.pauseRequested || updated.stopRequested)) {
          this.held.delete(taskId);
          resolve();
        }
      });
    });
  }

  private async startUrlOf(record: TaskRecord): Promise<string> {
    return record.agent?.startUrl ?? record.startUrl ?? record.pageUrl ?? (await this.deps.tabUrl(record.tabId)) ?? '';
  }

  private async change(taskId: string, mutate: (record: TaskRecord) => TaskRecord): Promise<TaskRecord | undefined> {
    const updated = await this.deps.tasks.update(taskId, (record) => ({ ...mutate(record), updatedAt: this.deps.now() }));
    if (updated) this.deps.onUpdate(updated);
    return updated;
  }
}
