import { forDisplay, knownHosts } from './approval-display';
import { AppError } from '../errors';
import type { AgentState, CallRecord, StepRecord, TaskOutcome } from './agent-state';
import type { GateFacts } from './action-effect';
import { type ApprovalAnswer, type ApprovalRequest, type Approver, STOPPED_BY_USER } from './approval';
import { approvalForEgress, recordApprovedOrigins } from './egress-approval';
import { type GateVerdict, type PolicyConfig, decide, gateToolCall, withCaution } from './policy-gate';
import type { RiskClassifier } from './risk-classifier';
import type { Redactor } from './redactor';
import type { SecretVault } from './secret-vault';
import type { AgentEnvironment } from './environment';
import { originOf } from './site-list';
import { planOrigins } from './plan-scope';
import { intentOf } from './step-text';
import type { ToolGate } from './tool-gate';
import { type AnyTool, type PageLookup, type ToolContext, type ToolResult, parseToolArguments } from './tool';

/** What executing one call needs from the loop. */
export interface CallServices<E> {
  state: AgentState;
  step: StepRecord;
  tools: AnyTool<E>[];
  /** Deputy's tools this task does not offer, with why (see taskTools): a call to one is told the reason. */
  withheld?: Readonly<Record<string, string>>;
  environment: E;
  policy: PolicyConfig;
  vault: SecretVault;
  redactor: Redactor;
  approve: Approver;
  /** The environment's own gate, asked first; the shared policy gate decides what it leaves undecided. */
  gate?: ToolGate;
  askUser(question: string): Promise<string | null>;
  finish(success: boolean, summary: string, extra?: Pick<TaskOutcome, 'label' | 'handedToUser'>): void;
  save(): Promise<void>;
  now(): number;
  stopRequested(): boolean;
  signal?: AbortSignal;
  /** What the call will do in the page, asked before the gate decides (see AgentEnvironment.gateFacts). */
  gateFacts?: (call: { tool: string; args: Record<string, unknown> }) => Promise<GateFacts>;
  /** A second opinion on calls the gate would allow; it can only add caution. */
  classifier?: RiskClassifier;
  /** Tells the environment the origins the task may reach now (after an approval added one). */
  egressChanged?: () => Promise<void>;
  /** Asks for a screenshot with the next page view (see ToolContext.requestScreenshot). */
  requestScreenshot?: () => boolean;
  /**
   * The screenshot kept of the page the model was shown, still being taken: waited for only before the call shows the
   * user an approval (which may draw on it). An action does not wait for it: the capture began with the look at the
   * page (or, where the environment cannot take it there, as soon as the look returned), before any action of the step
   * was even proposed, so what it copies is the page as the model saw it; only its encoding and transfer are left.
   */
  pageKept?: Promise<void>;
}

/** Waits for the kept screenshot, once per call, and notes how long the call waited for it. */
async function untilPageKept<E>(services: CallServices<E>, timings: Record<string, number>): Promise<void> {
  if (!services.pageKept || 'kept screenshot' in timings) return;
  const from = services.now();
  await services.pageKept;
  timings['kept screenshot'] = services.now() - from;
}

/**
 * Before a call puts secrets into the page (any placeholder in its arguments, whatever the tool), the environment is
 * told which values and where, so the browser holds any request that would carry them elsewhere.
 */
async function armSecrets<E>(services: CallServices<E>, args: Record<string, unknown>): Promise<void> {
  const environment = services.environment as { secretsPlaced?: AgentEnvironment['secretsPlaced'] };
  if (typeof environment.secretsPlaced !== 'function') return;
  const names = [...new Set(services.vault.placeholdersIn(JSON.stringify(args)))];
  if (names.length === 0) return;
  const values = names.map((name) => ({ name, value: services.vault.resolve(`{{${name}}}`) }));
  const { observation } = services.step;
  const element = typeof args.ref === 'number' ? observation.elements.find((e) => e.ref === args.ref) : undefined;
  const origins = [originOf(observation.url), element?.origin ?? null].filter((o): o is string => o !== null);
  await environment.secretsPlaced(values, origins);
}

/** The facts for a call; a page that does not answer leaves the gate to decide without them (the guard stays). */
async function factsFor<E>(
  services: CallServices<E>,
  tool: string,
  args: Record<string, unknown>,
): Promise<GateFacts | undefined> {
  if (!services.gateFacts) return undefined;
  try {
    return await services.gateFacts({ tool, args });
  } catch {
    return undefined;
  }
}

/** Asks the user and waits, with the task shown as waiting meanwhile; the wait does not count against the time budget. */
async function askApproval<E>(services: CallServices<E>, request: ApprovalRequest): Promise<ApprovalAnswer> {
  const { state } = services;
  const previous = state.status;
  state.status = 'awaiting_approval';
  await services.save();
  const askedAt = services.now();
  // Gate reasons quote the page (labels, form addresses): the request is redacted like anything else that is stored.
  // What the card shows is what the page's labels look like, and a look-alike destination is said first.
  const shown = forDisplay(request, knownHosts(state, services.policy.allowedSites));
  const answer = await services.approve(services.redactor.redactDeep(shown), services.signal);
  state.status = previous === 'awaiting_approval' ? 'running' : previous;
  state.waitedMs += services.now() - askedAt;
  return answer;
}

function approvalRequest(
  call: CallRecord,
  services: CallServices<unknown>,
  verdict: GateVerdict,
  toolName: string,
): ApprovalRequest {
  const { state, step } = services;
  return {
    taskId: state.taskId,
    step: step.index,
    callId: call.id,
    tool: toolName,
    intent: call.stepText === undefined ? toolName : intentOf(call.stepText),
    classes: verdict.classes,
    reason: verdict.reason,
    url: step.observation.url,
    kind: 'action',
    destination: verdict.destination ?? null,
    sends: verdict.sends ?? null,
    actsOn: verdict.actsOn ?? null,
    consequence: verdict.consequence,
    siteApproval: verdict.siteApproval,
    ...(verdict.offerAlwaysAllow === undefined ? {} : { alwaysAllowPrefix: verdict.offerAlwaysAllow }),
  };
}

/**
 * The page as the gate and step texts look it up. With the task's earlier steps, it also carries the frames of other
 * sites whose words the model was shown before this step: those words stay in its context for the rest of the task.
 */
export function pageLookup(step: StepRecord, earlier: readonly StepRecord[] = []): PageLookup {
  const elements = new Map(step.observation.elements.map((e) => [e.ref, e]));
  const { chat, dialog, downloads, ownTabs, frameOrigins } = step.observation;
  const before = [...new Set(earlier.filter((s) => s !== step).flatMap((s) => s.observation.frameOrigins ?? []))];
  return {
    url: step.observation.url,
    element: (ref) => elements.get(ref),
    ...(chat ? { chat } : {}),
    ...(dialog ? { dialog } : {}),
    ...(downloads ? { downloads } : {}),
    ...(ownTabs ? { ownTabs } : {}),
    ...(frameOrigins && frameOrigins.length > 0 ? { frameOrigins } : {}),
    ...(before.length > 0 ? { earlierFrameOrigins: before } : {}),
  };
}

function settle(call: CallRecord, status: CallRecord['status'], result: ToolResult, now: number): void {
  call.status = status;
  call.result = {
    ok: result.ok,
    content: result.content,
    ...(result.changed === undefined ? {} : { changed: result.changed }),
    ...(result.evidence ? { evidence: result.evidence } : {}),
  };
  call.finishedAt = now;
}

/**
 * Runs one tool call through validation, the policy gate and (when needed) the user's approval, then acts. The intent
 * is persisted as `started` before the handler runs, so a crash mid-action is never followed by a blind repeat.
 * Returns the tool, so the loop knows whether the page may have changed.
 */
export async function executeCall<E>(
  call: CallRecord,
  services: CallServices<E>,
): Promise<{
  tool: AnyTool<E> | null;
  result: ToolResult | null;
  changesPage: boolean;
  timings?: Record<string, number>;
}> {
  const { state, step, redactor } = services;
  const tool = services.tools.find((t) => t.name === call.name);
  if (!tool) {
    const names = services.tools.map((t) => t.name).join(', ');
    const why = Object.hasOwn(services.withheld ?? {}, call.name) ? services.withheld?.[call.name] : undefined;
    const content =
      why === undefined
        ? `There is no tool named "${call.name}".`
        : `The tool "${call.name}" is not offered in this task: ${why}.`;
    settle(call, 'finished', { ok: false, content: `${content} Use one of: ${names}.` }, services.now());
    return { tool: null, result: null, changesPage: false };
  }
  const parsed = parseToolArguments(tool, call.arguments);
  if (!parsed.ok) {
    settle(call, 'finished', { ok: false, content: parsed.message }, services.now());
    return { tool, result: null, changesPage: false };
  }
  const page = pageLookup(step, state.steps);
  call.stepText = redactor.redact(tool.describe(parsed.args, page));
  // Where the call's time goes, for the trace: the gate's look at the page, the mark saved before acting, the action.
  const timings: Record<string, number> = {};

  if (call.status === 'proposed' || call.status === 'awaiting_approval') {
    // An environment with its own gate (the shell) decides its tools first; the shared gate decides the rest.
    const own = services.gate
      ? await services.gate({
          tool: tool,
          args: parsed.args,
          state,
          step,
          callId: call.id,
          ...(services.signal ? { signal: services.signal } : {}),
        })
      : undefined;
    const gateStarted = services.now();
    const facts = own ? undefined : await factsFor(services, tool.name, parsed.args);
    if (services.gateFacts && !own) timings.gate = services.now() - gateStarted;
    let verdict =
      own ??
      gateToolCall({
        tool,
        args: parsed.args,
        page,
        vault: services.vault,
        plan: state.approvedPlan,
        config: services.policy,
        startUrl: state.startUrl,
        taskSites: state.approvedOrigins.sites,
        ...(facts ? { facts } : {}),
      });
    if (!own && verdict.decision === 'allow' && tool.risk !== 'read' && services.classifier) {
      const extra = await services
        .classifier({
          tool: tool.name,
          intent: intentOf(call.stepText ?? tool.name),
          url: page.url,
          verdict,
          ...(facts ? { facts } : {}),
        })
        .catch(() => null);
      if (extra && extra.classes.length > 0) verdict = decide(services.policy, withCaution(verdict, extra));
    }
    call.classes = verdict.classes;
    call.decision = verdict.decision;
    call.decisionReason = redactor.redact(verdict.reason);
    if (verdict.decision === 'deny') {
      let content = `Blocked by Deputy's safety policy: ${verdict.reason} Do not try to reach the same result another way.`;
      // Some blocks need the user's word on what to do instead (support asks for a card number): ask them now.
      if (verdict.askUser !== undefined) {
        await services.save();
        const answer = await services.askUser(verdict.askUser);
        content +=
          answer === null
            ? ' Nobody can answer right now: tell the other side you cannot share it, or end the chat for the user.'
            : ` Deputy asked the user what to do instead; they answered: ${answer}`;
      }
      settle(call, 'denied', { ok: false, content }, services.now());
      return { tool, result: null, changesPage: false };
    }
    if (verdict.decision === 'ask') {
      await untilPageKept(services, timings);
      call.status = 'awaiting_approval';
      const answer = await askApproval(
        services,
        approvalRequest(call, services as CallServices<unknown>, verdict, tool.name),
      );
      state.status = 'running';
      if (!answer.approved) {
        const note = answer.note ? ` They said: ${redactor.redact(answer.note)}` : '';
        // A plan sent back with the user's own steps is a new plan to follow, not an action to avoid.
        const content = answer.stopped
          ? STOPPED_BY_USER
          : tool.name === 'update_plan' && answer.note
            ? `The user did not approve this plan and wrote their own.${note} Call update_plan with their steps, then follow them.`
            : `The user did not approve this action.${note} Do not do it another way; continue without it or call done.`;
        settle(call, 'denied', { ok: false, content }, services.now());
        return { tool, result: null, changesPage: false };
      }
      // The approved step may go where the task could not go before: the browser's guard must let it through.
      let widened = recordApprovedOrigins(state, {
        reach: verdict.destination,
        site: answer.scope === 'site' ? verdict.siteApproval : null,
      });
      if (verdict.newPlan) {
        state.approvedPlan = verdict.newPlan;
        // The sites the user saw on the plan card and approved with it; only an approval ever adds them.
        for (const site of planOrigins(verdict.newPlan, state.startUrl, services.policy.deniedSites))
          widened = recordApprovedOrigins(state, { site }) || widened;
      }
      if (widened) await services.egressChanged?.();
    }
  }
  if (services.stopRequested()) return { tool, result: null, changesPage: false };

  call.status = 'started';
  call.startedAt = services.now();
  await services.save();
  timings['save started'] = services.now() - call.startedAt;
  await armSecrets(services, parsed.args);
  const context: ToolContext<E> = {
    environment: services.environment,
    ...(services.signal ? { signal: services.signal } : {}),
    resolveSecrets: (text) => services.vault.resolve(text),
    setPlan: (plan) => {
      state.plan = plan;
    },
    askUser: (question) => services.askUser(question),
    ...(services.requestScreenshot ? { requestScreenshot: services.requestScreenshot } : {}),
    finish: (success, summary, extra) => services.finish(success, summary, extra),
    approveEgress: async (blocked) => {
      const answer = await askApproval(
        services,
        approvalForEgress(call, services.state, services.step, tool.name, blocked),
      );
      if (
        answer.approved &&
        recordApprovedOrigins(state, {
          reach: blocked.origin,
          site: answer.scope === 'site' && blocked.method === 'GET' ? blocked.origin : null,
        })
      ) {
        await services.egressChanged?.();
      }
      return answer;
    },
  };
  let result: ToolResult;
  try {
    result = await tool.handler(parsed.args, context);
  } catch (error) {
    if (error instanceof AppError && error.code === 'cancelled') throw error;
    const message = error instanceof Error ? error.message : String(error);
    result = { ok: false, content: `The action failed: ${message}` };
  }
  const clean = redactor.redactDeep(result);
  settle(call, 'finished', clean, services.now());
  const mayChange = typeof tool.changesPage === 'function' ? tool.changesPage(parsed.args) : tool.changesPage;
  return {
    tool,
    result: clean,
    changesPage: mayChange && clean.changed !== false,
    timings: { ...timings, ...result.timings },
  };
}
