import { z } from 'zod';
import { ObservedChat, ObservedDialog, ObservedDownload, ObservedElement, PageStatus, Screenshot } from './environment';
import { Plan } from './plan';
import { RiskClass } from './risk-class';

/**
 * What the model is told about the steps that left its prompt: a summary of steps 1 to `throughStep + 1`. The steps
 * themselves stay in the saved state (and in an environment's full log); only the prompt forgets them.
 */
export const WorkingMemory = z.object({
  summary: z.string(),
  /** Steps with an index up to this one are in the summary instead of the prompt. */
  throughStep: z.number().int().nonnegative(),
  /** The model wrote the summary, or (when it could not) Deputy listed the steps itself. */
  by: z.enum(['model', 'list']),
});
export type WorkingMemory = z.infer<typeof WorkingMemory>;

export const CallStatus = z.enum([
  /** The model asked for it; nothing happened yet. */
  'proposed',
  /** Waiting for the user; nothing happened yet. */
  'awaiting_approval',
  /** Intent recorded before acting: after a crash the action may or may not have happened, so it is never repeated. */
  'started',
  'finished',
  'denied',
  'skipped',
  /** Resumed after a crash while started: not repeated, reported to the model as unknown. */
  'interrupted',
]);
export type CallStatus = z.infer<typeof CallStatus>;

export const CallResult = z.object({
  ok: z.boolean(),
  content: z.string(),
  changed: z.boolean().optional(),
  evidence: z.array(z.string()).optional(),
});
export type CallResult = z.infer<typeof CallResult>;

export const CallRecord = z.object({
  id: z.string(),
  name: z.string(),
  /** As the model wrote them (it only ever sees placeholders, so this holds no secret). */
  arguments: z.string(),
  status: CallStatus,
  classes: z.array(RiskClass).default([]),
  decision: z.enum(['allow', 'ask', 'deny']).optional(),
  decisionReason: z.string().optional(),
  /** The past-tense line the side panel shows. */
  stepText: z.string().optional(),
  result: CallResult.optional(),
  startedAt: z.number().optional(),
  finishedAt: z.number().optional(),
});
export type CallRecord = z.infer<typeof CallRecord>;

export const ObservationRecord = z.object({
  /** Absent for a page; `chat` for a support chat's transcript; `shell` for a shell session's state. */
  kind: z.enum(['page', 'chat', 'shell']).optional(),
  /** Absent when the page was ready; otherwise loading, unreachable or blocked (see PageStatus). */
  status: PageStatus.optional(),
  /** The chat's last message from the other side and its quick replies (redacted), for the gate. */
  chat: ObservedChat.optional(),
  url: z.string(),
  title: z.string(),
  hash: z.string(),
  chars: z.number().int(),
  /** The redacted snapshot while it is among the last few; null once masked. */
  text: z.string().nullable(),
  /** Kept while the step is current, for the policy gate and step text after a resume. */
  elements: z.array(ObservedElement).default([]),
  /** A JavaScript dialog open over the page (redacted), for the gate: accepting it is judged like what opened it. */
  dialog: ObservedDialog.optional(),
  /** The task's downloads (redacted), for the gate: keeping a program asks the user. */
  downloads: z.array(ObservedDownload).optional(),
  /** The ids of the task's own tabs at this step, for the policy gate. */
  ownTabs: z.array(z.number().int()).optional(),
  /** Origins of cross-origin frames whose words the step showed the model (see frame-authority). */
  frameOrigins: z.array(z.string()).optional(),
  screenshot: Screenshot.optional(),
});
export type ObservationRecord = z.infer<typeof ObservationRecord>;

export const StepRecord = z.object({
  index: z.number().int().nonnegative(),
  startedAt: z.number(),
  observation: ObservationRecord,
  /** Problems the loop told the model about in this step's prompt. */
  notices: z.array(z.string()).default([]),
  reply: z
    .object({ text: z.string(), toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })) })
    .nullable(),
  calls: z.array(CallRecord).default([]),
  /** This step's tokens; cached and written counts are part of inputTokens, present when the provider reports them. */
  usage: z
    .object({ inputTokens: z.number(), outputTokens: z.number(), cachedInputTokens: z.number().optional(), cacheWriteTokens: z.number().optional() })
    .nullable()
    .default(null),
  costUsd: z.number().nullable().default(null),
});
export type StepRecord = z.infer<typeof StepRecord>;

export const AgentStatus = z.enum(['running', 'awaiting_approval', 'awaiting_user', 'completed', 'failed', 'stopped', 'handed_to_user']);
export type AgentStatus = z.infer<typeof AgentStatus>;

/**
 * How a task ended by its own account. A support chat says more: what was reached (`agreed`, `refused`, ...), and
 * whether the user has to take over (`handedToUser`).
 */
export const TaskOutcome = z.object({
  success: z.boolean(),
  summary: z.string(),
  label: z.string().optional(),
  handedToUser: z.boolean().optional(),
});
export type TaskOutcome = z.infer<typeof TaskOutcome>;

/**
 * A message the user wrote after the task had ended, continuing it: the model gets it before step `beforeStep`, after
 * everything that came before (already redacted, like the task).
 */
export const FollowUp = z.object({
  text: z.string(),
  beforeStep: z.number().int().nonnegative(),
  at: z.number(),
});
export type FollowUp = z.infer<typeof FollowUp>;

/** Everything needed to resume a task: persisted after every change, parsed (never cast) when loaded. */
export const AgentState = z.object({
  version: z.literal(1),
  taskId: z.string(),
  /** The task as the model sees it: already redacted. */
  task: z.string(),
  startUrl: z.string(),
  status: AgentStatus,
  startedAt: z.number(),
  plan: Plan.nullable(),
  /** The plan the user approved in ask mode; a plan with different sub-goals needs approval again. */
  approvedPlan: Plan.nullable().default(null),
  /**
   * Origins the user approved during this task, for this task only: `sites` through "Approve for site" (acting there
   * needs no approval, like the start origin), `reach` where a single approved step went (the egress guard lets the
   * task's tabs load them).
   */
  approvedOrigins: z.object({ sites: z.array(z.string()).default([]), reach: z.array(z.string()).default([]) }).default({ sites: [], reach: [] }),
  steps: z.array(StepRecord),
  outcome: TaskOutcome.nullable(),
  /** Why the task ended, when it did not end with done. */
  endReason: z.string().nullable(),
  usage: z.object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    /** Of the input tokens, those the provider read from its prompt cache (absent in tasks saved before it was counted). */
    cachedInputTokens: z.number().optional(),
    costUsd: z.number().nullable(),
  }),
  /** Time spent waiting for the user or stopped between runs: the time budget counts only working time. */
  waitedMs: z.number().nonnegative().default(0),
  /** When the state was last saved, to tell how long a resumed task was stopped. */
  updatedAt: z.number().optional(),
  /** The summary that stands in for older steps in the prompt, once they passed the environment's threshold. */
  memory: WorkingMemory.optional(),
  /** The user's follow-up messages, in order: each continued the task after it had ended. */
  followUps: z.array(FollowUp).optional(),
});
export type AgentState = z.infer<typeof AgentState>;

export function isFinished(status: AgentStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'stopped' || status === 'handed_to_user';
}

/** The first step of the task's latest turn: 0, or where the last follow-up continued it. */
export function turnStart(state: Pick<AgentState, 'followUps'>): number {
  return state.followUps?.at(-1)?.beforeStep ?? 0;
}
