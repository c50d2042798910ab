import { type AgentState, isFinished } from '../../shared/agent/agent-state';
import type { ApprovalAnswer, ApprovalRequest } from '../../shared/agent/approval';
import { chatSystemPrompt } from '../../shared/agent/chat-prompt';
import { chatAgentTools } from '../../shared/agent/chat-tools';
import { controlTools } from '../../shared/agent/control-tools';
import type { AgentEnvironment } from '../../shared/agent/environment';
import { createRedactor } from '../../shared/agent/redactor';
import type { Provider } from '../../shared/agent/providers/provider';
import { resumeAgent, startAgent, type AgentDeps } from '../../shared/agent/run-agent';
import { createSecretVault } from '../../shared/agent/secret-vault';
import type { TraceRecord } from '../../shared/agent/trace';
import { webTools } from '../../shared/agent/web-tools';
import { AppError, toErrorShape } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { ApprovalDecision, ChatCaseResult, ChatFacts, Flow, Settings, TaskMode, TaskRecord, TaskStatus } from '../../shared/protocol';
import type { ChatCaseEnvironment } from './chat-case-environment';
import type { SettingsStore } from './settings-store';
import type { TabEnvironment } from './tab-environment';
import type { TaskStore } from './task-store';

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
  /** A support-chat case on the tab: the chat and the page around it. */
  chatEnvironment?: (tabId: number) => ChatCaseEnvironment;
  provider: (settings: NonNullable<Settings['provider']>) => Provider;
  now: () => number;
  newId: () => string;
  log: Logger;
  /** Every change to a task, for the side panel, the popup and the toolbar badge. */
  onUpdate: (record: TaskRecord) => void;
}

export interface StartTask {
  tabId: number;
  text: string;
  mode?: TaskMode | undefined;
  flow: Flow;
  /** For a support chat: the facts Deputy may share with support. */
  facts?: ChatFacts | undefined;
}

const ACTIVE: ReadonlySet<TaskStatus> = new Set(['queued', 'running', 'awaiting_approval', 'awaiting_user']);

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

  constructor(private readonly deps: TaskRunnerDeps) {}

  get pendingApprovals(): number {
    return this.approvals.size;
  }

  async start(input: StartTask): Promise<TaskRecord> {
    const busy = (await this.deps.tasks.list({ tabId: input.tabId })).find(isActive);
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
      facts: input.flow === 'chat' ? (input.facts ?? {}) : {},
      chat: null,
    };
    await this.deps.tasks.save(record);
    this.deps.onUpdate(record);
    void this.run(record, url);
    return record;
  }

  /** Resumes every task that was active when the worker stopped. Called once when the worker starts. */
  async resumeInterrupted(): Promise<number> {
    const active = (await this.deps.tasks.list()).filter((record) => isActive(record) && !this.runs.has(record.id));
    for (const record of active) {
      if (record.stopRequested) {
        await this.change(record.id, (r) => ({ ...r, status: 'stopped', approval: null, question: null }));
        continue;
      }
      this.deps.log.info('resuming task', { taskId: record.id, steps: record.agent?.steps.length ?? 0 });
      void this.run(record, record.agent?.startUrl ?? (await this.deps.tabUrl(record.tabId)) ?? '');
    }
    return active.length;
  }

  async stop(taskId: string): Promise<TaskRecord> {
    const record = await this.change(taskId, (r) => ({ ...r, stopRequested: true }));
    if (!record) throw new AppError('not_found', 'No such task.');
    this.runs.get(taskId)?.abort();
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
      if (record.flow === 'chat' && !this.deps.chatEnvironment) throw new AppError('unavailable', 'Support chats cannot be automated here.');
      const chatCase = record.flow === 'chat' ? (this.deps.chatEnvironment?.(record.tabId) ?? null) : null;
      const environment: TabEnvironment = chatCase ?? this.deps.environment(record.tabId);
      const facts = record.facts;
      const agentDeps: AgentDeps<AgentEnvironment> = {
        environment,
        tools: chatCase ? chatAgentTools() : [...webTools, ...controlTools<TabEnvironment>()],
        ...(chatCase ? { systemPrompt: (input) => chatSystemPrompt({ ...input, facts }) } : {}),
        provider: this.deps.provider(settings.provider),
        policy: { mode: record.mode, allowedSites: settings.allowedSites, deniedSites: settings.deniedSites, allowedFacts: facts },
        vault,
        redaction: { emails: settings.redactEmails, phones: settings.redactPhones },
        approve: (request) => this.waitForApproval(taskId, request),
        askUser: (question) => this.waitForAnswer(taskId, question),
        persist: async (state: AgentState) => {
          const found = Object.fromEntries(Object.entries(vault.contents().entries).filter(([name]) => !(name in settings.personalData)));
          await this.deps.secrets.save(taskId, found);
          // A chat case shows as ended only with its result (what was agreed, the transcript), saved together below.
          const ended = chatCase !== null && isFinished(state.status);
          await this.change(taskId, (r) => ({ ...r, agent: state, status: ended ? r.status : statusOf(state, r) }));
        },
        trace: (line: TraceRecord) => void this.deps.tasks.appendTrace(taskId, line),
        now: this.deps.now,
        shouldStop: () => controller.signal.aborted,
        signal: controller.signal,
        limits: { maxSteps: settings.stepBudget },
        screenshots: settings.screenshots,
        logger: this.deps.log,
      };
      await this.change(taskId, (r) => ({ ...r, status: 'running' }));
      const final = record.agent
        ? await resumeAgent(agentDeps, record.agent)
        : await startAgent(agentDeps, { taskId, task: record.text, startUrl });
      const chat = chatCase ? await this.caseResult(chatCase, final, createRedactor(vault, { emails: settings.redactEmails, phones: settings.redactPhones })) : null;
      await this.change(taskId, (r) => ({ ...r, agent: final, status: final.status, approval: null, question: null, ...(chat ? { chat } : {}) }));
    } catch (error) {
      this.deps.log.warn('task failed', { taskId, error: String(error) });
      await this.change(taskId, (r) => ({ ...r, status: 'failed', error: toErrorShape(error), approval: null, question: null }));
    } finally {
      this.runs.delete(taskId);
    }
  }

  /** What a chat case leaves in history: its outcome, the summary of what was agreed, and the transcript, redacted. */
  private async caseResult(chat: ChatCaseEnvironment, final: AgentState, redactor: ReturnType<typeof createRedactor>): Promise<ChatCaseResult> {
    const state = await chat.finalState().catch(() => null);
    const outcome = final.outcome?.label ?? (final.status === 'completed' ? 'agreed' : final.status);
    const summary = final.outcome?.summary ?? final.endReason ?? 'The case ended without a summary.';
    return {
      outcome,
      summary,
      vendor: state?.vendor ?? null,
      transcript: (state?.messages ?? []).map((message) => ({ author: message.author, text: redactor.redact(message.text) })),
    };
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
