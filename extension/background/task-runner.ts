import type { AgentState } from '../../shared/agent/agent-state';
import type { ApprovalAnswer, ApprovalRequest } from '../../shared/agent/approval';
import { controlTools } from '../../shared/agent/control-tools';
import type { Provider } from '../../shared/agent/providers/provider';
import { resumeAgent, startAgent, type AgentDeps } from '../../shared/agent/run-agent';
import { createSecretVault } from '../../shared/agent/secret-vault';
import type { TraceRecord } from '../../shared/agent/trace';
import { webTools } from '../../shared/agent/web-tools';
import { AppError, toErrorShape } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { ApprovalDecision, Flow, Settings, TaskMode, TaskRecord, TaskStatus, TaskThinking } from '../../shared/protocol';
import type { SettingsStore } from './settings-store';
import type { TabEnvironment } from './tab-environment';
import type { TaskStore } from './task-store';
import { createThinkingFeed } from './thinking-feed';

/**
 * Values redaction found on pages during a task (a card number it saw, ...), kept so a resumed task can still type
 * `{{redacted_card_1}}`. They live in session storage, apart from the task: never on disk, never sent to the panel.
 */
export interface FoundSecrets {
  load(taskId: string): Promise<Record<string, string>>;
  save(taskId: string, entries: Record<string, string>): Promise<void>;
}

export interface TaskRunnerDeps {
  tasks: TaskStore;
  secrets: FoundSecrets;
  settings: SettingsStore;
  /** The tab the task starts on: its URL names the task's site. */
  tabUrl: (tabId: number) => Promise<string | undefined>;
  environment: (tabId: number) => TabEnvironment;
  provider: (settings: NonNullable<Settings['provider']>) => Provider;
  now: () => number;
  newId: () => string;
  log: Logger;
  /** Every change to a task, for the side panel, the popup and the toolbar badge. */
  onUpdate: (record: TaskRecord) => void;
  /** The model's text while it writes, for a live view; never stored. */
  onThinking?: (thinking: TaskThinking) => void;
}

export interface StartTask {
  tabId: number;
  text: string;
  mode?: TaskMode | undefined;
  flow: Flow;
}

const ACTIVE: ReadonlySet<TaskStatus> = new Set(['queued', 'running', 'paused', 'awaiting_approval', 'awaiting_user']);
/** A task can be paused only while it works on its own: a pending approval or question already holds it. */
const PAUSABLE: ReadonlySet<TaskStatus> = new Set(['queued', 'running']);

export function isActive(record: TaskRecord): boolean {
  return ACTIVE.has(record.status);
}

/**
 * Runs web tasks in the background, one per tab and several tabs at once. chrome.storage holds the truth: every step
 * is persisted before and after its side effect, so a stopped service worker resumes each active task from its last
 * step. What lives only in memory are the handles of runs in this worker: their abort signals and the answers they
 * are waiting for, which a restarted worker rebuilds by resuming (a pending approval is asked again).
 */
export class TaskRunner {
  private readonly runs = new Map<string, AbortController>();
  private readonly approvals = new Map<string, (answer: ApprovalAnswer) => void>();
  private readonly questions = new Map<string, (answer: string) => void>();
  /** Loops held at a pause, by task id: calling one lets its loop go on. */
  private readonly held = new Map<string, () => void>();

  constructor(private readonly deps: TaskRunnerDeps) {}

  get pendingApprovals(): number {
    return this.approvals.size;
  }

  async start(input: StartTask): Promise<TaskRecord> {
    const busy = (await this.deps.tasks.list({ tabId: input.tabId })).find(isActive);
    if (busy?.status === 'paused') throw new AppError('busy', 'A paused task holds this tab: resume it or stop it first.');
    if (busy) throw new AppError('busy', 'A task is already running in this tab: stop it or wait for it to finish.');
    const url = await this.deps.tabUrl(input.tabId);
    if (url === undefined) throw new AppError('not_found', `Tab ${input.tabId} is gone.`);
    const settings = await this.deps.settings.get();
    if (!settings.provider) {
      throw new AppError('bad_config', 'Choose a model provider in Settings first (or run a local model server and pick it there).');
    }
    const now = this.deps.now();
    const record: TaskRecord = {
      id: this.deps.newId(),
      tabId: input.tabId,
      flow: input.flow,
      text: input.text,
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
      pauseRequested: false,
    };
    await this.deps.tasks.save(record);
    this.deps.onUpdate(record);
    void this.run(record, url);
    return record;
  }

  /**
   * Resumes every task that was working when the worker stopped; called once when the worker starts. A paused task
   * stays paused until the user resumes it. Returns how many were resumed.
   */
  async resumeInterrupted(): Promise<number> {
    const active = (await this.deps.tasks.list()).filter((record) => isActive(record) && !this.runs.has(record.id));
    let resumed = 0;
    for (const record of active) {
      if (record.stopRequested) {
        await this.change(record.id, (r) => ({ ...r, status: 'stopped', approval: null, question: null }));
        continue;
      }
      if (record.status === 'paused') continue;
      this.deps.log.info('resuming task', { taskId: record.id, steps: record.agent?.steps.length ?? 0 });
      void this.run(record, await this.startUrlOf(record));
      resumed += 1;
    }
    return resumed;
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
    if (record.approval) this.approvals.get(record.approval.id)?.({ approved: false, note: 'The user stopped the task.' });
    if (record.question) this.questions.get(record.question.id)?.('The user stopped the task.');
    if (!this.runs.has(taskId) && isActive(record)) {
      return (await this.change(taskId, (r) => ({ ...r, status: 'stopped', approval: null, question: null }))) ?? record;
    }
    return record;
  }

  async approve(taskId: string, approvalId: string, decision: ApprovalDecision, note?: string): Promise<TaskRecord> {
    const record = await this.deps.tasks.get(taskId);
    const resolve = this.approvals.get(approvalId);
    if (!record || record.approval?.id !== approvalId || !resolve) {
      throw new AppError('not_found', 'That approval is no longer pending (the task moved on or was restarted): answer the card shown now.');
    }
    if (decision === 'approve_site') await this.deps.settings.allowSite(siteOf(record.approval.url));
    this.approvals.delete(approvalId);
    const updated = await this.change(taskId, (r) => ({ ...r, approval: null, status: 'running' }));
    resolve({ approved: decision !== 'reject', ...(note ? { note } : {}) });
    return updated ?? record;
  }

  async answer(taskId: string, questionId: string, answer: string): Promise<TaskRecord> {
    const record = await this.deps.tasks.get(taskId);
    const resolve = this.questions.get(questionId);
    if (!record || record.question?.id !== questionId || !resolve) {
      throw new AppError('not_found', 'That question is no longer pending: answer the one shown now.');
    }
    this.questions.delete(questionId);
    const updated = await this.change(taskId, (r) => ({ ...r, question: null, status: 'running' }));
    resolve(answer);
    return updated ?? record;
  }

  private async run(record: TaskRecord, startUrl: string): Promise<void> {
    const controller = new AbortController();
    this.runs.set(record.id, controller);
    const taskId = record.id;
    try {
      const settings = await this.deps.settings.get();
      if (!settings.provider) throw new AppError('bad_config', 'Choose a model provider in Settings first.');
      const vault = createSecretVault({ entries: { ...settings.personalData, ...(await this.deps.secrets.load(taskId)) } });
      const environment = this.deps.environment(record.tabId);
      const thinking = createThinkingFeed(taskId, (event) => this.deps.onThinking?.(event), this.deps.now);
      const agentDeps: AgentDeps<TabEnvironment> = {
        environment,
        tools: [...webTools, ...controlTools<TabEnvironment>()],
        provider: this.deps.provider(settings.provider),
        policy: { mode: record.mode, allowedSites: settings.allowedSites, deniedSites: settings.deniedSites },
        vault,
        redaction: { emails: settings.redactEmails, phones: settings.redactPhones },
        approve: (request) => this.waitForApproval(taskId, request),
        askUser: (question) => this.waitForAnswer(taskId, question),
        persist: async (state: AgentState) => {
          const found = Object.fromEntries(Object.entries(vault.contents().entries).filter(([name]) => !(name in settings.personalData)));
          await this.deps.secrets.save(taskId, found);
          await this.change(taskId, (r) => ({ ...r, agent: state, status: statusOf(state, r) }));
        },
        trace: (line: TraceRecord) => {
          void this.deps.tasks.appendTrace(taskId, line);
          thinking.trace(line);
        },
        onReplyText: (delta) => thinking.text(delta),
        now: this.deps.now,
        shouldStop: () => controller.signal.aborted,
        untilResumed: () => this.untilResumed(taskId),
        signal: controller.signal,
        limits: { maxSteps: settings.stepBudget },
        screenshots: settings.screenshots,
        logger: this.deps.log,
      };
      await this.change(taskId, (r) => ({ ...r, status: 'running' }));
      const final = record.agent
        ? await resumeAgent(agentDeps, record.agent)
        : await startAgent(agentDeps, { taskId, task: record.text, startUrl });
      await this.change(taskId, (r) => ({ ...r, agent: final, status: final.status, approval: null, question: null }));
    } catch (error) {
      this.deps.log.warn('task failed', { taskId, error: String(error) });
      await this.change(taskId, (r) => ({ ...r, status: 'failed', error: toErrorShape(error), approval: null, question: null }));
    } finally {
      this.runs.delete(taskId);
    }
  }

  /** Holds the loop while the user has paused the task; settles at once when they have not. */
  private async untilResumed(taskId: string): Promise<void> {
    const record = await this.deps.tasks.get(taskId);
    if (!record?.pauseRequested || record.stopRequested) return;
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
    return record.agent?.startUrl ?? (await this.deps.tabUrl(record.tabId)) ?? '';
  }

  private waitForApproval(taskId: string, request: ApprovalRequest): Promise<ApprovalAnswer> {
    const id = this.deps.newId();
    return new Promise((resolve) => {
      this.approvals.set(id, resolve);
      const { step, callId, tool, intent, classes, reason, url } = request;
      void this.change(taskId, (r) => ({
        ...r,
        status: 'awaiting_approval',
        approval: { id, step, callId, tool, intent, classes, reason, url, askedAt: this.deps.now() },
      }));
    });
  }

  private waitForAnswer(taskId: string, question: string): Promise<string> {
    const id = this.deps.newId();
    return new Promise((resolve) => {
      this.questions.set(id, resolve);
      void this.change(taskId, (r) => ({ ...r, status: 'awaiting_user', question: { id, text: question, askedAt: this.deps.now() } }));
    });
  }

  private async change(taskId: string, mutate: (record: TaskRecord) => TaskRecord): Promise<TaskRecord | undefined> {
    const updated = await this.deps.tasks.update(taskId, (record) => ({ ...mutate(record), updatedAt: this.deps.now() }));
    if (updated) this.deps.onUpdate(updated);
    return updated;
  }
}

/** While an approval or question is pending, that is the task's status, whatever the loop last saved. */
function statusOf(state: AgentState, record: TaskRecord): TaskStatus {
  if (record.approval && state.status === 'running') return 'awaiting_approval';
  if (record.question && state.status === 'running') return 'awaiting_user';
  return state.status;
}

export function siteOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
