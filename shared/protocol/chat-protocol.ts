import { z } from 'zod';

/**
 * Support chats: the schemas shared by the content script (one frame at a time), the background (which finds the frame
 * that holds the chat and drives it) and the extension pages. Every string read from a chat is untrusted page text:
 * it is carried as data and never interpreted.
 */

export const ChatAuthor = z.enum(['us', 'them', 'system']);
export type ChatAuthor = z.infer<typeof ChatAuthor>;

export const ChatMessage = z.object({
  /** Stable within one frame's ledger: the same message keeps its id while it grows. */
  id: z.string(),
  author: ChatAuthor,
  text: z.string().max(4000),
  /** The time the widget shows (an ISO string from `<time datetime>`, or its visible text), when it shows one. */
  time: z.string().max(64).nullable(),
  /** When this frame first saw the message, in epoch milliseconds. */
  seenAt: z.number(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatChoice = z.object({ index: z.number().int().nonnegative(), label: z.string() });
export type ChatChoice = z.infer<typeof ChatChoice>;

/**
 * Which offered quick reply a label names: the same label, else the same ignoring case and spacing, else the only
 * one that contains it. -1 when none does or several do, so what is clicked is always what was asked for (and what
 * the policy gate was shown).
 */
export function matchChoiceLabel(labels: readonly string[], wanted: string): number {
  const fold = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();
  const exact = labels.indexOf(wanted);
  if (exact !== -1) return exact;
  const folded = fold(wanted);
  if (folded === '') return -1;
  const same = labels.findIndex((label) => fold(label) === folded);
  if (same !== -1) return same;
  const containing = labels.flatMap((label, index) => (fold(label).includes(folded) ? [index] : []));
  return containing.length === 1 ? (containing[0] ?? -1) : -1;
}

export const ChatFormField = z.object({
  /** What `chat.fill` matches against: the label the user sees, else the field's name or placeholder. */
  label: z.string(),
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  value: z.string(),
});
export type ChatFormField = z.infer<typeof ChatFormField>;

export const ChatForm = z.object({
  index: z.number().int().nonnegative(),
  title: z.string(),
  fields: z.array(ChatFormField),
  submitLabel: z.string().nullable(),
});
export type ChatForm = z.infer<typeof ChatForm>;

/** The widget asks for a file: Deputy never picks one itself, the user has to. */
export const ChatUpload = z.object({ label: z.string(), accept: z.string().nullable() });
export type ChatUpload = z.infer<typeof ChatUpload>;

export const ChatState = z.object({
  vendor: z.string(),
  open: z.boolean(),
  messages: z.array(ChatMessage).max(200),
  typing: z.boolean(),
  choices: z.array(ChatChoice),
  forms: z.array(ChatForm),
  uploads: z.array(ChatUpload),
  composer: z.object({ found: z.boolean(), kind: z.enum(['textarea', 'contenteditable', 'none']), disabled: z.boolean() }),
});
export type ChatState = z.infer<typeof ChatState>;

export const Evidence = z.object({
  layer: z.enum(['global', 'script', 'marker', 'frame', 'structure']),
  detail: z.string(),
});
export type Evidence = z.infer<typeof Evidence>;

/** What one frame found about itself: vendors it shows markers of, and whether it holds a chat UI. */
export const FrameProbe = z.object({
  url: z.string(),
  top: z.boolean(),
  vendors: z.array(
    z.object({
      vendor: z.string(),
      evidence: z.array(Evidence),
      /** This frame holds the vendor's composer or message list. */
      ui: z.boolean(),
      /** Frames that the vendor's iframe markers point at (their frame ids), where the UI may live instead. */
      childFrames: z.array(z.number().int()),
    }),
  ),
  /** The structural fallback: a message list, a composer and a send control together. */
  generic: z.object({ score: z.number(), reasons: z.array(z.string()) }).nullable(),
  scriptHosts: z.array(z.string()),
  checked: z.object({ selectors: z.number().int(), shadowRoots: z.number().int(), elements: z.number().int() }),
});
export type FrameProbe = z.infer<typeof FrameProbe>;

export const ChatDetection = z.object({
  found: z.boolean(),
  vendor: z.string().nullable(),
  /** The frame that holds the chat UI (0 is the top frame); the launcher may live elsewhere. */
  frameId: z.number().int().nullable(),
  frameUrl: z.string().nullable(),
  confidence: z.number().min(0).max(1),
  evidence: z.array(Evidence.extend({ frameId: z.number().int() })),
  /** Other vendors seen, weaker than the chosen one. */
  alternatives: z.array(z.object({ vendor: z.string(), confidence: z.number() })),
  checked: z.object({ frames: z.number().int(), profiles: z.number().int(), globals: z.number().int() }),
  /** A sentence for the user, e.g. "No chat widget found on this page (checked 3 frames, 17 vendors)". */
  summary: z.string(),
});
export type ChatDetection = z.infer<typeof ChatDetection>;

export const WaitStatus = z.enum(['replied', 'timeout', 'pending']);
export type WaitStatus = z.infer<typeof WaitStatus>;

export const ChatWaitResult = z.object({
  status: WaitStatus,
  /** Messages that arrived during the wait (theirs and system notes). */
  newMessages: z.array(ChatMessage),
  typingSeen: z.boolean(),
  waitedMs: z.number(),
  summary: z.string(),
  state: ChatState,
});
export type ChatWaitResult = z.infer<typeof ChatWaitResult>;

/** Where the last read ended, so a wait counts only what came after it. */
/** A clicked quick reply: its label, and whether the chat took it (the choice went away or our message showed it). */
const ChooseResult = z.object({ chosen: z.string(), taken: z.boolean(), state: ChatState });

export const ChatBaseline = z.object({ count: z.number().int().nonnegative(), lastText: z.string() });
export type ChatBaseline = z.infer<typeof ChatBaseline>;

const VendorParam = z.string().min(1).max(64).describe('A vendor id from detection, or "generic"');
const Text = z.string().min(1).max(4000);
const Timeout = z.number().int().positive().max(600_000);

/** Content-channel methods, one frame at a time; spread into ContentChannel. */
export const chatContentMethods = {
  'chat.probe': { params: z.object({}), result: FrameProbe },
  'chat.launch': {
    params: z.object({ vendor: VendorParam }),
    result: z.object({ clicked: z.boolean(), label: z.string().nullable() }),
  },
  'chat.read': { params: z.object({ vendor: VendorParam }), result: ChatState },
  'chat.send': {
    params: z.object({ vendor: VendorParam, text: Text }),
    result: z.object({ sent: z.boolean(), via: z.enum(['enter', 'button']), state: ChatState }),
  },
  'chat.wait': {
    params: z.object({ vendor: VendorParam, baseline: ChatBaseline, timeoutMs: Timeout, quietMs: z.number().int().min(0).max(30_000) }),
    result: ChatWaitResult,
  },
  'chat.choose': {
    params: z.object({ vendor: VendorParam, choice: z.union([z.string().min(1).max(500), z.number().int().nonnegative()]) }),
    result: ChooseResult,
  },
  'chat.fill': {
    params: z.object({
      vendor: VendorParam,
      form: z.number().int().nonnegative().default(0),
      values: z.record(z.string().max(200), z.string().max(2000)),
      submit: z.boolean().default(true),
    }),
    result: z.object({ filled: z.array(z.string()), submitted: z.boolean(), state: ChatState }),
  },
};

const TabParam = z.object({ tabId: z.number().int().nonnegative() });

/** UiChannel methods that drive a tab's chat from an extension page; spread into UiChannel. */
export const chatUiMethods = {
  'chat.detect': { params: TabParam, result: ChatDetection },
  'chat.open': {
    params: TabParam,
    result: z.object({ opened: z.boolean(), how: z.enum(['already_open', 'api', 'launcher', 'none']), detection: ChatDetection, summary: z.string() }),
  },
  'chat.read': { params: TabParam, result: ChatState },
  'chat.send': {
    params: TabParam.extend({ text: Text }),
    result: z.object({ sent: z.boolean(), via: z.enum(['enter', 'button']), state: ChatState }),
  },
  'chat.wait': {
    params: TabParam.extend({
      timeoutMs: Timeout.optional().describe('How long to wait for a reply; 30 s when left out'),
      quietMs: z.number().int().min(0).max(30_000).optional().describe('How long a reply must stay unchanged; 800 ms when left out'),
    }),
    result: ChatWaitResult,
  },
  'chat.choose': {
    params: TabParam.extend({ choice: z.union([z.string().min(1).max(500), z.number().int().nonnegative()]) }),
    result: ChooseResult,
  },
  'chat.fill': {
    params: TabParam.extend({
      form: z.number().int().nonnegative().optional().describe('Which form of the chat, 0 (the first) when left out'),
      values: z.record(z.string().max(200), z.string().max(2000)).describe('Field label (or name) -> value'),
      submit: z.boolean().optional().describe('Send the form after filling it; true when left out'),
    }),
    result: z.object({ filled: z.array(z.string()), submitted: z.boolean(), state: ChatState }),
  },
  'chat.end': { params: TabParam, result: z.object({ ended: z.boolean() }) },
};
