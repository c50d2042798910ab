import { z } from 'zod';

/**
 * Shell tasks over the host channel: the side panel starts one on this machine or an SSH host, answers what only the
 * user may answer (approvals, questions, an unknown host key, a password a command asks for), watches its commands and
 * background processes, kills them, and searches the session's log.
 */

export const ShellTargetParam = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({ kind: z.literal('ssh'), destination: z.string().min(1).max(300) }),
]);
export type ShellTargetParam = z.infer<typeof ShellTargetParam>;

/** A command of a session, as lists show it. */
export const ShellProcess = z.object({
  id: z.string(),
  command: z.string(),
  cwd: z.string().nullable(),
  pty: z.boolean(),
  /** unknown: it was running when the host restarted; its group can still be killed. */
  status: z.enum(['running', 'exited', 'killed', 'lost', 'unknown']),
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  lost: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  /** It outlived its foreground wait (or was started in the background). */
  background: z.boolean(),
  group: z.number().nullable(),
  outputBytes: z.number().int().nonnegative(),
  outputLines: z.number().int().nonnegative(),
  /** Output arrived that the agent has not read yet. */
  unread: z.boolean(),
  by: z.enum(['agent', 'user']),
});
export type ShellProcess = z.infer<typeof ShellProcess>;

export const ShellRunParams = z.object({
  objective: z.string().min(1).max(8000),
  target: ShellTargetParam,
  mode: z.enum(['ask', 'act']).default('ask'),
  /** The provider settings (shared/agent ProviderSettings); checked by the host, which says what is missing. */
  provider: z.unknown(),
  maxSteps: z.number().int().min(1).max(500).optional(),
  /** The cost cap per turn in dollars (the user's setting); absent: none. */
  maxCostUsd: z.number().positive().max(1000).optional(),
  /** Seconds a command runs in the foreground before it goes on in the background. */
  waitSeconds: z.number().int().min(1).max(600).optional(),
});
export type ShellRunParams = z.input<typeof ShellRunParams>;

const SessionRef = z.object({ sessionId: z.string().min(1).max(128) });

/** The user's answer to something a shell task waits on: an approval, a question, a host key, a password. */
export const ShellAnswerParams = SessionRef.extend({
  id: z.string().min(1).max(128),
  approved: z.boolean().optional(),
  /** Why the user declined, their answer to a question, or the password they typed (never stored or logged). */
  text: z.string().max(4000).optional(),
  /** With an approval: commands starting with this are always allowed on the target from now on. */
  alwaysAllowPrefix: z.string().min(1).max(200).optional(),
});

export const ShellSearchHit = z.object({
  source: z.string(),
  lines: z.array(z.object({ n: z.number().int(), text: z.string(), match: z.boolean() })),
});

export const ShellSessionSummary = z.object({
  sessionId: z.string(),
  dir: z.string(),
  target: z.string(),
  objective: z.string(),
  mode: z.enum(['ask', 'act']),
  status: z.string(),
  updatedAt: z.number(),
  resumable: z.boolean(),
  /** The session is open in this host right now (a task running, or processes it can still kill). */
  open: z.boolean(),
});
export type ShellSessionSummary = z.infer<typeof ShellSessionSummary>;

const Started = z.object({ sessionId: z.string(), sessionDir: z.string() });

/** The shell methods of the host channel; host-channel.ts spreads them into its declaration. */
export const shellMethods = {
  'shell.run': { params: ShellRunParams, result: Started },
  'shell.resume': { params: SessionRef.extend({ provider: z.unknown(), maxCostUsd: z.number().positive().max(1000).optional() }), result: Started },
  'shell.answer': { params: ShellAnswerParams, result: z.object({ accepted: z.boolean() }) },
  'shell.stop': { params: SessionRef, result: z.object({ stopped: z.boolean() }) },
  'shell.kill': { params: SessionRef.extend({ processId: z.string().min(1).max(32) }), result: z.object({ process: ShellProcess }) },
  'shell.output': {
    params: SessionRef.extend({ processId: z.string().min(1).max(32), chars: z.number().int().min(100).max(200_000).default(20_000) }),
    result: z.object({ text: z.string() }),
  },
  'shell.search': {
    params: SessionRef.extend({
      query: z.string().min(1).max(500),
      regex: z.boolean().default(false),
      context: z.number().int().min(0).max(20).default(2),
      maxResults: z.number().int().min(1).max(50).default(20),
    }),
    result: z.object({ hits: z.array(ShellSearchHit), matches: z.number().int(), linesSearched: z.number().int() }),
  },
  'shell.sessions': { params: z.object({}), result: z.object({ sessions: z.array(ShellSessionSummary) }) },
};

/**
 * What a shell task tells the other side, by session: its start (target and objective), each trace record, what it
 * waits on (by `id`, answered with shell.answer), its processes and their new output (batched), and its end.
 */
export const ShellTaskEvent = z.discriminatedUnion('kind', [
  z.object({
    sessionId: z.string(),
    kind: z.literal('started'),
    sessionDir: z.string(),
    objective: z.string(),
    mode: z.enum(['ask', 'act']),
    target: z.string(),
    resumed: z.boolean(),
  }),
  z.object({ sessionId: z.string(), kind: z.literal('connected'), description: z.string() }),
  z.object({ sessionId: z.string(), kind: z.literal('trace'), record: z.record(z.string(), z.unknown()) }),
  z.object({
    sessionId: z.string(),
    kind: z.literal('approval'),
    id: z.string(),
    intent: z.string(),
    reason: z.string(),
    classes: z.array(z.string()),
    alwaysAllowPrefix: z.string().optional(),
  }),
  z.object({ sessionId: z.string(), kind: z.literal('question'), id: z.string(), question: z.string() }),
  /** A password or passphrase only the user may type: it goes to the command (or SSH) and nowhere else. */
  z.object({ sessionId: z.string(), kind: z.literal('secret'), id: z.string(), prompt: z.string() }),
  z.object({
    sessionId: z.string(),
    kind: z.literal('hostkey'),
    id: z.string(),
    host: z.string(),
    port: z.number().int(),
    keyType: z.string(),
    fingerprint: z.string(),
    knownHostsFile: z.string(),
  }),
  z.object({ sessionId: z.string(), kind: z.literal('process'), process: ShellProcess }),
  z.object({ sessionId: z.string(), kind: z.literal('output'), processId: z.string(), text: z.string() }),
  z.object({ sessionId: z.string(), kind: z.literal('finished'), status: z.string(), summary: z.string(), sessionDir: z.string() }),
]);
export type ShellTaskEvent = z.infer<typeof ShellTaskEvent>;

export const shellEvents = {
  'shell.task': ShellTaskEvent,
};
