import { z } from 'zod';
import { FailureItem, LoopConfig, LoopOutcome, LoopStep } from '../../shared/protocol/loop-protocol';
import type { LoopStep as LoopStepType } from '../../shared/protocol/loop-protocol';

export const FixerRecord = z.object({
  costUsd: z.number(),
  sessionId: z.string().optional(),
  turns: z.number().int().optional(),
  isError: z.boolean(),
  summary: z.string(),
  completed: z.boolean(),
  interruption: z.enum(['timeout', 'aborted', 'killed', 'crashed']).optional(),
});

/** Everything that happened in one iteration, kept for the next prompt, stuck detection and the report. */
export const IterationRecord = z.object({
  iteration: z.number().int().positive(),
  startCommit: z.string(),
  outputFile: z.string().optional(),
  passed: z.boolean().optional(),
  format: z.string().optional(),
  failures: z.array(FailureItem).default([]),
  signature: z.string().optional(),
  fixer: FixerRecord.optional(),
  /** Fixer runs that were cut short (a crash of Deputy, a timeout): they left no usable result. */
  interruptedRuns: z.number().int().nonnegative().default(0),
  rejected: z.array(z.string()).optional(),
  noChange: z.boolean().optional(),
  commit: z.string().optional(),
  pushed: z.boolean().optional(),
  rebased: z.boolean().optional(),
  filesChanged: z.number().int().optional(),
  insertions: z.number().int().optional(),
  deletions: z.number().int().optional(),
  deployMs: z.number().optional(),
  logs: z.string().optional(),
  /** What the fixer wrote in CANNOT_FIX.md when it asked for a person. */
  cannotFix: z.string().optional(),
});
export type IterationRecord = z.infer<typeof IterationRecord>;

export const LoopState = z.object({
  version: z.literal(1),
  loopId: z.string().min(1),
  repo: z.string().min(1),
  branch: z.string().min(1),
  config: LoopConfig,
  startedAt: z.number(),
  updatedAt: z.number(),
  /** Time spent running, summed over every run of this loop; the wall-time budget counts this. */
  activeMs: z.number().nonnegative(),
  iteration: z.number().int().positive(),
  step: LoopStep,
  /** A fixer that was started and has not been seen to end: after a crash it is ended and its edits rolled back. */
  pendingFixer: z
    .object({
      pid: z.number().int().optional(),
      startedAt: z.number(),
      sessionId: z.string().optional(),
      /** The run's result, saved the moment it is read: a run with a result is finished and paid, never run again. */
      result: FixerRecord.optional(),
    })
    .optional(),
  history: z.array(IterationRecord),
  /** The output files (name to modification time) that belong to earlier runs of the job. */
  outputBaseline: z.record(z.string(), z.number()).optional(),
  pushedCommits: z.array(z.string()),
  costUsd: z.number().nonnegative(),
  outcome: LoopOutcome.optional(),
  reason: z.string().optional(),
});
export type LoopState = z.infer<typeof LoopState>;

/** Outcomes after which `--resume` carries on: the user stopped it, or an external step failed and may work now. */
export function isResumable(state: LoopState): boolean {
  return state.outcome === undefined || state.outcome === 'stopped' || state.outcome === 'failed';
}

export function currentRecord(state: LoopState): IterationRecord {
  const last = state.history[state.history.length - 1];
  if (last && last.iteration === state.iteration) return last;
  const record: IterationRecord = { iteration: state.iteration, startCommit: '', failures: [], interruptedRuns: 0 };
  state.history.push(record);
  return record;
}

/** The step each iteration begins with; the first iteration may skip ahead (startFrom). */
export function firstStep(state: Pick<LoopState, 'config'>, iteration: number): LoopStepType {
  const { config } = state;
  const from = iteration === 1 ? config.startFrom : 'trigger';
  if (from === 'trigger' && config.trigger) return 'trigger';
  if ((from === 'trigger' || from === 'output') && config.output) return 'output';
  return 'check';
}
