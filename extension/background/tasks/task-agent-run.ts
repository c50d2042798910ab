import { type AgentState, isFinished } from '../../../shared/agent/agent-state';
import type { ApprovalAnswer, ApprovalRequest } from '../../../shared/agent/approval';
import { chatSystemPrompt } from '../../../shared/agent/chat-prompt';
import type { AgentEnvironment, Screenshot } from '../../../shared/agent/environment';
import { createRedactor } from '../../../shared/agent/redactor';
import { buildCaseFile, carryReminders } from '../../../shared/agent/support-case';
import { draftSending } from '../../../shared/agent/support-draft-sending';
import { extractPromises } from '../../../shared/agent/support-promises';
import { createRiskClassifier } from '../../../shared/agent/risk-classifier';
import { resumeAgent, startAgent, type AgentDeps } from '../../../shared/agent/run-agent';
import type { TraceRecord } from '../../../shared/agent/trace';
import { taskTools } from '../../../shared/agent/task-tools';
import { AppError } from '../../../shared/errors';
import type { ChatCaseResult, TaskRecord } from '../../../shared/protocol';
import type { ChatCaseEnvironment } from '../chat/chat-case-environment';
import type { TabEnvironment } from '../page/tab-environment';
import { watchRoutine, type RoutineWatch } from '../routines/routine-watch';
import { foundOnPages, runVault } from './found-secrets';
import type { TaskCore } from './task-runner-deps';
import { filesNote, siteOf, statusOf, waitsForApproval } from './task-status';
import { createThinkingFeed } from './thinking-feed';

/** What one run of a task gets from the runner: its stop signal, the user's answers, its pause, its notes. */
export interface RunHooks {
  signal: AbortSignal;
  approve(request: ApprovalRequest): Promise<ApprovalAnswer>;
  askUser(question: string): Promise<string>;
  /** Holds while the user has paused the task; `beforeHold` saves what the task holds first. */
  untilResumed(beforeHold: () => Promise<void>): Promise<void>;
  note(text: string): Promise<void>;
}

/**
 * One run of a task's agent loop, from its first step or from the last one saved: the environment (the tab, or a
 * support chat and the page around it), the tools, the gate's policy, the vault, and every step saved as it goes.
 * Ends with the task's final state saved (and a chat case's result); throws what stopped it otherwise.
 */
export async function runTaskAgent(core: TaskCore, record: TaskRecord, startUrl: string, hooks: RunHooks): Promise<void> {
  const { deps } = core;
  const taskId = record.id;
  const settings = await deps.settings.get();
  if (!settings.provider) throw new AppError('bad_config', 'Choose a model provider in Settings first.');
  const vault = await runVault(deps.secrets, record, settings);
  if (record.flow === 'chat' && !deps.chatEnvironment) throw new AppError('unavailable', 'Support chats cannot be automated here.');
  const chatCase = record.flow === 'chat' ? (deps.chatEnvironment?.(record.tabId, record) ?? null) : null;
  let environment: AgentEnvironment & Pick<TabEnvironment, 'currentTabId'> & Partial<Pick<TabEnvironment, 'act'>>;
  if (chatCase) {
    environment = chatCase;
  } else {
    const web = deps.environment(record.tabId, record);
    // An action decided before a restart names elements by the numbers of a snapshot this worker never took.
    const last = record.agent?.steps.at(-1);
    if (last?.calls.some((call) => call.status === 'proposed' || call.status === 'awaiting_approval' || call.status === 'started')) {
      web.restoreRefs(last.observation.url, last.observation.elements);
    }
    environment = web;
  }
  // A web task keeps the identity of each element it acts on (for "save as a routine"); a replay answers from its routine.
  const watch: RoutineWatch | null = chatCase ? null : watchRoutine(environment, deps.provider(settings.provider), record);
  const routineOf = (): Partial<TaskRecord> => (watch ? { targets: { ...watch.targets }, ...(watch.run ? { routine: structuredClone(watch.run) } : {}) } : {});
  const facts = record.facts;
  const redactor = createRedactor(vault, { emails: settings.redactEmails, phones: settings.redactPhones });
  /** Promise messages a screenshot was kept of: message id -> step. */
  const promiseShots = new Map<string, number>();
  /** The case file as it stands: new promises get a screenshot of the chat that shows them, once each. */
  const caseSoFar = async (chat: ChatCaseEnvironment, state: AgentState, options: { open: boolean }): Promise<ChatCaseResult> => {
    const seen = chat.caseSoFar();
    const promises = extractPromises(seen.messages);
    for (const promise of promises) {
      if (promiseShots.has(promise.messageId)) continue;
      promiseShots.set(promise.messageId, state.steps.length);
      const shot = await chat.capture?.().catch(() => undefined);
      if (shot) await deps.tasks.saveScreenshot(taskId, { step: state.steps.length, ...shot, at: deps.now() }).catch((error: unknown) => deps.log.warn('promise screenshot not kept', { taskId, error: String(error) }));
      else promiseShots.delete(promise.messageId);
    }
    const outcome = options.open ? 'in progress' : (state.outcome?.label ?? (state.status === 'completed' ? 'agreed' : state.status));
    const summary = options.open ? 'The case is still running.' : (state.outcome?.summary ?? state.endReason ?? 'The case ended without a summary.');
    return buildCaseFile({ goal: record.text, messages: seen.messages, vendor: seen.vendor, facts: facts ?? {}, escalations: seen.escalations, promiseShots, promises, redact: (text) => redactor.redact(text), outcome, summary, open: options.open, ...(seen.written ? { written: { ...seen.written, sending: draftSending(state.steps.flatMap((step) => step.calls)) } } : {}) });
  };
  const thinking = createThinkingFeed(taskId, (event) => deps.onThinking?.(event), deps.now);
  // The diff page view is for web tasks: a support chat's prompt does not explain it and its tools have no full_page.
  const pageView = chatCase ? 'full' : settings.pageView;
  const provider = watch?.provider ?? deps.provider(settings.provider);
  // The tools follow the task's facts, decided here once for the whole run: its files, the model, the page view.
  const offered = taskTools<AgentEnvironment>({
    flow: chatCase ? 'chat' : 'web',
    attachedFiles: record.files?.length ?? 0,
    vision: provider.vision,
    screenshotsEachStep: settings.screenshots,
    pageView,
  });
  const agentDeps: AgentDeps<AgentEnvironment> = {
    environment,
    tools: chatCase ? offered.tools : [...offered.tools, ...((await deps.externalTools?.()) ?? [])],
    withheldTools: offered.withheld,
    ...(settings.riskClassifier ? { riskClassifier: createRiskClassifier(deps.provider(settings.provider)) } : {}),
    ...(chatCase ? { systemPrompt: (input) => chatSystemPrompt({ ...input, facts }) } : {}),
    provider,
    policy: { mode: record.mode, approveEachStep: settings.approveEachStep, allowedSites: settings.allowedSites, deniedSites: settings.deniedSites, allowedFacts: facts },
    vault,
    redaction: { emails: settings.redactEmails, phones: settings.redactPhones },
    approve: (request) => hooks.approve(request),
    askUser: (question) => hooks.askUser(question),
    persist: async (state: AgentState) => {
      await deps.secrets.save(taskId, foundOnPages(vault, settings));
      const pageUrl = await deps.tabUrl(environment.currentTabId());
      // A chat case shows as ended only with its result (what was agreed, the transcript), saved together below.
      const ended = chatCase !== null && isFinished(state.status);
      // A case's file is saved at every step, so it outlives the chat closing, the tab crashing or this worker.
      const caseFile = chatCase && !ended ? await caseSoFar(chatCase, state, { open: true }) : null;
      await core.change(taskId, (r) => {
        // A card restored after a restart stays only while its call still waits; a gate that now decides otherwise drops it.
        const approval = r.approval && waitsForApproval(state, r.approval.callId) ? r.approval : null;
        // A task that started on a browser page belongs to the first site it reached (see the policy gate).
        const site = /^https?:/i.test(state.startUrl) ? siteOf(state.startUrl) : r.site;
        const next = { ...r, ...routineOf(), agent: state, approval, site, ...(pageUrl ? { pageUrl } : {}), ...(caseFile ? { chat: carryReminders(r.chat, caseFile) } : {}) };
        return { ...next, status: ended ? r.status : statusOf(state, next) };
      });
    },
    trace: (line: TraceRecord) => {
      void deps.tasks.appendTrace(taskId, line);
      thinking.trace(line);
    },
    onReplyText: (delta) => thinking.text(delta),
    now: deps.now,
    shouldStop: () => hooks.signal.aborted,
    untilResumed: (beforeHold) => hooks.untilResumed(beforeHold),
    signal: hooks.signal,
    // A scheduled run has its own cap: the lower of it and the user's cap for every task holds.
    limits: { maxSteps: settings.stepBudget, ...costCap(settings.maxCostUsd, record.schedule?.costCapUsd) },
    screenshots: settings.screenshots,
    pageView,
    ...(settings.stepScreenshots && !chatCase
      ? {
          keepScreenshot: (step: number, shot: Screenshot) => {
            deps.tasks.saveScreenshot(taskId, { step, ...shot, at: deps.now() }).catch((error: unknown) => deps.log.warn('screenshot not kept', { taskId, error: String(error) }));
          },
        }
      : {}),
    logger: deps.log,
  };
  // A task resumed with a card or a question still shown keeps that status until it asks again.
  await core.change(taskId, (r) => ({ ...r, status: r.approval ? 'awaiting_approval' : r.question ? 'awaiting_user' : 'running' }));
  // A task given an address opens it first; however that goes (a slow or failing site), the model sees the result.
  if (!record.agent && record.startUrl !== undefined) {
    const opened = await environment.act?.({ kind: 'navigate', url: record.startUrl }, { signal: hooks.signal });
    if (opened) await hooks.note(opened.ok ? `Opened ${record.startUrl} to start the task.` : `Opened ${record.startUrl} to start the task: ${opened.message}`);
  }
  const final = record.agent
    ? await resumeAgent(agentDeps, record.agent)
    : await startAgent(agentDeps, { taskId, task: record.text + filesNote(record.files ?? []), startUrl });
  // A chat case shows as ended with its file, read once more from the chat (what was agreed, the whole transcript).
  if (chatCase) await chatCase.finalState().catch(() => null);
  const chat = chatCase ? await caseSoFar(chatCase, final, { open: false }) : null;
  await core.change(taskId, (r) => ({ ...r, ...routineOf(), agent: final, status: final.status, approval: null, question: null, ...(chat ? { chat: carryReminders(r.chat, chat) } : {}) }));
}

function costCap(everyTask: number | null, scheduled: number | undefined): { maxCostUsd?: number } {
  const caps = [everyTask ?? undefined, scheduled].filter((cap): cap is number => cap !== undefined);
  return caps.length === 0 ? {} : { maxCostUsd: Math.min(...caps) };
}
