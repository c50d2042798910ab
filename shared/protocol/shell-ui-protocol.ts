import { z } from 'zod';
import { ShellProcess } from './shell-protocol';

/**
 * The side panel's view of a shell task: the background folds the host's `shell.task` events into one bounded record,
 * keeps it in chrome.storage.session (so a panel opened mid-task shows the task), and sends it whole to every open
 * panel after each change. A password the user types is never part of it.
 */
export const SHELL_RUN_MAX_STEPS = 80;
export const SHELL_RUN_MAX_PROCESSES = 30;
export const SHELL_OUTPUT_TAIL_CHARS = 4000;
export const SHELL_STEP_RESULT_CHARS = 1500;

export const ShellRunStep = z.object({
  step: z.number().int().nonnegative(),
  callId: z.string(),
  tool: z.string(),
  arguments: z.string(),
  status: z.string(),
  ok: z.boolean().nullable(),
  result: z.string().nullable(),
  at: z.number(),
});
export type ShellRunStep = z.infer<typeof ShellRunStep>;

export const ShellRunProcess = ShellProcess.extend({
  /** The latest output, for the live view (the log has all of it). */
  tail: z.string().max(SHELL_OUTPUT_TAIL_CHARS + 200),
});
export type ShellRunProcess = z.infer<typeof ShellRunProcess>;

export const ShellRunStatus = z.enum(['connecting', 'running', 'completed', 'failed', 'stopped']);
export type ShellRunStatus = z.infer<typeof ShellRunStatus>;

export const ShellRunRecord = z.object({
  sessionId: z.string(),
  sessionDir: z.string(),
  objective: z.string(),
  /** What the user typed ("this machine", "deploy@web1"), then the target as connected, with its OS and sudo. */
  target: z.string(),
  description: z.string().nullable(),
  mode: z.enum(['ask', 'act']),
  status: ShellRunStatus,
  resumed: z.boolean(),
  startedAt: z.number(),
  updatedAt: z.number(),
  steps: z.array(ShellRunStep).max(SHELL_RUN_MAX_STEPS),
  droppedSteps: z.number().int().nonnegative(),
  processes: z.array(ShellRunProcess).max(SHELL_RUN_MAX_PROCESSES),
  approval: z
    .object({ id: z.string(), intent: z.string(), reason: z.string(), classes: z.array(z.string()), alwaysAllowPrefix: z.string().optional(), askedAt: z.number() })
    .nullable(),
  question: z.object({ id: z.string(), text: z.string(), askedAt: z.number() }).nullable(),
  /** A password or passphrase prompt: only the prompt; the answer goes straight to the host. */
  secret: z.object({ id: z.string(), prompt: z.string(), askedAt: z.number() }).nullable(),
  hostKey: z
    .object({ id: z.string(), host: z.string(), port: z.number().int(), keyType: z.string(), fingerprint: z.string(), knownHostsFile: z.string(), askedAt: z.number() })
    .nullable(),
  stopRequested: z.boolean(),
  summary: z.string().nullable(),
  /** It ended because the host went away: `shell.resume` can take it on from its last saved step. */
  resumable: z.boolean().default(false),
});
export type ShellRunRecord = z.infer<typeof ShellRunRecord>;

export const shellUiMethods = {
  /** The latest shell task (running or finished), or null when none was started in this browser session. */
  'shell.current': { params: z.object({}), result: ShellRunRecord.nullable() },
};

export const shellUiEvents = {
  'shell.updated': ShellRunRecord,
};
