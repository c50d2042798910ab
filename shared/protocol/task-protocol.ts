import { z } from 'zod';
import { RoutineRun, TargetIdentity } from '../routines/routine';
import { AgentState } from '../agent/agent-state';
import { ObservedDownload } from '../agent/environment';
import { ProviderSettings } from '../agent/providers/provider-settings';
import { SETTINGS_VERSION } from './settings-version';
import { RiskClass } from '../agent/risk-class';
import { ErrorShape } from '../errors';
import { Flow } from './flow';
import { DEFAULT_MCP_SETTINGS, McpSettings } from './mcp-protocol';

export const TaskMode = z.enum(['ask', 'act']);
export type TaskMode = z.infer<typeof TaskMode>;

/**
 * 'paused': the user paused the task and it holds before its next action until they resume it (or stop it).
 * 'handed_to_user': a support chat the user has to take over (a decision, a file, a fact only they have).
 */
export const TaskStatus = z.enum(['queued', 'running', 'paused', 'awaiting_approval', 'awaiting_user', 'completed', 'failed', 'stopped', 'handed_to_user']);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** An approval the task is waiting for: exactly what will happen, where, and why it needs the user. */
export const PendingApproval = z.object({
  id: z.string(),
  step: z.number().int().nonnegative(),
  callId: z.string(),
  tool: z.string(),
  /** "Click [31] button "Place order"". Redacted: personal data shows as placeholders. */
  intent: z.string(),
  classes: z.array(RiskClass),
  reason: z.string(),
  url: z.string(),
  askedAt: z.number(),
  /** 'action': the gate stopped a step before it ran; 'egress': the browser held a request the step made. */
  kind: z.enum(['action', 'egress']).optional(),
  /** The origin the step takes the user or sends data to, when it leaves where the task is. */
  destination: z.string().nullable().optional(),
  /** What goes there: the method and the names of the fields (values never leave the page). */
  sends: z.object({ method: z.string(), fields: z.array(z.string()) }).nullable().optional(),
  /** The origin of the page or frame the step acts in. */
  actsOn: z.string().nullable().optional(),
  /** What the step does, in words. */
  consequence: z.string().optional(),
  /** A look-alike destination (an internationalized name resembling a site the user knows), shown first. */
  warning: z.string().optional(),
  /** The origin "Approve for site" approves for this task; null or absent when only a single approval is allowed. */
  siteApproval: z.string().nullable().optional(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

export const PendingQuestion = z.object({ id: z.string(), text: z.string(), askedAt: z.number() });
export type PendingQuestion = z.infer<typeof PendingQuestion>;

/** Something that happened to the task outside the model's steps (the browser restarted), shown among its steps. */
export const TaskNote = z.object({
  at: z.number(),
  /** How many actions the task had made when it happened, so the note shows in its place among them. */
  afterCalls: z.number().int().nonnegative(),
  text: z.string(),
});
export type TaskNote = z.infer<typeof TaskNote>;
/** The facts a support chat may be told, by name (order_number, email, name, ...). Empty values are dropped. */
export const ChatFacts = z
  .record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'Fact names are lowercase letters, digits and underscores, e.g. order_number'), z.string().max(500))
  .transform((facts) => {
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(facts)) if (value.trim() !== '') kept[name] = value.trim();
    return kept;
  });
export type ChatFacts = z.infer<typeof ChatFacts>;

/** A dated promise the other side made in a case, quoted as they wrote it (see shared/agent/support-promises). */
export const CasePromise = z.object({
  quote: z.string(),
  when: z.string(),
  dueAt: z.number(),
  /** When the message that holds it was first seen. */
  madeAt: z.number().optional(),
  /** The step whose screenshot shows the message, when one was kept. */
  shotStep: z.number().int().optional(),
  /** When the user was reminded that it fell due. */
  remindedAt: z.number().optional(),
});
export type CasePromise = z.infer<typeof CasePromise>;

/**
 * A written escalation Deputy drafted when a case's chat closed or stalled (see shared/agent/support-draft): for the
 * site's contact form, or a support address (then a mailto: link opens it in the user's mail program).
 */
export const WrittenEscalation = z.object({
  via: z.enum(['contact_form', 'email']),
  /** The contact page's address, or the support email address. */
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  draftedAt: z.number(),
  /** Why the chat could not finish the case. */
  reason: z.string(),
  /** The names of the user's facts the draft holds. */
  factsUsed: z.array(z.string()),
  mailto: z.string().optional(),
  /**
   * Whether it went, read from the case's steps: the contact form's sending waits for the user's approval, so it is
   * not sent yet, waiting for that approval, declined, approved (but the sending did not finish), or sent, with when.
   */
  sending: z
    .object({
      status: z.enum(['not_sent', 'awaiting_approval', 'declined', 'approved', 'sent']),
      at: z.number().optional(),
    })
    .optional(),
});
export type WrittenEscalation = z.infer<typeof WrittenEscalation>;
export type DraftSending = NonNullable<WrittenEscalation['sending']>;

/**
 * A support-chat case file: the goal, the facts shared, the transcript with times (redacted), what the other side
 * promised, quoted, and how the case ended. Saved at every step while the case runs (`open`), so it survives the chat
 * closing, the tab crashing or the worker restarting; the final save adds the outcome and summary.
 */
export const ChatCaseResult = z.object({
  outcome: z.string(),
  summary: z.string(),
  vendor: z.string().nullable(),
  transcript: z.array(
    z.object({
      author: z.enum(['us', 'them', 'system']),
      text: z.string(),
      /** When Deputy first saw the message (epoch ms). */
      at: z.number().optional(),
      /** The time the widget itself showed, when it showed one. */
      time: z.string().nullable().optional(),
    }),
  ),
  /** The case's goal, in the user's words. */
  goal: z.string().optional(),
  /** The names of the facts the user allowed that were actually written into the chat. */
  factsShared: z.array(z.string()).optional(),
  promises: z.array(CasePromise).optional(),
  /** What Deputy did on its own to reach a person, in order ("chose the quick reply 'Talk to a person'"). */
  escalations: z.array(z.string()).optional(),
  /** True while the case still runs: this is the last saved state, not its end. */
  open: z.boolean().optional(),
  /** The written escalation drafted when the chat closed or stalled. */
  written: WrittenEscalation.optional(),
});
export type ChatCaseResult = z.infer<typeof ChatCaseResult>;

const FileName = z
  .string()
  .min(1)
  .max(255)
  .refine((name) => !/[/\\]/.test(name), 'A file name has no folders in it');

/**
 * A file the user attached to a task, for the upload tool. The model sees only its name, size and type, and uploads
 * it by name: a page or the model can never name a path.
 */
export const TaskFile = z.object({
  name: FileName,
  size: z.number().int().nonnegative(),
  type: z.string().max(200).default(''),
  /** An absolute path on this computer: a file given to `npm run task --file`. */
  path: z.string().min(1).max(4096).optional(),
  /** The id a file chosen in the side panel is kept under in the extension (its bytes never go into the record). */
  stored: z.string().max(400).optional(),
});
export type TaskFile = z.infer<typeof TaskFile>;

/** The most a task may attach from the side panel, in bytes (they travel to the background and are kept there). */
export const MAX_ATTACHED_BYTES = 25 * 1024 * 1024;

/** A file as task.start takes it: a path on this computer, or the content of a file chosen in the panel (base64). */
export const TaskFileInput = z.union([
  z.object({
    name: FileName,
    size: z.number().int().nonnegative(),
    type: z.string().max(200).default(''),
    path: z.string().max(4096).regex(/^(\/|[A-Za-z]:[\\/])/, 'A file path must be absolute'),
  }),
  z.object({
    name: FileName,
    size: z.number().int().nonnegative().max(MAX_ATTACHED_BYTES),
    type: z.string().max(200).default(''),
    base64: z.string().max(Math.ceil(MAX_ATTACHED_BYTES / 3) * 4 + 4),
  }),
]);
export type TaskFileInput = z.input<typeof TaskFileInput>;

/** A task as stored in chrome.storage and shown in the side panel. `agent` is the loop's own resumable state. */
export const TaskRecord = z.object({
  id: z.string(),
  tabId: z.number().int().nonnegative(),
  flow: Flow,
  /** The task as given, already redacted. */
  text: z.string(),
  mode: TaskMode,
  site: z.string(),
  status: TaskStatus,
  createdAt: z.number(),
  updatedAt: z.number(),
  agent: AgentState.nullable(),
  approval: PendingApproval.nullable(),
  question: PendingQuestion.nullable(),
  error: ErrorShape.nullable(),
  stopRequested: z.boolean(),
  /**
   * The browser session `tabId` belongs to. Tab ids start over when the browser restarts, so a task from an earlier
   * session finds its page again (or reopens it) before it goes on.
   */
  tabSession: z.string().optional(),
  /** The address of the task's page as last seen: where it continues after a browser restart. */
  pageUrl: z.string().optional(),
  notes: z.array(TaskNote).optional(),
  /** The user pressed Pause: the task holds at its next check (before the next action) and its status turns 'paused'. */
  pauseRequested: z.boolean().default(false),
  /** For a support chat: the facts the user allowed Deputy to share. */
  facts: z.record(z.string(), z.string()).default({}),
  /** For a support chat, once it ended: what was agreed and the transcript. */
  chat: ChatCaseResult.nullable().default(null),
  /** The address the task was asked to open first (`task.start` with a url); its site is the task's site. */
  startUrl: z.string().optional(),
  /** Files the user attached for the upload tool. */
  files: z.array(TaskFile).optional(),
  /** What the task downloaded: name, where it was saved, size and type, or why it was not kept. */
  downloads: z.array(ObservedDownload).optional(),
  /** The identity of the element each call acted on, by call id: what "save as a routine" keeps instead of refs. */
  targets: z.record(z.string(), TargetIdentity).optional(),
  /** For a routine's replay: its steps, how far it got, the model calls it needed and the steps the model repaired. */
  routine: RoutineRun.optional(),
  /** A replay's plain parameter values (never its secrets): repaired steps turn them back into parameters. */
  routineParams: z.record(z.string(), z.string()).optional(),
  /** Started by a schedule: which, and what this run may spend on the model. */
  schedule: z.object({ id: z.string(), costCapUsd: z.number() }).optional(),
});
export type TaskRecord = z.infer<typeof TaskRecord>;

/** A screenshot of the tab at one step of a web task, kept with its trace. */
export const StepScreenshot = z.object({
  step: z.number().int().nonnegative(),
  mediaType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
  base64: z.string(),
  at: z.number(),
});
export type StepScreenshot = z.infer<typeof StepScreenshot>;

/** The user's settings. The API key stays in chrome.storage.local and goes nowhere but the provider. */
export const Settings = z.object({
  /** Which SETTINGS_VERSION wrote them; Deputy sets it on every save. */
  version: z.number().int().min(1).default(SETTINGS_VERSION),
  provider: ProviderSettings.nullable(),
  defaultMode: TaskMode,
  /** Ask first: approve every action one by one too, not only the plan (whose routine steps it otherwise approves). */
  approveEachStep: z.boolean().default(false),
  stepBudget: z.number().int().min(1).max(200),
  /** The most one task may spend on the model per turn, in dollars; null: no cap. */
  maxCostUsd: z.number().positive().max(1000).nullable().default(null),
  allowedSites: z.array(z.string().min(1)),
  deniedSites: z.array(z.string().min(1)),
  redactEmails: z.boolean(),
  redactPhones: z.boolean(),
  /** Send a screenshot with each page to models that accept images (more tokens, better on visual pages). */
  screenshots: z.boolean().default(false),
  /**
   * How the page is sent to the model after an action: `diff` (the default), what changed since a whole snapshot
   * earlier in the prompt (whole where there is none, when the change is not smaller, and when the model asks with
   * full_page), a third fewer input tokens; `full`, the whole snapshot each step.
   */
  pageView: z.enum(['full', 'diff']).default('diff'),
  /** Personal values the model may use only as `{{name}}` placeholders, typed into pages by Deputy itself. */
  personalData: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/), z.string()),
  /** Keep a screenshot of each step of a web task with its trace (shown in the history). */
  stepScreenshots: z.boolean().default(true),
  /** Finished tasks beyond this many, newest kept, are deleted with their traces and screenshots. */
  historyMaxTasks: z.number().int().min(1).max(10_000).default(200),
  /** Finished tasks older than this many days are deleted with their traces and screenshots. */
  historyMaxDays: z.number().int().min(1).max(3650).default(30),
  /**
   * Send clicks, keys, drags and scrolling as real input through the browser's debugger (the browser shows that Deputy
   * is debugging it while a task runs); off, pages get synthetic events, which some of them ignore.
   */
  trustedInput: z.boolean().default(true),
  /**
   * Ask the configured model for a second opinion on steps the rules would let through (one small call per such
   * step). It can only add caution: a step it calls risky asks for approval; it never lets through one the rules stop.
   */
  riskClassifier: z.boolean().default(false),
  /** What agents connected over MCP (Claude Code, Cursor, ...) may do; off until the user turns it on. */
  mcp: McpSettings.default(DEFAULT_MCP_SETTINGS),
  /** The panel's and popup's colours: the system's light or dark, or one of them always. */
  theme: z.enum(['system', 'light', 'dark']).default('system'),
  /**
   * Cookie banners, answered by Deputy through the site's consent manager before the model reads the page: reject what
   * is not essential, accept all, or leave the banner to the task (the model sees it).
   */
  cookieBanners: z.enum(['reject', 'accept', 'leave']).default('reject'),
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = {
  version: SETTINGS_VERSION,
  provider: null,
  defaultMode: 'ask',
  approveEachStep: false,
  stepBudget: 30,
  maxCostUsd: null,
  allowedSites: [],
  deniedSites: [],
  redactEmails: false,
  redactPhones: false,
  screenshots: false,
  pageView: 'diff',
  personalData: {},
  stepScreenshots: true,
  historyMaxTasks: 200,
  historyMaxDays: 30,
  trustedInput: true,
  riskClassifier: false,
  mcp: DEFAULT_MCP_SETTINGS,
  theme: 'system',
  cookieBanners: 'reject',
};

export const ApprovalDecision = z.enum(['approve', 'reject', 'approve_site']);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

const TaskRef = z.object({ taskId: z.string().min(1) });

/** Side panel / popup methods for tasks and settings, merged into the ui channel. */
export const taskUiMethods = {
  'task.start': {
    params: z.object({
      tabId: z.number().int().nonnegative(),
      text: z.string().trim().min(1, 'Describe the task').max(4000),
      mode: TaskMode.optional(),
      flow: Flow.default('task'),
      /** For a support chat: the facts Deputy may share (order number, email, name). */
      facts: ChatFacts.optional(),
      /** An address to open in the tab first; the task starts there (its site is the task's site). */
      url: z.url({ protocol: /^https?$/ }).optional(),
      /** Files the user attached for the task to upload (the side panel's picker, or `npm run task --file`). */
      files: z.array(TaskFileInput).max(20).default([]),
    }),
    result: TaskRecord,
  },
  'task.stop': { params: TaskRef, result: TaskRecord },
  /** Holds a running task before its next action; the model's answer in flight is kept, not asked again. */
  'task.pause': { params: TaskRef, result: TaskRecord },
  /** Goes on from where the task was paused, even after the worker restarted in between. */
  'task.resume': { params: TaskRef, result: TaskRecord },
  'task.approve': {
    params: TaskRef.extend({ approvalId: z.string(), decision: ApprovalDecision, note: z.string().max(1000).optional() }),
    result: TaskRecord,
  },
  /** Continues an ended task with the user's follow-up: the same tab, and the model keeps everything so far. */
  'task.continue': { params: TaskRef.extend({ text: z.string().trim().min(1, 'Write your follow-up').max(4000) }), result: TaskRecord },
  'task.answer': { params: TaskRef.extend({ questionId: z.string(), answer: z.string().max(4000) }), result: TaskRecord },
  'task.get': { params: TaskRef, result: TaskRecord.nullable() },
  'task.list': {
    params: z.object({ tabId: z.number().int().optional(), site: z.string().optional(), limit: z.number().int().positive().max(500).optional() }),
    result: z.array(TaskRecord),
  },
  'task.delete': { params: TaskRef, result: z.object({ deleted: z.boolean() }) },
  /** The task's trace as JSONL (already redacted). */
  'task.trace': { params: TaskRef, result: z.object({ jsonl: z.string(), records: z.number().int() }) },
  /** The screenshot of each step of a web task, oldest first (none when step screenshots are off). */
  'task.screenshots': { params: TaskRef, result: z.array(StepScreenshot) },
  /** The small image of each step's screenshot, for the step cards. */
  'task.thumbnails': { params: TaskRef, result: z.array(StepScreenshot) },
  /** One step's full screenshot, or null once it was let go (deleted with its task, or past the size cap). */
  'task.screenshot': { params: TaskRef.extend({ step: z.number().int().nonnegative() }), result: StepScreenshot.nullable() },
  'settings.get': { params: z.object({}), result: Settings.extend({ apiKeySet: z.boolean() }) },
  'settings.set': { params: Settings.partial(), result: Settings.extend({ apiKeySet: z.boolean() }) },
  /** One tiny request to the provider: the given settings (unsaved form values; a blank key means the stored one) or the saved ones. */
  'settings.test': {
    params: z.object({ provider: ProviderSettings.optional() }),
    /** A failed test carries the error's code, so the panel can say it in its own words. */
    result: z.object({ ok: z.boolean(), message: z.string(), code: z.string().optional(), model: z.string().optional(), latencyMs: z.number().optional() }),
  },
} as const;

/**
 * What the model is writing while a step waits for its answer: sent as it streams (a few times a second at most),
 * never stored. `done` says the answer is complete and the step goes on.
 */
export const TaskThinking = z.object({
  taskId: z.string(),
  step: z.number().int().nonnegative(),
  /** When the model was asked. */
  since: z.number(),
  /** The model's text so far (its last few thousand characters). */
  text: z.string(),
  done: z.boolean(),
});
export type TaskThinking = z.infer<typeof TaskThinking>;

export const taskUiEvents = {
  'task.updated': TaskRecord,
  'task.thinking': TaskThinking,
} as const;
