// Over 400 lines for a reason: the agent loop (start, resume, one step, the gate around each call) is one sequence whose parts share its state; split it only along a real seam.
import { AppError, describeZodError } from '../errors';
import type { Logger } from '../logger';
import { AgentState, type CallRecord, type StepRecord, type TaskOutcome, isFinished, turnStart } from './agent-state';
import type { Approver } from './approval';
import { type PageView, buildPrompt } from './build-prompt';
import type { AgentEnvironment, Screenshot } from './environment';
import { executeCall, pageLookup } from './execute-call';
import { PolicyConfig } from './policy-gate';
import type { Provider } from './providers/provider';
import { costOf } from './providers/pricing';
import { FOLLOW_UP_TO_CONTINUE, costCapReason } from './cost-cap';
import { DEFAULT_RECOVERY_LIMITS, type RecoveryLimits, detectTrouble } from './recovery';
import { type RedactionOptions, createRedactor } from './redactor';
import { settleResumedStep } from './resume-step';
import { egressScopeOf } from './egress-approval';
import type { RiskClassifier } from './risk-classifier';
import { originOf } from './site-list';
import type { SecretVault } from './secret-vault';
import { maskOldObservations, observationRecord, recordReply, skipCall } from './step-record';
import { type SystemPromptInput, webSystemPrompt } from './system-prompt';
import { type AnyTool, parseToolArguments, toToolSchema } from './tool';
import type { ToolGate } from './tool-gate';
import { type MemoryOptions, compactMemory } from './working-memory';
import { type TraceRecord, type TraceSink, toolRecord } from './trace';

export interface AgentLimits {
  maxSteps: number;
  maxDurationMs: number;
  keepObservations: number;
  maxPromptChars: number;
  /**
   * The most a task may spend on the model, in dollars, per turn (the task, then each follow-up): at it the task stops
   * with its state saved, and a follow-up continues it under the cap then in force. Unset: no cap. A model whose price
   * is unknown cannot be held to it (its cost is unknown), and a local one costs nothing.
   */
  maxCostUsd?: number;
  recovery: RecoveryLimits;
}

/** What the model calls of the current turn cost (an unknown price counts as nothing: it cannot be capped). */
function turnCost(state: AgentState): number {
  return state.steps.slice(turnStart(state)).reduce((sum, step) => sum + (step.costUsd ?? 0), 0);
}

export const DEFAULT_AGENT_LIMITS: AgentLimits = {
  maxSteps: 30,
  maxDurationMs: 20 * 60_000,
  keepObservations: 3,
  maxPromptChars: 120_000,
  recovery: DEFAULT_RECOVERY_LIMITS,
};

/** Everything the loop runs with; each part is passed in so tests and both runtimes can supply their own. */
export interface AgentDeps<E extends AgentEnvironment> {
  environment: E;
  tools: AnyTool<E>[];
  /** Deputy's tools this task does not offer, with why (see taskTools): a call to one is told the reason. */
  withheldTools?: Readonly<Record<string, string>>;
  provider: Provider;
  policy: PolicyConfig | Partial<PolicyConfig>;
  vault: SecretVault;
  redaction?: RedactionOptions;
  approve: Approver;
  /** The environment's own gate for its tools (shell commands); the shared policy gate decides the rest. */
  gate?: ToolGate;
  /** Asks the user a question from ask_user; without it the model is told nobody can answer. */
  askUser?: (question: string, signal?: AbortSignal) => Promise<string>;
  /** Stores the state (the task runner writes chrome.storage); called before and after every side effect. */
  persist(state: AgentState): Promise<void>;
  trace?: TraceSink;
  now(): number;
  /** Checked before every observation and every action: a user's stop takes effect before the next action. */
  shouldStop?: () => boolean;
  /**
   * Awaited at the same points as shouldStop: while the user has paused the task it does not settle, so a pause takes
   * effect before the next action and the task goes on from that very point when it settles. Settles at once when the
   * task is not paused. `beforeHold` is called before it holds, so what the task holds is saved (and shown) first.
   */
  untilResumed?: (beforeHold: () => Promise<void>) => Promise<void>;
  signal?: AbortSignal;
  limits?: Partial<Omit<AgentLimits, 'recovery'>> & { recovery?: Partial<RecoveryLimits> };
  /** How the user goes on after the cost cap, for the reason the task records (default: a follow-up in the panel). */
  costCapNext?: string;
  /** Send screenshots (when the environment takes them and the model accepts images). */
  screenshots?: boolean;
  /** How pages after an action are sent: whole (default) or as what changed since the last full page (see buildPrompt). */
  pageView?: PageView;
  /**
   * Keeps a screenshot of each step with the task's trace (the user sees them in the history). When set, every
   * observation asks for one; the model still gets it only when `screenshots` is set and it accepts images.
   */
  keepScreenshot?: (step: number, screenshot: Screenshot) => void;
  systemPrompt?: (input: SystemPromptInput) => string;
  /** An optional second opinion on calls the gate would allow (a setting, off by default); it only adds caution. */
  riskClassifier?: RiskClassifier;
  /**
   * A working memory for long tasks: past the threshold, older steps leave the prompt and a summary stands in for them
   * (the latest `keepSteps` stay verbatim). `recallHint` tells the model how to get their full text back.
   */
  memory?: MemoryOptions & { recallHint?: string };
  /** Streamed reply text as it arrives, for a live view in the side panel. It is not redacted: show it, never log it. */
  onReplyText?: (delta: string) => void;
  logger?: Logger;
}

export interface NewTask {
  taskId: string;
  task: string;
  startUrl: string;
}

/** Starts a task from scratch and runs it to its end. Returns the final state (also persisted). */
export async function startAgent<E extends AgentEnvironment>(deps: AgentDeps<E>, task: NewTask): Promise<AgentState> {
  const redactor = createRedactor(deps.vault, deps.redaction);
  const state: AgentState = {
    version: 1,
    taskId: task.taskId,
    task: redactor.redact(task.task),
    startUrl: task.startUrl,
    status: 'running',
    startedAt: deps.now(),
    plan: null,
    approvedPlan: null,
    approvedOrigins: { sites: [], reach: [] },
    steps: [],
    outcome: null,
    endReason: null,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    waitedMs: 0,
  };
  return runLoop(deps, state, false);
}

/**
 * The saved state of an ended task with the user's follow-up added: the task goes on with everything it did and was
 * told so far, and the follow-up after it. Run it with resumeAgent; the time it stood ended does not count.
 */
export function withFollowUp(saved: unknown, text: string, at: number): AgentState {
  const parsed = AgentState.safeParse(saved);
  if (!parsed.success) throw new AppError('bad_request', `The saved task cannot be continued: ${describeZodError(parsed.error)}`);
  const state = parsed.data;
  return {
    ...state,
    status: 'running',
    outcome: null,
    endReason: null,
    followUps: [...(state.followUps ?? []), { text, beforeStep: state.steps.length, at }],
  };
}

/**
 * Resumes a persisted task from its last step. A call that was started but not recorded as finished is not run again:
 * the model is told it may or may not have happened and sees the page as it is now.
 */
export async function resumeAgent<E extends AgentEnvironment>(deps: AgentDeps<E>, saved: unknown): Promise<AgentState> {
  const parsed = AgentState.safeParse(saved);
  if (!parsed.success) throw new AppError('bad_request', `The saved task cannot be resumed: ${describeZodError(parsed.error)}`);
  return runLoop(deps, parsed.data, true);
}

async function runLoop<E extends AgentEnvironment>(deps: AgentDeps<E>, state: AgentState, resumed: boolean): Promise<AgentState> {
  const limits = { ...DEFAULT_AGENT_LIMITS, ...deps.limits, recovery: { ...DEFAULT_RECOVERY_LIMITS, ...deps.limits?.recovery } };
  const policyParsed = PolicyConfig.safeParse(deps.policy);
  if (!policyParsed.success) throw new AppError('bad_config', `The task's safety settings are invalid: ${describeZodError(policyParsed.error)}`);
  const policy = policyParsed.data;
  const redactor = createRedactor(deps.vault, deps.redaction);
  const tools = deps.tools;
  const schemas = tools.map((t) => toToolSchema(t as AnyTool<never>));
  const system = redactor.redact(
    (deps.systemPrompt ?? webSystemPrompt)({ mode: policy.mode, placeholders: deps.vault.names().filter((n) => !n.startsWith('redacted_')), allowedSites: policy.allowedSites, ...(deps.pageView ? { pageView: deps.pageView } : {}) }),
  );
  const stepOf = (): number => state.steps.length - 1;
  const emit = (record: TraceRecord): void => deps.trace?.(redactor.redactDeep(record));
  // Saves are written one after another, in the order they were made: a save the step does not wait for (the one
  // after a call finished) is still in before any later save, and every awaited save waits for those before it.
  let writing: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    state.updatedAt = deps.now();
    // The copy leaves the screenshot out: a resumed task takes a new one before it asks the model again, and copying
    // (then storing) a few hundred kilobytes of base64 at every save was a large share of a desktop step's cost.
    const copy = JSON.parse(JSON.stringify(state, withoutScreenshots)) as AgentState;
    const written = writing.then(() => deps.persist(copy));
    writing = written.catch(() => undefined);
    return written;
  };
  const save = (): Promise<void> => write();
  /**
   * A save the step goes on without: the record of a finished call, written while the page is looked at again. The
   * model is not asked again before it is in (see writtenBehind), and one that failed fails the task as it did when
   * awaited.
   */
  let behindFailure: { error: unknown } | null = null;
  const saveBehind = (): void => {
    write().catch((error: unknown) => {
      behindFailure ??= { error };
    });
  };
  const writtenBehind = async (): Promise<void> => {
    await writing;
    const failure = behindFailure;
    behindFailure = null;
    if (failure) throw failure.error;
  };
  const stopRequested = (): boolean => (deps.shouldStop?.() ?? false) || (deps.signal?.aborted ?? false);
  // Time paused, like time waiting for an answer, does not count against the time budget.
  const holdWhilePaused = async (): Promise<void> => {
    if (!deps.untilResumed) return;
    const from = deps.now();
    await deps.untilResumed(save);
    state.waitedMs += Math.max(0, deps.now() - from);
  };

  // The screenshot kept of the page the model was last shown, while it is being taken (see CallServices.pageKept): in
  // before the task ends or looks at the page again.
  let pageKept: Promise<void> = Promise.resolve();
  const end = async (status: 'completed' | 'failed' | 'stopped' | 'handed_to_user', reason: string | null): Promise<AgentState> => {
    await pageKept;
    state.status = status;
    state.endReason = reason;
    for (const call of state.steps.at(-1)?.calls ?? []) {
      if (call.status === 'proposed' || call.status === 'awaiting_approval') {
        call.status = 'skipped';
        call.result = { ok: false, content: reason ?? 'The task ended before this call.' };
      }
    }
    await save();
    emit({
      type: 'end',
      at: deps.now(),
      status,
      reason,
      steps: state.steps.length,
      inputTokens: state.usage.inputTokens,
      outputTokens: state.usage.outputTokens,
      cachedInputTokens: state.usage.cachedInputTokens ?? 0,
      costUsd: state.usage.costUsd,
      durationMs: deps.now() - state.startedAt,
    });
    deps.logger?.info('agent task ended', { taskId: state.taskId, status, steps: state.steps.length });
    return state;
  };

  if (isFinished(state.status)) return state;
  // Time spent waiting for the user, or with the worker stopped, does not count against the time budget.
  if (resumed && state.updatedAt !== undefined) state.waitedMs += Math.max(0, deps.now() - state.updatedAt);
  emit({ type: 'task', at: deps.now(), taskId: state.taskId, task: state.task, mode: policy.mode, provider: deps.provider.label, model: deps.provider.model, resumed });

  let finished: TaskOutcome | null = null;
  // The browser's egress guard follows the task's approved origins: set now (a resumed task keeps its approvals),
  // and again whenever they change.
  const egressChanged = async (): Promise<void> => {
    await deps.environment.setEgressScope?.(egressScopeOf(state, policy.allowedSites));
  };
  const classifier = deps.riskClassifier;
  // A screenshot the model asked for (the screenshot tool) comes with the next page view only.
  let screenshotAsked = false;
  const services = (step: StepRecord) => ({
    pageKept,
    requestScreenshot: (): boolean => {
      if (!deps.provider.vision) return false;
      screenshotAsked = true;
      return true;
    },
    state,
    step,
    tools,
    ...(deps.withheldTools ? { withheld: deps.withheldTools } : {}),
    environment: deps.environment,
    policy,
    vault: deps.vault,
    redactor,
    approve: deps.approve,
    ...(deps.gate ? { gate: deps.gate } : {}),
    askUser: async (question: string): Promise<string | null> => {
      if (!deps.askUser) return null;
      state.status = 'awaiting_user';
      await save();
      const askedAt = deps.now();
      const answer = await deps.askUser(question, deps.signal);
      state.status = 'running';
      state.waitedMs += deps.now() - askedAt;
      return redactor.redact(answer);
    },
    finish: (success: boolean, summary: string, extra?: Pick<TaskOutcome, 'label' | 'handedToUser'>) => {
      finished = { success, summary: redactor.redact(summary), ...(extra?.label ? { label: extra.label } : {}), ...(extra?.handedToUser ? { handedToUser: true } : {}) };
    },
    save,
    now: () => deps.now(),
    stopRequested,
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.environment.gateFacts
      ? { gateFacts: (call: { tool: string; args: Record<string, unknown> }) => deps.environment.gateFacts?.(call, deps.signal ? { signal: deps.signal } : {}) ?? Promise.resolve({}) }
      : {}),
    // What the classifier reads is redacted like every other text sent to a model.
    ...(classifier ? { classifier: ((input) => classifier(redactor.redactDeep(input))) satisfies RiskClassifier } : {}),
    egressChanged,
  });

  /** Runs the calls of a step that have not run yet. After a page-changing action, later calls are not run blind. */
  const runCalls = async (step: StepRecord): Promise<'continue' | 'stop'> => {
    let pageMayHaveChanged = false;
    for (const call of step.calls) {
      if (call.status !== 'proposed' && call.status !== 'awaiting_approval') continue;
      if (finished || pageMayHaveChanged) {
        skipCall(
          call,
          finished
            ? 'Not run: the task was already finished by an earlier call.'
            : 'Not run: an earlier action in the same reply may have changed the page. Look at the new page and call it again if it is still needed.',
        );
        emit(toolRecord(call, stepOf(), null, deps.now()));
        continue;
      }
      await holdWhilePaused();
      if (stopRequested()) return 'stop';
      const started = deps.now();
      const { changesPage, timings } = await executeCall(call, services(step));
      // executeCall returns without acting when the user stopped the task while an approval was pending.
      if (!settled(call) && stopRequested()) return 'stop';
      emit(toolRecord(call, stepOf(), deps.now() - started, deps.now(), timings));
      // Not waited for: the next look at the page runs while it is written (the next save comes after it).
      saveBehind();
      if (changesPage) pageMayHaveChanged = true;
    }
    return 'continue';
  };

  try {
    await egressChanged();
    const last = state.steps.at(-1);
    if (last && last.reply === null) state.steps.pop();
    else if (last) {
      const settled = settleResumedStep(last, tools);
      for (const call of settled.interrupted) emit(toolRecord(call, last.index, null, deps.now()));
      // A task that called done just before the crash is finished: it must not go back to the model. A done that a
      // follow-up came after ended the turn before it, not this one.
      finished = turnStart(state) > last.index ? null : settled.finished;
      await save();
      if ((await runCalls(last)) === 'stop') return await end('stopped', 'Stopped by the user.');
    }

    for (;;) {
      if (finished) {
        const outcome: TaskOutcome = finished;
        state.outcome = outcome;
        if (outcome.handedToUser) return await end('handed_to_user', outcome.summary);
        return await end(outcome.success ? 'completed' : 'failed', outcome.success ? null : outcome.summary);
      }
      await holdWhilePaused();
      if (stopRequested()) return await end('stopped', 'Stopped by the user.');
      // Each follow-up gets the whole step budget for its own turn.
      if (state.steps.length - turnStart(state) >= limits.maxSteps) return await end('failed', `Stopped: the step budget of ${limits.maxSteps} steps ran out before the task was done.`);
      const spent = turnCost(state);
      if (limits.maxCostUsd !== undefined && spent >= limits.maxCostUsd) {
        return await end('stopped', costCapReason(spent, limits.maxCostUsd, deps.costCapNext ?? FOLLOW_UP_TO_CONTINUE));
      }
      if (deps.now() - state.startedAt - state.waitedMs > limits.maxDurationMs) {
        return await end('failed', `Stopped: the time budget of ${Math.round(limits.maxDurationMs / 60_000)} minutes ran out before the task was done.`);
      }

      await pageKept;
      const observedAt = deps.now();
      const forModel = (deps.screenshots === true || screenshotAsked) && deps.provider.vision;
      screenshotAsked = false;
      // A screenshot only kept with the trace is taken beside the model's turn when the environment can (see capture).
      const keepLater = !forModel && deps.keepScreenshot !== undefined && deps.environment.capture !== undefined;
      const raw = await deps.environment.observe({
        screenshot: forModel || (deps.keepScreenshot !== undefined && !keepLater),
        ...(keepLater ? { keep: true } : {}),
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      const observation = observationRecord(forModel ? raw : { ...raw, screenshot: undefined }, redactor);
      // The task's own site is where it first looks at a web page: the tab it started on, or where its start address
      // led (http to https, a bare domain to www); a task that started on a browser page takes the first site it
      // reaches. The origin it was started with stays approved too.
      const seen = originOf(raw.url);
      if (seen !== null && (state.steps.length === 0 || originOf(state.startUrl) === null) && originOf(state.startUrl) !== seen) {
        const asked = originOf(state.startUrl);
        if (asked !== null && !state.approvedOrigins.sites.includes(asked)) state.approvedOrigins.sites.push(asked);
        state.startUrl = observation.url;
        await egressChanged();
      }
      const trouble = detectTrouble(state.steps, { url: raw.url, hash: observation.hash, status: observation.status }, limits.recovery);
      const step: StepRecord = { index: state.steps.length, startedAt: observedAt, observation, notices: trouble.notices, reply: null, calls: [], usage: null, costUsd: null };
      emit({ type: 'observation', at: deps.now(), step: step.index, url: observation.url, title: observation.title, chars: observation.chars, hash: observation.hash, durationMs: deps.now() - observedAt });
      for (const message of trouble.notices) emit({ type: 'notice', at: deps.now(), step: step.index, message });
      if (trouble.stop !== null) return await end('failed', trouble.stop);
      if (raw.screenshot && deps.keepScreenshot) deps.keepScreenshot(step.index, raw.screenshot);
      pageKept = keepLater && !raw.dialog ? keepWhileThinking(deps, step.index) : Promise.resolve();
      state.steps.push(step);
      maskOldObservations(state.steps, limits.keepObservations);
      if (deps.memory) {
        const compactedAt = deps.now();
        const compaction = await compactMemory(state, deps.memory, { provider: deps.provider, redactor, ...(deps.signal ? { signal: deps.signal } : {}) });
        if (compaction) {
          emit({
            type: 'memory',
            at: deps.now(),
            step: step.index,
            throughStep: compaction.memory.throughStep,
            summarized: compaction.summarized,
            historyChars: compaction.historyChars,
            summaryChars: compaction.memory.summary.length,
            by: compaction.memory.by,
            durationMs: deps.now() - compactedAt,
          });
          await save();
        }
      }

      // The last step's results are stored before the model is asked about them.
      await writtenBehind();
      const prompt = buildPrompt(state, system, schemas, {
        keepObservations: limits.keepObservations,
        maxPromptChars: limits.maxPromptChars,
        attachScreenshot: forModel,
        ...(deps.pageView ? { pageView: deps.pageView } : {}),
        ...(deps.memory?.recallHint ? { recallHint: deps.memory.recallHint } : {}),
      });
      emit({ type: 'prompt', at: deps.now(), step: step.index, chars: prompt.chars, messages: prompt.request.messages.length, maskedObservations: prompt.maskedObservations, trimmed: prompt.trimmed });
      const asked = deps.now();
      const reply = await deps.provider.complete(prompt.request, {
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...(deps.onReplyText ? { onText: deps.onReplyText } : {}),
      });
      const cost = costOf(reply.model, reply.usage, { free: deps.provider.free === true });
      recordReply(state, step, reply, cost, redactor);
      // Each call gets its readable line as soon as it is proposed, so the panel shows what comes next (a paused task
      // shows the action it holds before).
      for (const call of step.calls) {
        const tool = tools.find((t) => t.name === call.name);
        const parsed = tool ? parseToolArguments(tool, call.arguments) : null;
        if (tool && parsed?.ok) call.stepText = redactor.redact(tool.describe(parsed.args, pageLookup(step)));
      }
      emit({
        type: 'reply',
        at: deps.now(),
        step: step.index,
        durationMs: deps.now() - asked,
        text: step.reply?.text ?? '',
        toolCalls: step.reply?.toolCalls ?? [],
        inputTokens: reply.usage?.inputTokens ?? null,
        outputTokens: reply.usage?.outputTokens ?? null,
        cachedInputTokens: reply.usage ? (reply.usage.cachedInputTokens ?? 0) : null,
        cacheWriteTokens: reply.usage ? (reply.usage.cacheWriteTokens ?? 0) : null,
        costUsd: cost,
        model: reply.model,
      });
      // The reply is saved with the first call's mark just before it acts (or before a pause, an approval or a
      // question holds it); a reply without calls has no such mark.
      if (step.calls.length === 0) await save();
      if ((await runCalls(step)) === 'stop') return await end('stopped', 'Stopped by the user.');
    }
  } catch (error) {
    const appError = error instanceof AppError ? error : new AppError('internal', error instanceof Error ? error.message : String(error), { cause: error });
    emit({ type: 'error', at: deps.now(), step: stepOf(), code: appError.code, message: appError.message });
    if (appError.code === 'cancelled' || stopRequested()) return end('stopped', 'Stopped by the user.');
    return end('failed', appError.message);
  }
}

/** Takes the step's screenshot for the trace; a failed capture loses the picture, never the step. */
async function keepWhileThinking<E extends AgentEnvironment>(deps: AgentDeps<E>, step: number): Promise<void> {
  const shot = await deps.environment.capture?.().catch(() => undefined);
  if (shot && deps.keepScreenshot) deps.keepScreenshot(step, shot);
}

function withoutScreenshots(key: string, value: unknown): unknown {
  return key === 'screenshot' ? undefined : value;
}

function settled(call: CallRecord): boolean {
  return call.status === 'finished' || call.status === 'denied';
}
