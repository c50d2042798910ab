import { z } from 'zod';
import { DocumentVerdict, FailureItem, LoopConfig, LoopOutcome, LoopStep } from '../../shared/protocol/loop-protocol';
import { MailMark } from '../../shared/protocol/mail-protocol';
import type { LoopStep as LoopStepType } from '../../shared/protocol/loop-protocol';

export const FixerRecord = z.object({
  costUsd: z.number(),
  sessionId: z.string().optional(),
  turns: z.number().int().optional(),
  isError: z.boolean(),
  summary: z.string(),
  completed: z.boolean(),
  interruption: z.enum(['timeout', 'aborted', 'killed', 'crashed']).optional(),
  costEstimated: z.boolean().optional(),
  errorKind: z.enum(['auth', 'budget', 'max_turns', 'session_missing', 'api', 'execution']).optional(),
  errorMessage: z.string().optional(),
  permissionDenials: z.number().int().nonnegative().optional(),
  /** Which calls Claude Code refused and what to allow (flag and settings line). */
  refused: z.string().optional(),
});

/** Everything that happened in one iteration, kept for the next prompt, stuck detection and the report. */
export const IterationRecord = z.object({
  iteration: z.number().int().positive(),
  startCommit: z.string(),
  outputFile: z.string().optional(),
  /** The paths that differed from HEAD before the job ran: anything new after the job and the check is theirs, not a fix. */
  treeBefore: z.array(z.string()).optional(),
  /** What started the job in this iteration and what came back ("POST https://svc.test/run: HTTP 202"). */
  trigger: z.string().optional(),
  /** Set while the trigger is being sent: after a crash, a trigger that is not safe to repeat is not sent again. */
  triggerSending: z.boolean().optional(),
  /** Where the output came from: the mail (sender, subject) or the folder or URL, with its name and size. */
  received: z.object({ name: z.string(), size: z.number().int().nonnegative(), from: z.string().optional(), subject: z.string().optional() }).optional(),
  passed: z.boolean().optional(),
  format: z.string().optional(),
  failures: z.array(FailureItem).default([]),
  signature: z.string().optional(),
  /** Document mode: what the judge said about this iteration's output, and its report. */
  document: DocumentVerdict.optional(),
  /** The findings as the check formatted them for the fixer (grouped by severity, with the template's notes). */
  findingsText: z.string().optional(),
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
  /** Fixer runs of this iteration that ended in an API error and were tried again. */
  apiRetries: z.number().int().nonnegative().optional(),
  /** A Claude session cut short in this iteration, which the next run continues. */
  resumeSession: z.string().optional(),
  /** The fix changes tests or the check's definition and the user allowed such edits: it waits for approval. */
  needsApproval: z.array(z.string()).optional(),
  approved: z.boolean().optional(),
  /** Protected paths a fixer run changed; they were put back and the run's edits dropped. */
  protectedChanged: z.array(z.string()).optional(),
  /** What an escalation (the research step) added to the next fixer prompt when the loop was stuck. */
  escalation: z.string().optional(),
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
      /** When the process started, as the system tells it, so a later run never ends another process that got the pid. */
      pidStartTime: z.string().optional(),
      /** The run's result, saved the moment it is read: a run with a result is finished and paid, never run again. */
      result: FixerRecord.optional(),
      /** What the run has cost so far, from the usage of each model reply, for a run that ends without a result. */
      costUsd: z.number().nonnegative().optional(),
      /** The protected files as the run found them; a change to any of them is undone. */
      protectedSnapshot: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  /**
   * Files the job (its trigger and output) or the check wrote in the repo (reports, caches, the output itself): never
   * committed and never counted as the user's work.
   */
  checkArtifacts: z.array(z.string()).optional(),
  /** The check's definition (test files, test configuration, scripts) as the loop found it. */
  checkFingerprint: z.string().optional(),
  history: z.array(IterationRecord),
  /** The output files (name to modification time) that belong to earlier runs of the job. */
  outputBaseline: z.record(z.string(), z.number()).optional(),
  /** The mailbox as it was before this iteration's trigger: only mails that arrive later are the job's output. */
  mailMark: MailMark.optional(),
  /** The mails whose attachments earlier iterations took (Message-ID or source id), never taken again. */
  mailTaken: z.array(z.string()).optional(),
  pushedCommits: z.array(z.string()),
  costUsd: z.number().nonnegative(),
  outcome: LoopOutcome.optional(),
  reason: z.string().optional(),
});
export type LoopState = z.infer<typeof LoopState>;

/** Outcomes after which `--resume` carries on: the user stopped it, or an external step failed and may work now. */
export function isResumable(state: LoopState): boolean {
  if (state.outcome === 'needs_human') return awaitingApproval(state) !== undefined;
  return state.outcome === undefined || state.outcome === 'stopped' || state.outcome === 'failed';
}

/** The iteration whose fix waits for the user's approval (it changes tests or the check), if there is one. */
export function awaitingApproval(state: LoopState): IterationRecord | undefined {
  const record = state.history[state.history.length - 1];
  return record?.needsApproval && !record.approved && record.iteration === state.iteration ? record : undefined;
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
