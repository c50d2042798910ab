import { z } from 'zod';
import type { GateFacts } from './action-effect';
import { BlockedEgress, type EgressScope } from './egress';

/**
 * One element of the page as the policy gate and the step text need it. The snapshot text already shows it to the
 * model; this is the same element in structured form, so code can decide without parsing text.
 */
export const ObservedElement = z.object({
  ref: z.number().int().nonnegative(),
  role: z.string(),
  name: z.string(),
  /** The input type for form fields ("password", "email", ...), so typing into a password field is classed right. */
  inputType: z.string().optional(),
  /** The autocomplete hint ("cc-number", "current-password", ...), the strongest signal of what a field holds. */
  autocomplete: z.string().optional(),
  /** The frame it is in (0 is the page itself), so a resumed task can find the element again after a restart. */
  frame: z.number().int().nonnegative().optional(),
  /** The origin of its frame, when that is not the page's own: actions on it are judged by that origin. */
  origin: z.string().optional(),
});
export type ObservedElement = z.infer<typeof ObservedElement>;

/**
 * A tab of the task: the one it started in and those it opened (or was opened from its tabs). The user's other tabs
 * are counted, never shown: their titles and addresses reach the model only when it asks for them (tabs list).
 */
export const ObservedTab = z.object({
  id: z.number().int(),
  title: z.string(),
  url: z.string(),
  active: z.boolean(),
});
export type ObservedTab = z.infer<typeof ObservedTab>;

export const Screenshot = z.object({
  mediaType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
  base64: z.string(),
});
export type Screenshot = z.infer<typeof Screenshot>;

/**
 * What the gate needs of a support chat at one step: what the other side said since our last message (the message an
 * outgoing one answers) and the quick replies on offer, so "yes" or a chosen option is judged by what it answers.
 */
export const ObservedChat = z.object({
  lastFromThem: z.string().nullable(),
  choices: z.array(z.string()).default([]),
  /**
   * The written escalation Deputy drafted once the chat closed or stalled: while it stands, submitting a form (the
   * site's contact form) waits for the user, who reads the draft on the approval card.
   */
  draft: z.string().optional(),
});
export type ObservedChat = z.infer<typeof ObservedChat>;

/**
 * A JavaScript dialog the page opened (alert, confirm, prompt, or the "leave site?" of beforeunload), which freezes the
 * page until it is answered. Its text is the page's words: untrusted. The policy gate judges accepting it as it would
 * the action that opened it, so it keeps the element that did.
 */
export const ObservedDialog = z.object({
  type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
  message: z.string(),
  /** A prompt's suggested answer. */
  defaultPrompt: z.string().default(''),
  /** The page that opened it. */
  url: z.string(),
  causedBy: z.object({ ref: z.number().int().optional(), role: z.string(), name: z.string() }).optional(),
});
export type ObservedDialog = z.infer<typeof ObservedDialog>;

/**
 * A file the task downloaded (or is downloading), for the model, the report and the policy gate: keeping a program
 * waits for the user's approval.
 */
export const ObservedDownload = z.object({
  /** The id the download tool takes, e.g. "d1". */
  id: z.string(),
  name: z.string(),
  /** Where it was saved (absent until the browser has chosen the path). */
  path: z.string().optional(),
  mime: z.string().default(''),
  /** Bytes, once known. */
  size: z.number().int().nonnegative().optional(),
  state: z.enum(['in_progress', 'complete', 'interrupted', 'held', 'discarded']),
  /** A program (an installer, a script): kept only with the user's approval. */
  executable: z.boolean().default(false),
  /** Why it stopped or is held, in words. */
  note: z.string().optional(),
  url: z.string(),
});
export type ObservedDownload = z.infer<typeof ObservedDownload>;

/**
 * What state the page was in when it was observed. `loading`: it had not finished loading (what is shown may be
 * incomplete); `unreachable`: it could not be loaded at all (an error page); `blocked`: a page Deputy cannot read or act
 * on (a browser page such as the New Tab page, the extension store). The model decides what to do about each.
 */
export const PageStatus = z.enum(['ready', 'loading', 'unreachable', 'blocked']);
export type PageStatus = z.infer<typeof PageStatus>;

/** What the model sees at one step. `text` is untrusted page content: the loop wraps and labels it. */
export const Observation = z.object({
  status: PageStatus.default('ready'),
  /**
   * A page snapshot, or a support chat's transcript (labelled as another person's words, not a page's), or the state
   * of a shell session (Deputy's own account of its processes; the commands' output comes in tool results).
   */
  kind: z.enum(['page', 'chat', 'shell']).default('page'),
  chat: ObservedChat.optional(),
  url: z.string(),
  title: z.string(),
  /** The numbered snapshot, e.g. `[12] button "Add to cart"`. */
  text: z.string(),
  elements: z.array(ObservedElement).default([]),
  /** The origins of cross-origin frames whose words this observation shows (an ad, a widget): not the page's own. */
  frameOrigins: z.array(z.string()).optional(),
  /** The task's own tabs. */
  tabs: z.array(ObservedTab).default([]),
  /** A JavaScript dialog open over the page: the page is frozen until the dialog tool answers it. */
  dialog: ObservedDialog.optional(),
  /** The task's downloads so far. */
  downloads: z.array(ObservedDownload).optional(),
  /** How many other tabs are open in the window (the user's own), shown only as a number. */
  otherTabs: z.number().int().nonnegative().optional(),
  /** Taken only when the task asked for screenshots and the model accepts images. */
  screenshot: Screenshot.optional(),
  /**
   * What the stagnation check compares between steps, where the text carries notes that vary while the thing observed
   * does not (the desktop: the screen's fingerprint, beside notes on a left-out image or a click marker). The text when
   * absent.
   */
  changeKey: z.string().max(1000).optional(),
});
export type Observation = z.input<typeof Observation>;

/**
 * What an action reports back: whether it happened, what changed (the verification the next turn shows the model), and
 * whether the page changed at all (the stagnation detector counts steps without change).
 */
export const ActionOutcome = z.object({
  ok: z.boolean(),
  /** One or two sentences for the model: "Clicked [14]; the cart count changed from 0 to 1." or why it failed. */
  message: z.string(),
  changed: z.boolean(),
  /** Short facts that support the message (diff lines, the new URL); shown to the model, kept in the trace. */
  evidence: z.array(z.string()).default([]),
  /** A request the action made that the egress guard held: the tool asks the user, then retries or drops it. */
  blocked: BlockedEgress.optional(),
  /** Where the action's time went, by part, in ms: kept with the task's trace only. */
  timings: z.record(z.string(), z.number()).optional(),
});
export type ActionOutcome = z.input<typeof ActionOutcome>;

/** Anything the loop can drive: it gives an observation each step; its tools do the acting. */
export interface AgentEnvironment {
  /**
   * `keep`: the loop will ask capture() for this look's screenshot next (one kept with the trace, not sent to the
   * model): the environment may take it beside its reading of the page, and capture() then hands that one over.
   */
  observe(options: { screenshot: boolean; keep?: boolean; signal?: AbortSignal }): Promise<Observation>;
  /**
   * A screenshot of the page as it is now, apart from observing it: the loop takes the one kept with the trace while
   * the model thinks, so the browser's capture quota (two a second) does not hold up the step. Undefined when the page
   * cannot be captured (not in front, under a dialog). Right after an observe() told to `keep`, the one taken with it.
   */
  capture?(): Promise<Screenshot | undefined>;
  /** What a call will do, found out before the policy gate decides on it (the form a click submits, and where to). */
  gateFacts?(call: { tool: string; args: Record<string, unknown> }, options: { signal?: AbortSignal }): Promise<GateFacts>;
  /** Where the task's tabs may go; called whenever the approved origins change. The browser enforces it. */
  setEgressScope?(scope: EgressScope): Promise<void>;
  /**
   * A call is about to put secret values (resolved placeholders) into the page, at `origins` (the page's and the
   * frame's the element is in). From then on, until the task ends, the values may leave the task's tabs only to
   * those origins or ones the user approves for them; the environment arms that before the call runs.
   */
  secretsPlaced?(values: { name: string; value: string }[], origins: string[]): Promise<void>;
}
