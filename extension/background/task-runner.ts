import { type AgentState, isFinished } from '../../shared/agent/agent-state';
import type { ApprovalAnswer, ApprovalRequest } from '../../shared/agent/approval';
import { chatSystemPrompt } from '../../shared/agent/chat-prompt';
import { chatAgentTools } from '../../shared/agent/chat-tools';
import { controlTools } from '../../shared/agent/control-tools';
import type { AgentEnvironment, Screenshot } from '../../shared/agent/environment';
import { createRedactor } from '../../shared/agent/redactor';
import { createRiskClassifier } from '../../shared/agent/risk-classifier';
import type { Provider } from '../../shared/agent/providers/provider';
import { resumeAgent, startAgent, withFollowUp, type AgentDeps } from '../../shared/agent/run-agent';
import { countersAfter, createSecretVault, foundNamesIn, refuseUnknownFound } from '../../shared/agent/secret-vault';
import type { TraceRecord } from '../../shared/agent/trace';
import type { AnyTool } from '../../shared/agent/tool';
import { webTools } from '../../shared/agent/web-tools';
import { AppError, toErrorShape } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { ObservedDownload } from '../../shared/agent/environment';
import type { ApprovalDecision, ChatCaseResult, ChatFacts, Flow, Settings, TaskFile, TaskFileInput, TaskMode, TaskRecord, TaskStatus, TaskThinking } from '../../shared/protocol';
import type { ChatCaseEnvironment } from './chat-case-environment';
import { callCount, refindTaskTab, restartNote, skipCallsOnLostInput, taskPageUrl, type TaskTabPorts } from './refind-task-tab';
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
  /** The task's tab environment: its input goes through the task's debugger attachment, its uploads take its files, and
   * its requests pass the task's egress guard. */
  environment: (tabId: number, task: Pick<TaskRecord, 'id' | 'files'>) => TabEnvironment;
  /** A support-chat case on the tab: the chat and the page around it. */
  chatEnvironment?: (tabId: number, task: Pick<TaskRecord, 'id' | 'files'>) => ChatCaseEnvironment;
  /** Ends a task's egress guard (its browser rules) once the task stops running here; keeps only the listed tasks'. */
  egress?: { end(taskId: string): Promise<void>; retain(taskIds: readonly string[]): Promise<void> };
  provider: (settings: NonNullable<Settings['provider']>) => Provider;
  now: () => number;
  newId: () => string;
  log: Logger;
  /** Every change to a task, for the side panel, the popup and the toolbar badge. */
  onUpdate: (record: TaskRecord) => void;
  /** This browser session's id: it lives in session storage, so a browser restart gives a new one. */
  browserSession: () => Promise<string>;
  /** Every open tab, and opening one: a task from before a browser restart finds its page again through these. */
  tabs: TaskTabPorts;
  /** How long a restarted browser may take to restore its tabs before a task's page is opened anew; 2 s by default. */
  restoreGraceMs?: number;
  /** The model's text while it writes, for a live view; never stored. */
  onThinking?: (thinking: TaskThinking) => void;
  /** Tools of the user's MCP servers (through the host), for web tasks; none when the host cannot be reached. */
  externalTools?: () => Promise<AnyTool<TabEnvironment>[]>;
  /** Keeps the bytes of files chosen in the side panel while their task runs; returns the id they are kept under. */
  keepFile?: (taskId: string, name: string, base64: string) => Promise<string>;
}

export interface StartTask {
  tabId: number;
  text: string;
  mode?: TaskMode | undefined;
  flow: Flow;
  /** For a support chat: the facts Deputy may share with support. */
  facts?: ChatFacts | undefined;
  /** An address to open in the tab before the task looks at it. */
  url?: string | undefined;
  /** Files the user attached for the upload tool. */
  files?: TaskFileInput[] | undefined;
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
  /** Answers given to a restored approval card before its resumed task asked again, by task. */
  private readonly earlyAnswers = new Map<string, { step: number; callId: string; answer: ApprovalAnswer }>();
  /** Settles once the tasks interrupted by a stop of the worker or the browser run again. */
  private ready: Promise<void> = Promise.resolve();
  /** Loops held at a pause, by task id: calling one lets its loop go on. */
  private readonly held = new Map<string, () => void>();

  constructor(private readonly deps: TaskRunnerDeps) {}

  get pendingApprovals(): number {
    return this.approvals.size;
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
      text: await this.redactTask(id, input.text, settings),
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
      ...(input.url === undefined ? {} : { startUrl: input.url, site: siteOf(input.url), pageUrl: input.url }),
    };
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
    const agent = withFollowUp(record.agent, await this.redactTask(taskId, text, settings, record), this.deps.now());
    let updated = await this.change(taskId, (r) => ({ ...r, agent, status: 'queued', error: null, stopRequested: false, pauseRequested: false, approval: null, question: null, chat: null }));
    if (!updated) throw new AppError('not_found', 'That task is gone (it was deleted): start a new one.');
    // After a browser restart the task's tab id names a tab of the old session: it finds its page again first.
    if (record.tabSession !== session) {
      const owned = new Set((await this.deps.tasks.list()).filter((r) => isActive(r) && r.tabSession === session).map((r) => r.tabId));
      updated = await this.rebind(updated, session, owned).catch(async (error: unknown) => {
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
   * The task's text (or a follow-up's) with personal data replaced by placeholders; the values found are kept for the
   * task in session memory, beside those it found before (`earlier`), whose placeholders keep their numbers.
   */
  private async redactTask(taskId: string, text: string, settings: Settings, earlier?: TaskRecord): Promise<string> {
    const kept = earlier ? await this.deps.secrets.load(taskId) : {};
    const counters = earlier ? countersAfter([...foundNamesIn(JSON.stringify(earlier.agent)), ...Object.keys(kept)]) : undefined;
    const vault = createSecretVault({ entries: { ...settings.personalData, ...kept }, ...(counters ? { counters } : {}) });
    const redacted = createRedactor(vault, { emails: settings.redactEmails, phones: settings.redactPhones }).redact(text);
    const found = Object.fromEntries(Object.entries(vault.contents().entries).filter(([name]) => !(name in settings.personalData)));
    if (Object.keys(found).length > 0) await this.deps.secrets.save(taskId, found);
    return redacted;
  }

  /**
   * Resumes every task that was working when the worker or the browser stopped. Called once when the worker starts. A
   * task from an earlier browser session first finds its page again, in a tab no other task works in, or reopens it. A
   * paused task stays paused until the user resumes it. Returns how many were resumed.
   */
  resumeInterrupted(): Promise<number> {
    const resuming = this.resumeAll().finally(() => void this.pruneHistory());
    this.ready = resuming.then(
      () => undefined,
      () => undefined,
    );
    return resuming;
  }

  private async resumeAll(): Promise<number> {
    const session = await this.deps.browserSession();
    const records = await this.deps.tasks.list();
    const active = records.filter((record) => isActive(record) && !this.runs.has(record.id));
    // Guards of tasks that ended while no worker ran come off; those of tasks resuming stay in force meanwhile.
    await this.deps.egress?.retain(records.filter(isActive).map((r) => r.id)).catch(() => undefined);
    const owned = new Set(records.filter((r) => isActive(r) && r.tabSession === session).map((r) => r.tabId));
    let resumed = 0;
    for (const record of active) {
      if (record.stopRequested) {
        await this.change(record.id, (r) => ({ ...r, status: 'stopped', approval: null, question: null }));
        continue;
      }
      let current = record;
      if (record.tabSession !== session) {
        try {
          current = await this.rebind(record, session, owned);
        } catch (error) {
          this.deps.log.warn('task lost its page on restart', { taskId: record.id, error: String(error) });
          await this.change(record.id, (r) => ({ ...r, status: 'failed', error: toErrorShape(error), approval: null, question: null }));
          continue;
        }
        owned.add(current.tabId);
      }
      if (current.status === 'paused') continue;
      this.deps.log.info('resuming task', { taskId: record.id, steps: current.agent?.steps.length ?? 0 });
      void this.run(current, await this.startUrlOf(current));
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

  /**
   * Moves a task from a tab of an earlier browser session to one of this session showing its page, and says so among
   * its steps. Calls decided on input the reload lost are skipped (a pending approval with them).
   */
  private async rebind(record: TaskRecord, session: string, owned: ReadonlySet<number>): Promise<TaskRecord> {
    const url = taskPageUrl(record);
    if (url === undefined || url === '') {
      throw new AppError('not_found', 'The browser restarted before this task had looked at its page, so Deputy cannot tell where to continue: start the task again.');
    }
    const tab = await refindTaskTab(this.deps.tabs, { url, previousTabId: record.tabId, owned, graceMs: this.deps.restoreGraceMs ?? 2000 });
    const kept = await this.deps.secrets.load(record.id);
    const forgotten = foundNamesIn(JSON.stringify(record.agent)).filter((name) => !(name in kept)).length;
    const agent = record.agent ? (JSON.parse(JSON.stringify(record.agent)) as typeof record.agent) : null;
    const skipped = agent ? skipCallsOnLostInput(agent) : [];
    const approvalSkipped = record.approval !== null && skipped.some((call) => call.id === record.approval?.callId);
    let text = restartNote(url, tab.how, forgotten);
    if (approvalSkipped) text += ' The action that waited for your approval was not taken: the page was loaded again and lost what had been filled in, so the task looks at it again.';
    this.deps.log.info('task moved to a tab of the restarted browser', { taskId: record.id, how: tab.how, skipped: skipped.length });
    const updated = await this.change(record.id, (r) => ({
      ...r,
      tabId: tab.tabId,
      tabSession: session,
      pageUrl: url,
      ...(skipped.length > 0 ? { agent } : {}),
      ...(approvalSkipped ? { approval: null, status: 'running' as const } : {}),
      notes: [...(r.notes ?? []), { at: this.deps.now(), afterCalls: callCount(r.agent), text }],
    }));
    if (!updated) throw new AppError('not_found', 'The task was deleted while it was being resumed.');
    return updated;
  }

  async stop(taskId: string): Promise<TaskRecord> {
    const record = await this.change(taskId, (r) => ({ ...r, stopRequested: true }));
    if (!record) throw new AppError('not_found', 'No such task.');
    this.runs.get(taskId)?.abort();
    this.held.get(taskId)?.();
    this.held.delete(taskId);
    if (record.approval) this.approvals.get(record.approval.id)?.({ approved: false, stopped: true, note: 'The user stopped the task.' });
    if (record.question) this.questions.get(record.question.id)?.('The user stopped the task.');
    if (!this.runs.has(taskId) && isActive(record)) {
      return (await this.change(taskId, (r) => ({ ...r, status: 'stopped', approval: null, question: null }))) ?? record;
    }
    return record;
  }

  async approve(taskId: string, approvalId: string, decision: ApprovalDecision, note?: string): Promise<TaskRecord> {
    // A card restored after a restart may be answered before its task has resumed: wait for that first.
    await this.ready;
    const record = await this.deps.tasks.get(taskId);
    const resolve = this.approvals.get(approvalId);
    const approval = record?.approval;
    // A resumed task that has not asked again yet takes the answer when it does (it asks with the same card).
    const early = !resolve && this.runs.has(taskId);
    if (!record || !approval || approval.id !== approvalId || (!resolve && !early)) {
      throw new AppError('not_found', 'That approval is no longer pending (the task moved on or was restarted): answer the card shown now.');
    }
    // "Approve for site" approves the destination the card names, for this task only, and only for low-risk steps: a
    // payment, an account change or a post of the user's data is approved once or not at all. Sites for every task are
    // added by the user in Settings.
    if (decision === 'approve_site' && !approval.siteApproval) {
      throw new AppError('forbidden', 'This step can only be approved once: "Approve for site" is for low-risk steps such as opening a page. Approve it, or reject it.');
    }
    const answer: ApprovalAnswer = { approved: decision !== 'reject', ...(note ? { note } : {}), ...(decision === 'approve_site' ? { scope: 'site' as const } : {}) };
    this.approvals.delete(approvalId);
    if (!resolve) this.earlyAnswers.set(taskId, { step: approval.step, callId: approval.callId, answer });
    const updated = await this.change(taskId, (r) => ({ ...r, approval: null, status: 'running' }));
    resolve?.(answer);
    return updated ?? record;
  }

  async answer(taskId: string, questionId: string, answer: string): Promise<TaskRecord> {
    await this.ready;
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
      const found = await this.deps.secrets.load(taskId);
      // Values seen before a browser restart were in session storage only: their placeholders are known, not their values.
      const seen = foundNamesIn(JSON.stringify(record.agent));
      const forgotten = new Set(seen.filter((name) => !(name in found)));
      const vault = refuseUnknownFound(
        createSecretVault({ entries: { ...settings.personalData, ...found }, counters: countersAfter([...seen, ...Object.keys(found)]) }),
        (name) =>
          forgotten.has(name)
            ? `{{${name}}} stood for a value seen on a page before the browser restarted. Such values are kept only in memory, so it was forgotten on the restart for safety and was not typed. Read it from the page again, or ask the user for it.`
            : `{{${name}}} is not a value Deputy knows, so nothing was typed: use only placeholders shown on the page or in the instructions.`,
      );
      if (record.flow === 'chat' && !this.deps.chatEnvironment) throw new AppError('unavailable', 'Support chats cannot be automated here.');
      const chatCase = record.flow === 'chat' ? (this.deps.chatEnvironment?.(record.tabId, record) ?? null) : null;
      let environment: AgentEnvironment & Pick<TabEnvironment, 'currentTabId'> & Partial<Pick<TabEnvironment, 'act'>>;
      if (chatCase) {
        environment = chatCase;
      } else {
        const web = this.deps.environment(record.tabId, record);
        // An action decided before a restart names elements by the numbers of a snapshot this worker never took.
        const last = record.agent?.steps.at(-1);
        if (last?.calls.some((call) => call.status === 'proposed' || call.status === 'awaiting_approval' || call.status === 'started')) {
          web.restoreRefs(last.observation.url, last.observation.elements);
        }
        environment = web;
      }
      const facts = record.facts;
      const thinking = createThinkingFeed(taskId, (event) => this.deps.onThinking?.(event), this.deps.now);
      const agentDeps: AgentDeps<AgentEnvironment> = {
        environment,
        tools: chatCase ? chatAgentTools() : [...webTools, ...controlTools<TabEnvironment>(), ...((await this.deps.externalTools?.()) ?? [])],
        ...(settings.riskClassifier ? { riskClassifier: createRiskClassifier(this.deps.provider(settings.provider)) } : {}),
        ...(chatCase ? { systemPrompt: (input) => chatSystemPrompt({ ...input, facts }) } : {}),
        provider: this.deps.provider(settings.provider),
        policy: { mode: record.mode, approveEachStep: settings.approveEachStep, allowedSites: settings.allowedSites, deniedSites: settings.deniedSites, allowedFacts: facts },
        vault,
        redaction: { emails: settings.redactEmails, phones: settings.redactPhones },
        approve: (request) => this.waitForApproval(taskId, request),
        askUser: (question) => this.waitForAnswer(taskId, question),
        persist: async (state: AgentState) => {
          const seenNow = Object.fromEntries(Object.entries(vault.contents().entries).filter(([name]) => !(name in settings.personalData)));
          await this.deps.secrets.save(taskId, seenNow);
          const pageUrl = await this.deps.tabUrl(environment.currentTabId());
          // A chat case shows as ended only with its result (what was agreed, the transcript), saved together below.
          const ended = chatCase !== null && isFinished(state.status);
          await this.change(taskId, (r) => {
            // A card restored after a restart stays only while its call still waits; a gate that now decides otherwise drops it.
            const approval = r.approval && waitsForApproval(state, r.approval.callId) ? r.approval : null;
            // A task that started on a browser page belongs to the first site it reached (see the policy gate).
            const site = /^https?:/i.test(state.startUrl) ? siteOf(state.startUrl) : r.site;
            const next = { ...r, agent: state, approval, site, ...(pageUrl ? { pageUrl } : {}) };
            return { ...next, status: ended ? r.status : statusOf(state, next) };
          });
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
        limits: { maxSteps: settings.stepBudget, ...(settings.maxCostUsd === null ? {} : { maxCostUsd: settings.maxCostUsd }) },
        screenshots: settings.screenshots,
        ...(settings.stepScreenshots && !chatCase
          ? {
              keepScreenshot: (step: number, shot: Screenshot) => {
                this.deps.tasks.saveScreenshot(taskId, { step, ...shot, at: this.deps.now() }).catch((error: unknown) => this.deps.log.warn('screenshot not kept', { taskId, error: String(error) }));
              },
            }
          : {}),
        logger: this.deps.log,
      };
      // A task resumed with a card or a question still shown keeps that status until it asks again.
      await this.change(taskId, (r) => ({ ...r, status: r.approval ? 'awaiting_approval' : r.question ? 'awaiting_user' : 'running' }));
      // A task given an address opens it first; however that goes (a slow or failing site), the model sees the result.
      if (!record.agent && record.startUrl !== undefined) {
        const opened = await environment.act?.({ kind: 'navigate', url: record.startUrl }, { signal: controller.signal });
        if (opened) await this.note(taskId, opened.ok ? `Opened ${record.startUrl} to start the task.` : `Opened ${record.startUrl} to start the task: ${opened.message}`);
      }
      const final = record.agent
        ? await resumeAgent(agentDeps, record.agent)
        : await startAgent(agentDeps, { taskId, task: record.text + filesNote(record.files ?? []), startUrl });
      const chat = chatCase ? await this.caseResult(chatCase, final, createRedactor(vault, { emails: settings.redactEmails, phones: settings.redactPhones })) : null;
      await this.change(taskId, (r) => ({ ...r, agent: final, status: final.status, approval: null, question: null, ...(chat ? { chat } : {}) }));
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

  /** Adds a line among the task's steps for something that happened outside the model's own steps. */
  private async note(taskId: string, text: string): Promise<void> {
    await this.change(taskId, (r) => ({ ...r, notes: [...(r.notes ?? []), { at: this.deps.now(), afterCalls: callCount(r.agent), text }] }));
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
    return record.agent?.startUrl ?? record.startUrl ?? record.pageUrl ?? (await this.deps.tabUrl(record.tabId)) ?? '';
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

  /** Asks the user; a resumed task asking for the same call again shows the same card (same id), not a new one. */
  private async waitForApproval(taskId: string, request: ApprovalRequest): Promise<ApprovalAnswer> {
    const previous = (await this.deps.tasks.get(taskId))?.approval;
    const early = this.earlyAnswers.get(taskId);
    this.earlyAnswers.delete(taskId);
    if (early && early.step === request.step && early.callId === request.callId) return early.answer;
    const same = previous && previous.step === request.step && previous.callId === request.callId ? previous : undefined;
    const id = same?.id ?? this.deps.newId();
    // A stop that came while the card was being looked up found nothing to answer: answer for it here.
    if (this.runs.get(taskId)?.signal.aborted) return { approved: false, stopped: true, note: 'The user stopped the task.' };
    return new Promise((resolve) => {
      this.approvals.set(id, resolve);
      const { step, callId, tool, intent, classes, reason, url, kind, destination, sends, actsOn, consequence, siteApproval } = request;
      const data = { kind, destination, sends, actsOn, consequence, siteApproval };
      const defined = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
      void this.change(taskId, (r) => ({
        ...r,
        status: 'awaiting_approval',
        approval: { id, step, callId, tool, intent, classes, reason, url, ...defined, askedAt: same?.askedAt ?? this.deps.now() },
      }));
    });
  }

  private async waitForAnswer(taskId: string, question: string): Promise<string> {
    const previous = (await this.deps.tasks.get(taskId))?.question;
    const id = previous?.text === question ? previous.id : this.deps.newId();
    if (this.runs.get(taskId)?.signal.aborted) return 'The user stopped the task.';
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

/**
 * Whether the state's last step has this call waiting for the user's approval: before it ran, or while it runs (a
 * request the egress guard held during the step).
 */
function waitsForApproval(state: AgentState, callId: string): boolean {
  return state.steps.at(-1)?.calls.some((call) => call.id === callId && (call.status === 'awaiting_approval' || call.status === 'started')) ?? false;
}

/** While an approval or question is pending, that is the task's status, whatever the loop last saved. */
function statusOf(state: AgentState, record: TaskRecord): TaskStatus {
  if (record.approval && state.status === 'running') return 'awaiting_approval';
  if (record.question && state.status === 'running') return 'awaiting_user';
  return state.status;
}

/** How the model learns which files it may upload: names, sizes and types, never where they are. */
export function filesNote(files: readonly TaskFile[]): string {
  if (files.length === 0) return '';
  const list = files.map((f) => `${f.name} (${f.type || 'file'}, ${f.size} bytes)`).join('; ');
  return `\n\nFiles the user attached for this task (upload them by name with the upload tool): ${list}`;
}

export function siteOf(url: string): string {
  try {
    // A page without a host (a blank tab, a browser page) is named by its address without query or fragment.
    return new URL(url).host || url.replace(/[?#].*$/, '');
  } catch {
    return url;
  }
}
