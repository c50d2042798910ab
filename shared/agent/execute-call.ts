import { AppError } from '../errors';
import type { AgentState, CallRecord, StepRecord, TaskOutcome } from './agent-state';
import type { Approver } from './approval';
import { type PolicyConfig, gateToolCall } from './policy-gate';
import type { Redactor } from './redactor';
import type { SecretVault } from './secret-vault';
import { intentOf } from './step-text';
import { type AnyTool, type PageLookup, type ToolContext, type ToolResult, parseToolArguments } from './tool';

/** What executing one call needs from the loop. */
export interface CallServices<E> {
  state: AgentState;
  step: StepRecord;
  tools: AnyTool<E>[];
  environment: E;
  policy: PolicyConfig;
  vault: SecretVault;
  redactor: Redactor;
  approve: Approver;
  askUser(question: string): Promise<string | null>;
  finish(success: boolean, summary: string, extra?: Pick<TaskOutcome, 'label' | 'handedToUser'>): void;
  save(): Promise<void>;
  now(): number;
  stopRequested(): boolean;
  signal?: AbortSignal;
}

export function pageLookup(step: StepRecord): PageLookup {
  const elements = new Map(step.observation.elements.map((e) => [e.ref, e]));
  const { chat, dialog, downloads } = step.observation;
  return { url: step.observation.url, element: (ref) => elements.get(ref), ...(chat ? { chat } : {}), ...(dialog ? { dialog } : {}), ...(downloads ? { downloads } : {}) };
}

function settle(call: CallRecord, status: CallRecord['status'], result: ToolResult, now: number): void {
  call.status = status;
  call.result = { ok: result.ok, content: result.content, ...(result.changed === undefined ? {} : { changed: result.changed }), ...(result.evidence ? { evidence: result.evidence } : {}) };
  call.finishedAt = now;
}

/**
 * Runs one tool call through validation, the policy gate and (when needed) the user's approval, then acts. The intent
 * is persisted as `started` before the handler runs, so a crash mid-action is never followed by a blind repeat.
 * Returns the tool, so the loop knows whether the page may have changed.
 */
export async function executeCall<E>(call: CallRecord, services: CallServices<E>): Promise<{ tool: AnyTool<E> | null; result: ToolResult | null; changesPage: boolean }> {
  const { state, step, redactor } = services;
  const tool = services.tools.find((t) => t.name === call.name);
  if (!tool) {
    const names = services.tools.map((t) => t.name).join(', ');
    settle(call, 'finished', { ok: false, content: `There is no tool named "${call.name}". Use one of: ${names}.` }, services.now());
    return { tool: null, result: null, changesPage: false };
  }
  const parsed = parseToolArguments(tool, call.arguments);
  if (!parsed.ok) {
    settle(call, 'finished', { ok: false, content: parsed.message }, services.now());
    return { tool, result: null, changesPage: false };
  }
  const page = pageLookup(step);
  call.stepText = redactor.redact(tool.describe(parsed.args, page));

  if (call.status === 'proposed' || call.status === 'awaiting_approval') {
    const verdict = gateToolCall({
      tool,
      args: parsed.args,
      page,
      vault: services.vault,
      plan: state.approvedPlan,
      config: services.policy,
      startUrl: state.startUrl,
    });
    call.classes = verdict.classes;
    call.decision = verdict.decision;
    call.decisionReason = verdict.reason;
    if (verdict.decision === 'deny') {
      let content = `Blocked by Deputy's safety policy: ${verdict.reason} Do not try to reach the same result another way.`;
      // Some blocks need the user's word on what to do instead (support asks for a card number): ask them now.
      if (verdict.askUser !== undefined) {
        await services.save();
        const answer = await services.askUser(verdict.askUser);
        content += answer === null ? ' Nobody can answer right now: tell the other side you cannot share it, or end the chat for the user.' : ` Deputy asked the user what to do instead; they answered: ${answer}`;
      }
      settle(call, 'denied', { ok: false, content }, services.now());
      return { tool, result: null, changesPage: false };
    }
    if (verdict.decision === 'ask') {
      call.status = 'awaiting_approval';
      state.status = 'awaiting_approval';
      await services.save();
      const askedAt = services.now();
      const answer = await services.approve(
        {
          taskId: state.taskId,
          step: step.index,
          callId: call.id,
          tool: tool.name,
          intent: call.stepText === undefined ? tool.name : intentOf(call.stepText),
          classes: verdict.classes,
          reason: verdict.reason,
          url: step.observation.url,
        },
        services.signal,
      );
      state.status = 'running';
      state.waitedMs += services.now() - askedAt;
      if (!answer.approved) {
        const note = answer.note ? ` They said: ${redactor.redact(answer.note)}` : '';
        settle(call, 'denied', { ok: false, content: `The user did not approve this action.${note} Do not do it another way; continue without it or call done.` }, services.now());
        return { tool, result: null, changesPage: false };
      }
      if (verdict.newPlan) state.approvedPlan = verdict.newPlan;
    }
  }
  if (services.stopRequested()) return { tool, result: null, changesPage: false };

  call.status = 'started';
  call.startedAt = services.now();
  await services.save();
  const context: ToolContext<E> = {
    environment: services.environment,
    ...(services.signal ? { signal: services.signal } : {}),
    resolveSecrets: (text) => services.vault.resolve(text),
    setPlan: (plan) => {
      state.plan = plan;
    },
    askUser: (question) => services.askUser(question),
    finish: (success, summary, extra) => services.finish(success, summary, extra),
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
  return { tool, result: clean, changesPage: mayChange && clean.changed !== false };
}
