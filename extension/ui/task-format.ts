import type { PlanOutcome } from '../../shared/agent/plan';
import { estimateTaskCost, estimateText } from '../../shared/agent/cost-estimate';
import { z } from 'zod';
import type { CallRecord, FollowUp, StepRecord } from '../../shared/agent/agent-state';
import { Plan } from '../../shared/agent/plan';
import { panelWords } from './error-message';
import { callState, plainText, stepCheck, stepDetails, stepWording, type StepState } from './step-wording';
import type { PendingApproval, TaskNote, TaskRecord, TaskStatus } from '../../shared/protocol';

export type { StepState } from './step-wording';

export interface StepLine {
  key: string;
  /** 1-based, as the user counts; 0 for a note about the task, which is not an action. */
  number: number;
  /** Worded by what happened: past tense when done, otherwise the verdict and what was intended. */
  text: string;
  state: StepState;
  /** What verification found, in one line: evidence of the change, no change, or why it failed or did not happen. */
  check: string;
  /** The internals behind "details": tool, arguments, the step as the model saw it, the raw result. */
  details: string;
  /** The model's step this line belongs to (0-based), on the first line of that step only: it carries the screenshot. */
  shotStep?: number;
  /** On a step's first action: what the model turn behind it cost (tokens in, of them cached, out, and the price). */
  tokens?: string;
}

const ACTIVE: ReadonlySet<TaskStatus> = new Set(['queued', 'running', 'paused', 'awaiting_approval', 'awaiting_user']);

export function isActiveTask(record: TaskRecord | undefined): boolean {
  return record !== undefined && ACTIVE.has(record.status);
}

const STATUS_LABELS: Record<TaskStatus, string> = {
  queued: 'Starting',
  running: 'Working',
  paused: 'Paused',
  awaiting_approval: 'Waiting for your approval',
  awaiting_user: 'Waiting for your answer',
  completed: 'Done',
  failed: 'Failed',
  stopped: 'Stopped',
  handed_to_user: 'Handed to you',
};

/**
 * What the task will cost if the plan on the card is approved, in words, from what its model calls so far cost; null
 * before any call has reported its tokens.
 */
export function planEstimate(record: TaskRecord, plan: Plan | null): string | null {
  const steps = (record.agent?.steps ?? []).filter((step) => step.usage !== null);
  const first = steps[0];
  if (!first?.usage || !plan) return null;
  const known = steps.every((step) => step.costUsd !== null);
  const spent = {
    calls: steps.length,
    inputTokens: steps.reduce((sum, step) => sum + (step.usage?.inputTokens ?? 0), 0),
    outputTokens: steps.reduce((sum, step) => sum + (step.usage?.outputTokens ?? 0), 0),
    costUsd: known ? steps.reduce((sum, step) => sum + (step.costUsd ?? 0), 0) : null,
  };
  // The step budget is not kept with the task: the panel's most (200) caps only a plan longer than any budget.
  return estimateText(estimateTaskCost({ planSteps: plan.steps.length, spent, first: { ...first.usage, costUsd: first.costUsd }, stepBudget: 200 }));
}

/** Where the task's plan stands: open while it runs, closed as finished or unfinished once it has ended. */
export function planOutcome(record: TaskRecord): PlanOutcome {
  if (isActiveTask(record)) return 'open';
  return record.status === 'completed' && record.agent?.outcome?.success !== false ? 'finished' : 'unfinished';
}

export function statusLabel(record: TaskRecord): string {
  if ((record.status === 'running' || record.status === 'paused') && record.stopRequested) return 'Stopping';
  if ((record.status === 'running' || record.status === 'queued') && record.pauseRequested) return 'Pausing';
  if (record.status === 'completed' && record.agent?.outcome?.success === false) return 'Finished without success';
  // The model said it could not do the task: that is giving up, not an error of Deputy's.
  if (record.status === 'failed' && record.agent?.outcome?.success === false && !record.error) return 'Gave up';
  return STATUS_LABELS[record.status];
}

/** What one entry of a task's thread is: a step or note, the user's words, the model's words, or a chat message. */
export type ThreadKind = 'step' | 'user' | 'words' | 'them' | 'us';

export interface ThreadEntry extends StepLine {
  kind: ThreadKind;
}

export interface ThreadInput {
  steps: readonly StepRecord[];
  notes?: readonly TaskNote[] | undefined;
  paused?: boolean;
  /** The task as the user wrote it, first in the thread. */
  task?: string | undefined;
  followUps?: readonly FollowUp[] | undefined;
  /** Deputy's messages to a support chat as messages rather than steps. */
  chatBubbles?: boolean;
}

/** The chat tools whose finished call put Deputy's words in the support chat: shown as its message, not as a step. */
const SENT_TO_CHAT = new Set(['chat_send', 'chat_choose']);

const SentText = z.object({ text: z.string() });
const DoneSummary = z.object({ summary: z.string() });

function parsedArguments<T>(call: CallRecord, schema: z.ZodType<T>): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(call.arguments));
    return parsed.success ? parsed.data : null;
  } catch {
    // Arguments that are not JSON never ran.
    return null;
  }
}

/** The summary a finished done (or chat_end) call gave its turn. */
function doneSummary(call: CallRecord): string | null {
  if (call.name !== 'done' && call.name !== 'chat_end') return null;
  return parsedArguments(call, DoneSummary)?.summary ?? null;
}

/** A message Deputy sent to support: as the model wrote it (placeholders, never values), or as its line quotes it. */
function sentMessage(call: CallRecord): string {
  const sent = call.name === 'chat_send' ? parsedArguments(call, SentText) : null;
  if (sent) return sent.text;
  const quoted = /^(?:Sent to support: |Chose )"([\s\S]*)"(?: in the chat)?$/.exec(call.stepText ?? '');
  return quoted?.[1] ?? plainText(call.stepText ?? call.name);
}

/**
 * The task as a conversation, in the order it happened: the user's task and follow-ups, the model's own words, every
 * tool call as a readable line, the task's notes (the browser restarted, ...) where they happened, and in a support
 * chat each new message from support and each message Deputy sent. While the task is paused, the call it holds
 * before (the first not yet run) says so instead of "in progress".
 */
export function threadEntries(input: ThreadInput): ThreadEntry[] {
  const entries: ThreadEntry[] = [];
  const queue = [...(input.notes ?? [])].sort((a, b) => a.afterCalls - b.afterCalls || a.at - b.at);
  const followUps = [...(input.followUps ?? [])];
  const plain = (kind: ThreadKind, key: string, text: string): ThreadEntry => ({ kind, key, number: 0, text, state: 'note', check: '', details: '' });
  let calls = 0;
  let holding = input.paused === true;
  let lastFromThem: string | null = null;
  const addNotes = (upTo: number): void => {
    for (let note = queue[0]; note !== undefined && note.afterCalls <= upTo; note = queue[0]) {
      queue.shift();
      entries.push({ ...plain('step', `note:${note.at}:${entries.length}`, note.text) });
    }
  };
  if (input.task !== undefined) entries.push(plain('user', 'task', input.task));
  addNotes(0);
  for (const step of input.steps) {
    let first = true;
    while (followUps[0] && followUps[0].beforeStep <= step.index) {
      const followUp = followUps.shift();
      if (followUp) entries.push(plain('user', `follow-up:${followUp.at}`, followUp.text));
    }
    const heard = step.observation.chat?.lastFromThem ?? null;
    if (heard !== null && heard !== lastFromThem) entries.push(plain('them', `them:${step.index}`, plainText(heard)));
    lastFromThem = heard ?? lastFromThem;
    const words = step.reply?.text.trim();
    if (words) entries.push(plain('words', `words:${step.index}`, plainText(words)));
    for (const call of step.calls) {
      let state = callState(call);
      if (holding && call.status === 'proposed') {
        state = 'paused';
        holding = false;
      }
      calls += 1;
      const kind: ThreadKind = input.chatBubbles === true && state === 'ok' && SENT_TO_CHAT.has(call.name) ? 'us' : 'step';
      const tokens = first ? stepTokens(step) : null;
      entries.push({
        kind,
        key: `${step.index}:${call.id}`,
        number: calls,
        text: kind === 'us' ? sentMessage(call) : stepWording(call, state),
        state,
        check: stepCheck(call, state),
        details: stepDetails(call),
        ...(first ? { shotStep: step.index } : {}),
        ...(tokens ? { tokens } : {}),
      });
      first = false;
      // A turn a follow-up came after ended with the model's account of it; the latest turn's shows as the outcome.
      const summary = followUps.length > 0 && call.status === 'finished' ? doneSummary(call) : null;
      if (summary) entries.push(plain('words', `summary:${step.index}:${call.id}`, summary));
      addNotes(calls);
    }
  }
  for (const followUp of followUps) entries.push(plain('user', `follow-up:${followUp.at}`, followUp.text));
  addNotes(Number.POSITIVE_INFINITY);
  return entries;
}

/**
 * Every tool call of the task as a readable line, in the order they were made, with the task's notes among them
 * where they happened (the thread without the conversation around it, for the report and announcements).
 */
export function stepLines(steps: readonly StepRecord[], notes: readonly TaskNote[] = [], paused = false): StepLine[] {
  return threadEntries({ steps, notes, paused }).flatMap(({ kind, ...line }) => (kind === 'step' ? [line] : []));
}

export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return 'cost unknown';
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '< $0.0001';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/**
 * A task's cost for a list row: dollars where the model's price is known (prompt-cache reads and writes priced as
 * such), else the tokens it used with "cost unknown", so an unpriced model never reads as free. A local model (it
 * costs nothing) shows its tokens only.
 */
export function formatTaskCost(record: TaskRecord): string {
  const usage = record.agent?.usage;
  if (!usage) return 'no model calls';
  if (usage.costUsd === 0) return `${formatTokens(usage.inputTokens + usage.outputTokens)} tokens`;
  if (usage.costUsd !== null) return formatCost(usage.costUsd);
  return `${formatTokens(usage.inputTokens + usage.outputTokens)} tokens · cost unknown`;
}

export function formatTokens(count: number): string {
  return count < 1000 ? String(count) : `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
}

/** Time since the task started, or its whole duration once it has ended (its last change). */
export function elapsedMs(record: TaskRecord, now: number): number {
  const end = isActiveTask(record) ? now : record.updatedAt;
  return Math.max(0, end - record.createdAt);
}

/** One model turn's tokens, e.g. "12k in (9.8k cached) · 45 out · $0.0031"; null when the provider reported none. */
export function stepTokens(step: StepRecord): string | null {
  const usage = step.usage;
  if (!usage) return null;
  const cached = usage.cachedInputTokens ? ` (${formatTokens(usage.cachedInputTokens)} cached)` : '';
  // Nothing for an unknown price, and nothing for a local model (no dollars where nothing is paid).
  const cost = step.costUsd === null || step.costUsd === 0 ? '' : ` · ${formatCost(step.costUsd)}`;
  return `${formatTokens(usage.inputTokens)} in${cached} · ${formatTokens(usage.outputTokens)} out${cost}`;
}

export function usageText(record: TaskRecord): string {
  const usage = record.agent?.usage;
  if (!usage) return '0 tokens';
  const tokens = `${formatTokens(usage.inputTokens)} in · ${formatTokens(usage.outputTokens)} out`;
  return usage.costUsd === 0 ? tokens : `${tokens} · ${formatCost(usage.costUsd)}`;
}

/** Why the task ended, in a sentence, or null while it runs. */
export function outcomeText(record: TaskRecord): string | null {
  if (isActiveTask(record)) return null;
  const agent = record.agent;
  if (record.status === 'completed' && agent?.outcome) return agent.outcome.summary;
  if (record.error) return panelWords(record.error.code, record.error.message);
  if (agent?.endReason) return agent.endReason;
  if (record.status === 'stopped') return 'You stopped the task.';
  return agent?.outcome?.summary ?? null;
}

/** The arguments of the call an approval holds, as the model wrote them, or undefined when they cannot be read. */
function approvalArguments(record: TaskRecord, approval: PendingApproval): unknown {
  const call = record.agent?.steps.find((step) => step.index === approval.step)?.calls.find((candidate) => candidate.id === approval.callId);
  if (!call) return undefined;
  try {
    return JSON.parse(call.arguments) as unknown;
  } catch {
    return undefined;
  }
}

/** The plan an ask-first approval is about: the arguments of the update_plan call it holds, read (never cast). */
export function proposedPlan(record: TaskRecord, approval: PendingApproval): Plan | null {
  const parsed = Plan.safeParse(approvalArguments(record, approval));
  return parsed.success ? parsed.data : null;
}

const RefArgument = z.object({ ref: z.number().int().positive() });

/** The page element an approval is about (the `ref` of a click, a typing, a choice), or null for other steps. */
export function approvalElement(record: TaskRecord, approval: PendingApproval): number | null {
  if (approval.kind === 'egress') return null;
  const parsed = RefArgument.safeParse(approvalArguments(record, approval));
  return parsed.success ? parsed.data.ref : null;
}
