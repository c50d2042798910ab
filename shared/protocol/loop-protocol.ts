import { z } from 'zod';
import { FormFill } from './form-protocol';
import { MailboxConfig, MailEvent, SecretRef } from './mail-protocol';

/**
 * The fix loop's definition, its events and its snapshot. The same schemas read `deputy.loop.json`, the CLI's flags
 * (after they are turned into this shape), and the params of `loop.start` from the side panel, so every entry point
 * validates the same way. Durations are in seconds because people write them by hand.
 */

const seconds = (fallback: number) => z.number().positive().max(7 * 24 * 3600).default(fallback);

const CheckSpec = z.object({
  command: z.string().min(1).describe('Shell command run in the repo; exit code 0 means the check passed'),
  timeoutSeconds: seconds(600),
  format: z.enum(['auto', 'tap', 'junit', 'vitest', 'jest', 'pytest', 'text']).default('auto'),
  junitFile: z
    .string()
    .min(1)
    .optional()
    .describe('A JUnit XML report the command writes, relative to the repo; without it, one written to {junit} or $DEPUTY_JUNIT_FILE (a temporary file) is read'),
});

/** A header's value: written out, or read from the environment or a file (an API key), so the definition holds no secret. */
const HeaderValue = z.union([z.string(), SecretRef]);

/**
 * An HTTP request that starts the job. The body is one of: raw text (`body`, sent as JSON unless `contentType` says
 * otherwise), a JSON value (`json`), form fields sent as application/x-www-form-urlencoded (`form`), or form fields and
 * files sent as multipart/form-data (`multipart`). A POST starts a job each time it arrives, so it is tried again only
 * when it was never sent (the connection was refused, the name did not resolve), unless `idempotent` says that sending
 * it twice is harmless; GET and PUT are repeatable by definition.
 */
const HttpTrigger = z
  .strictObject({
    url: z.url({ protocol: /^https?$/ }),
    method: z.enum(['GET', 'POST', 'PUT']).default('POST'),
    body: z.string().optional(),
    contentType: z.string().min(1).optional().describe('The content type of a raw body (default application/json)'),
    json: z.json().optional(),
    form: z.record(z.string().min(1), z.union([z.string(), z.array(z.string())])).optional(),
    multipart: z
      .record(z.string().min(1), z.union([z.string(), z.strictObject({ file: z.string().min(1).describe('Relative to the repo'), type: z.string().min(1).optional() })]))
      .optional(),
    headers: z.record(z.string().min(1), HeaderValue).default({}),
    idempotent: z.boolean().default(false).describe('Sending the request twice is harmless, so a failed attempt may be repeated'),
    timeoutSeconds: seconds(60),
  })
  .refine((spec) => [spec.body, spec.json, spec.form, spec.multipart].filter((part) => part !== undefined).length <= 1, {
    message: 'give one body: body, json, form or multipart',
  })
  .refine((spec) => spec.method !== 'GET' || [spec.body, spec.json, spec.form, spec.multipart].every((part) => part === undefined), {
    message: 'a GET request has no body: use POST or PUT, or put the values in the URL',
  });

/** A web form filled in the browser by Deputy (see form-protocol.ts): for services whose only front door is a page. */
const PageTrigger = z.strictObject({
  page: FormFill.shape.url,
  fields: FormFill.shape.fields,
  submit: FormFill.shape.submit,
  confirm: FormFill.shape.confirm,
  timeoutSeconds: FormFill.shape.timeoutSeconds,
  idempotent: z.boolean().default(false).describe('Sending the form twice is harmless, so a fill that failed after pressing submit may be repeated'),
});

export const TriggerSpec = z.union([HttpTrigger, z.strictObject({ command: z.string().min(1), timeoutSeconds: seconds(600) }), PageTrigger]);
export type TriggerSpec = z.infer<typeof TriggerSpec>;

/**
 * Where the job's output appears: a new file in a folder (a Downloads folder works too), a URL, or a mail with the
 * output attached (mail-protocol.ts; the password or token is only named there, never written).
 */
export const OutputSpec = z.union([
  z.strictObject({
    folder: z.string().min(1),
    pattern: z.string().min(1).describe('Glob of the file name, for example "report-*.json"'),
    timeoutSeconds: seconds(900),
    pollSeconds: seconds(5),
  }),
  z.strictObject({ url: z.url(), timeoutSeconds: seconds(120) }),
  z.strictObject({ mail: MailboxConfig }),
]);
export type OutputSpec = z.infer<typeof OutputSpec>;

/**
 * How the loop knows a push is deployed. With a health URL it polls it, and with expectCommit (or expectText) only an
 * answer that names the pushed commit (or holds the text) counts: during a rolling deploy the old version answers
 * 200 too. Without a URL it waits a blind delay.
 */
const DeploySpec = z
  .strictObject({
    healthUrl: z.url().optional(),
    expectCommit: z.boolean().default(false).describe('The health answer must contain the pushed commit (its full hash or a prefix of 7 or more)'),
    expectText: z.string().min(1).optional().describe('The health answer must contain this text'),
    waitSeconds: z.number().nonnegative().max(24 * 3600).default(30).describe('Without a health URL: how long to wait after a push'),
    timeoutSeconds: seconds(600),
    backoffStartSeconds: seconds(15),
    backoffMaxSeconds: seconds(60),
  })
  .refine((deploy) => deploy.healthUrl !== undefined || (!deploy.expectCommit && deploy.expectText === undefined), {
    message: 'expectCommit and expectText need a healthUrl',
  });

/**
 * Document mode: the output the job produces (a .pptx, .xlsx or .docx) is judged against a reference template, and
 * its findings are the check's failures. Paths are relative to the repo or absolute; a template or rules file inside
 * the repo defines the check, so a fix may not change it.
 */
const DocumentSpec = z
  .strictObject({
    template: z.string().min(1).optional().describe('The reference document the output must match (same kind)'),
    rules: z.string().min(1).optional().describe('A rules.json (deputy compare --learn) that tunes or replaces what is learned from the template'),
    images: z.boolean().default(true).describe("Draw the output's and the template's pages side by side in each iteration's report (needs LibreOffice)"),
    maxSizeMb: z.number().positive().max(2048).optional().describe('The largest document accepted (default 100 MB)'),
  })
  .refine((spec) => spec.template !== undefined || spec.rules !== undefined, { message: 'needs a template or a rules file' });

/**
 * Research when stuck: before the loop gives up on the same failures, a model (the same providers as web tasks) reads
 * the failures, the recent diffs and the output and writes a root-cause analysis into the next fixer prompt. The key
 * is never part of the definition: it comes from the environment (CLI) or the side panel's settings.
 */
const ResearchSpec = z.strictObject({
  enabled: z.boolean().default(true),
  provider: z.enum(['openai', 'anthropic', 'openai-compatible']).optional(),
  model: z.string().min(1).optional(),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
});

const FixerSpec = z.strictObject({
  kind: z.enum(['claude', 'command']).default('claude'),
  /** The executable, and for example `["wsl", "--"]` as a prefix to run it inside WSL from Windows. */
  claudePath: z.string().min(1).default('claude'),
  commandPrefix: z.array(z.string().min(1)).default([]),
  /** For kind "command": a shell command that receives the prompt on stdin. */
  command: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  maxTurns: z.number().int().positive().max(500).optional(),
  permissionMode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan']).default('acceptEdits'),
  allowedTools: z.array(z.string().min(1)).optional(),
  disallowedTools: z.array(z.string().min(1)).optional(),
  /** Shell commands the fixer may run without asking, besides the check and the build. */
  allowCommands: z.array(z.string().min(1)).default([]),
  timeoutSeconds: seconds(600),
});

export const LoopConfig = z
  .strictObject({
    repo: z.string().min(1),
    /** The check command; optional in document mode, where it must pass as well when given. */
    check: z.preprocess((value) => (typeof value === 'string' ? { command: value } : value), CheckSpec.optional()),
    document: DocumentSpec.optional(),
    research: ResearchSpec.default(() => ResearchSpec.parse({})),
    branch: z.string().min(1).optional(),
    remote: z.string().min(1).default('origin'),
    trigger: TriggerSpec.optional(),
    output: OutputSpec.optional(),
    deploy: DeploySpec.default(() => DeploySpec.parse({})),
    /** A build command the fixer may run (allowed like the check). */
    build: z.string().min(1).optional(),
    /** Let a fix change tests or the check's definition; such a fix waits for the user's approval before it is pushed. */
    allowTestEdits: z.boolean().default(false),
    logs: z.strictObject({ command: z.string().min(1), timeoutSeconds: seconds(120), maxChars: z.number().int().positive().default(4000) }).optional(),
    startFrom: z.enum(['trigger', 'output', 'check']).default('trigger'),
    /** With startFrom "check": an existing output file the first check receives. */
    outputFile: z.string().min(1).optional(),
    allowedPaths: z.array(z.string().min(1)).default([]),
    protectedPaths: z.array(z.string().min(1)).default([]),
    fabricationPatterns: z.array(z.string().min(1)).default([]),
    guidanceFile: z.string().min(1).default('CLAUDE.md'),
    fixer: FixerSpec.default(() => FixerSpec.parse({})),
    budgets: z
      .strictObject({
        maxIterations: z.number().int().positive().max(1000).default(10),
        maxCostUsd: z.number().positive().default(20),
        maxWallMinutes: z.number().positive().default(240),
      })
      .default({ maxIterations: 10, maxCostUsd: 20, maxWallMinutes: 240 }),
    retries: z
      .strictObject({ attempts: z.number().int().min(1).max(10).default(3), backoffSeconds: z.number().nonnegative().default(5) })
      .default({ attempts: 3, backoffSeconds: 5 }),
  })
  .refine((config) => config.startFrom !== 'output' || config.output !== undefined, {
    message: 'startFrom "output" needs an "output" section',
    path: ['startFrom'],
  })
  .refine((config) => config.check !== undefined || config.document !== undefined, {
    message: 'needs a check command, or an output template to judge the output document against (document mode)',
    path: ['check'],
  })
  .refine((config) => config.document === undefined || config.output !== undefined, {
    message: 'document mode needs an "output" section: where each run of the job leaves its document (a folder and file pattern, a URL, or a mailbox)',
    path: ['output'],
  });
export type LoopConfig = z.infer<typeof LoopConfig>;
export type LoopConfigInput = z.input<typeof LoopConfig>;

export const LoopStep = z.enum(['trigger', 'output', 'check', 'fix', 'validate', 'commit', 'push', 'deploy', 'logs']);
export type LoopStep = z.infer<typeof LoopStep>;

export const LoopOutcome = z.enum(['passed', 'stuck', 'needs_human', 'budget', 'stopped', 'failed']);
export type LoopOutcome = z.infer<typeof LoopOutcome>;

export const FailureItem = z.object({
  id: z.string().max(500),
  message: z.string().max(4000),
  /**
   * error: the test could not run at all; failure: it ran and failed; warning: output without a known structure.
   * critical, high, medium: a finding about an output document (medium ones do not fail the check).
   */
  severity: z.enum(['error', 'failure', 'warning', 'critical', 'high', 'medium']),
  file: z.string().max(500).optional(),
  /** Where inside the file or document: a line, a test, a slide and shape, a sheet and cell. */
  location: z.string().max(500).optional(),
});
export type FailureItem = z.infer<typeof FailureItem>;

/** What the judge said about one iteration's output document, for the panel, `deputy loop` and the report. */
export const DocumentVerdict = z.object({
  kind: z.enum(['pptx', 'xlsx', 'docx']),
  /** The document judged (as the loop received it). */
  output: z.string(),
  summary: z.string(),
  counts: z.object({ critical: z.number().int().nonnegative(), high: z.number().int().nonnegative(), medium: z.number().int().nonnegative() }),
  hollow: z.boolean(),
  /** report.html and findings.json of this iteration, in the loop's run folder. */
  reportPath: z.string().optional(),
  findingsPath: z.string().optional(),
});
export type DocumentVerdict = z.infer<typeof DocumentVerdict>;

const base = { loopId: z.string(), at: z.number(), iteration: z.number().int().nonnegative() };

export const OutputSource = z.enum(['mail', 'folder', 'url']);
export type OutputSource = z.infer<typeof OutputSource>;

/** One line of `deputy loop --json`, and the data of the host's `loop.event`. */
export const LoopEvent = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('loop.started'), repo: z.string(), branch: z.string(), resumed: z.boolean(), step: LoopStep }),
  z.object({ ...base, type: z.literal('step.started'), step: LoopStep }),
  z.object({ ...base, type: z.literal('step.finished'), step: LoopStep, ok: z.boolean(), detail: z.string().optional() }),
  z.object({ ...base, type: z.literal('check.result'), passed: z.boolean(), format: z.string(), failures: z.array(FailureItem), document: DocumentVerdict.optional() }),
  z.object({ ...base, type: z.literal('fixer.progress'), action: z.string() }),
  z.object({
    ...base,
    type: z.literal('fixer.finished'),
    costUsd: z.number(),
    sessionId: z.string().optional(),
    turns: z.number().int().optional(),
    isError: z.boolean(),
    /** Why an error result ended the run: auth, budget, max_turns, session_missing, api or execution. */
    errorKind: z.string().optional(),
    summary: z.string(),
  }),
  z.object({ ...base, type: z.literal('fix.rejected'), reasons: z.array(z.string()) }),
  z.object({ ...base, type: z.literal('commit.created'), commit: z.string(), summary: z.string() }),
  z.object({ ...base, type: z.literal('push.verified'), commit: z.string(), rebased: z.boolean() }),
  z.object({ ...base, type: z.literal('notice'), level: z.enum(['info', 'warn', 'error']), message: z.string() }),
  /** The job was started: what was sent (a command, a request, a form) and what came back. */
  z.object({
    ...base,
    type: z.literal('trigger.sent'),
    kind: z.enum(['command', 'http', 'form']),
    /** "POST https://svc.test/run (form, 3 fields)", the command, or the form's page. */
    target: z.string(),
    /** "HTTP 202", "command finished", or the page's confirmation. */
    result: z.string(),
    attempts: z.number().int().positive(),
  }),
  /** Waiting for the job's output; sent when the wait starts and every 30 s while it goes on. */
  z.object({
    ...base,
    type: z.literal('output.waiting'),
    source: OutputSource,
    /** The mailbox, the folder and pattern, or the URL. */
    where: z.string(),
    /** Which mails count, in words ("from *@service.test with \"report\" in the subject"). */
    rules: z.string().optional(),
    timeoutSeconds: z.number(),
    waitedSeconds: z.number().nonnegative(),
  }),
  /** What the mailbox wait saw: connections, mails passed over (with why), the mail taken, its attachments. */
  z.object({ ...base, type: z.literal('output.mail'), mail: MailEvent }),
  z.object({
    ...base,
    type: z.literal('output.received'),
    source: OutputSource,
    /** Where the output is now (saved into the loop's run folder for mail and URLs). */
    file: z.string(),
    name: z.string(),
    size: z.number().int().nonnegative(),
    from: z.string().optional(),
    subject: z.string().optional(),
    waitedSeconds: z.number().nonnegative(),
  }),
  /** Nothing usable came: nothing arrived in time, or the mail had no usable attachment. `check` says what to look at. */
  z.object({ ...base, type: z.literal('output.none'), source: OutputSource, where: z.string(), waitedSeconds: z.number().nonnegative(), reason: z.string(), check: z.string() }),
  z.object({
    ...base,
    type: z.literal('loop.finished'),
    outcome: LoopOutcome,
    reason: z.string(),
    costUsd: z.number(),
    reportPath: z.string().optional(),
  }),
]);
export type LoopEvent = z.infer<typeof LoopEvent>;

/** What `loop.status` answers: enough for a side panel to draw the loop without replaying every event. */
export const LoopSnapshot = z.object({
  loopId: z.string(),
  repo: z.string(),
  running: z.boolean(),
  iteration: z.number().int().nonnegative(),
  step: LoopStep,
  costUsd: z.number(),
  startedAt: z.number(),
  outcome: LoopOutcome.optional(),
  reason: z.string().optional(),
  stateFile: z.string(),
});
export type LoopSnapshot = z.infer<typeof LoopSnapshot>;

/** One field of a drafted loop as shown before the user starts it: what it does, its path in the loop file, its value. */
export const LoopDraftField = z.object({ label: z.string(), field: z.string(), value: z.string() });
export type LoopDraftField = z.infer<typeof LoopDraftField>;

export const LoopMethods = {
  'loop.start': {
    /** restart: set aside an unfinished loop of the same repository and start this definition instead. */
    /** approve: push a fix that waits for approval (it changes tests or the check) when resuming. */
    /** provider: the model for research when stuck (ProviderSettings, key included), held in memory only; the side panel's background fills it from the saved settings. */
    params: z.object({ config: z.unknown(), resume: z.boolean().default(false), restart: z.boolean().default(false), approve: z.boolean().optional(), provider: z.unknown().optional() }),
    result: LoopSnapshot,
  },
  /**
   * A loop described in words, drafted by the model (provider: the saved model, filled in by the background) and
   * validated like deputy.loop.json; nothing starts until the panel sends the definition with loop.start.
   */
  'loop.describe': {
    /** draftId: the panel's name for this draft, so loop.describeCancel can stop it while the model is still writing. */
    params: z.object({ description: z.string().min(1).max(4000), repo: z.string().min(1), provider: z.unknown().optional(), draftId: z.string().min(1).max(100).optional() }),
    result: z.object({ model: z.string(), definition: z.record(z.string(), z.unknown()), fields: z.array(LoopDraftField), costUsd: z.number().optional() }),
  },
  /** Stops a draft still waiting for the model (its loop.describe call then fails with `cancelled`); false when none was running. */
  'loop.describeCancel': { params: z.object({ draftId: z.string().min(1).max(100) }), result: z.object({ cancelled: z.boolean() }) },
  'loop.status': { params: z.object({ loopId: z.string().optional() }), result: z.object({ loops: z.array(LoopSnapshot) }) },
  'loop.stop': { params: z.object({ loopId: z.string() }), result: LoopSnapshot },
} as const;

export const LoopEvents = { 'loop.event': LoopEvent } as const;
