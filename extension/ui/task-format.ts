import { z } from 'zod';
import type { StepRecord } from '../../shared/agent/agent-state';
import { Plan } from '../../shared/agent/plan';
import { panelWords } from './error-message';
import { callState, stepCheck, stepDetails, stepWording, type StepState } from './step-wording';
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

export function statusLabel(record: TaskRecord): string {
  if ((record.status === 'running' || record.status === 'paused') && record.stopRequested) return 'Stopping';
  if ((record.status === 'running' || record.status === 'queued') && record.pauseRequested) return 'Pausing';
  if (record.status === 'completed' && record.agent?.outcome?.success === false) return 'Finished without success';
  // The model said it could not do the task: that is giving up, not an error of Deputy's.
  if (record.status === 'failed' && record.agent?.outcome?.success === false && !record.error) return 'Gave up';
  return STATUS_LABELS[record.status];
}

/**
 * Every tool call of the task as a readable line, in the order they were made, with the task's notes (the browser
 * restarted, ...) among them where they happened. While the task is paused, the call it holds before (the first not
 * yet run) says so instead of "in progress".
 */
export function stepLines(steps: readonly StepRecord[], notes: readonly TaskNote[] = [], paused = false): StepLine[] {
  const lines: StepLine[] = [];
  const queue = [...notes].sort((a, b) => a.afterCalls - b.afterCalls || a.at - b.at);
  let calls = 0;
  let holding = paused;
  const addNotes = (upTo: number): void => {
    for (let note = queue[0]; note !== undefined && note.afterCalls <= upTo; note = queue[0]) {
      queue.shift();
      lines.push({ key: `note:${note.at}:${lines.length}`, number: 0, text: note.text, state: 'note', check: '', details: '' });
    }
  };
  addNotes(0);
  for (const step of steps) {
    for (const [i, call] of step.calls.entries()) {
      let state = callState(call);
      if (holding && call.status === 'proposed') {
        state = 'paused';
        holding = false;
      }
      calls += 1;
      const tokens = i === 0 ? stepTokens(step) : null;
      lines.push({
        key: `${step.index}:${call.id}`,
        number: calls,
        text: stepWording(call, state),
        state,
        check: stepCheck(call, state),
        details: stepDetails(call),
        ...(tokens ? { tokens } : {}),
      });
      addNotes(calls);
    }
  }
  addNotes(Number.POSITIVE_INFINITY);
  return lines;
}

/** The model's own words per step (its "thinking"), for the collapsed section. */
export function thinkingOf(steps: readonly StepRecord[]): { step: number; text: string }[] {
  return steps.flatMap((step) => (step.reply?.text.trim() ? [{ step: step.index + 1, text: step.reply.text.trim() }] : []));
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
  const cost = step.costUsd === null ? '' : ` · ${formatCost(step.costUsd)}`;
  return `${formatTokens(usage.inputTokens)} in${cached} · ${formatTokens(usage.outputTokens)} out${cost}`;
}

export function usageText(record: TaskRecord): string {
  const usage = record.agent?.usage;
  if (!usage) return '0 tokens';
  return `${formatTokens(usage.inputTokens)} in · ${formatTokens(usage.outputTokens)} out · ${formatCost(usage.costUsd)}`;
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
