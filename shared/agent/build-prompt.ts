import type { AgentState, CallRecord, StepRecord } from './agent-state';
import { pageDiff } from './page-diff';
import { formatPlan } from './plan';
import type { ConversationMessage, ProviderRequest } from './providers/provider';
import type { ToolSchema } from './tool';
import { wrapUntrusted } from './untrusted';
import { memoryMessage } from './working-memory';

export interface PromptOptions {
  /** How many of the latest observations the model sees verbatim (the current one included). */
  keepObservations: number;
  /** The ceiling on the whole prompt, in characters (about four per token). */
  maxPromptChars: number;
  /** Attach the current screenshot: only when the task asked for screenshots and the model accepts images. */
  attachScreenshot: boolean;
  /** How the model can get summarized steps back, said beside the working memory ("search_history finds them"). */
  recallHint?: string;
  /**
   * How a page after an action is sent: `full`, the whole snapshot every step; `diff`, what changed since a whole
   * snapshot earlier in the prompt (whole where none is, after a full_page call, and whenever the change is not smaller
   * than the page). Callers default to `diff` for web tasks; absent here means `full`.
   */
  pageView?: PageView;
}

export type PageView = 'full' | 'diff';

export interface BuiltPrompt {
  request: ProviderRequest;
  chars: number;
  maskedObservations: number;
  /** True when the budget forced the prompt to be cut beyond normal masking. */
  trimmed: boolean;
}

/**
 * The one line that replaces an old observation: enough to follow the history (where the agent was), none of the page
 * text. A step on the same address and title as the step before says so instead of repeating them: these lines stay
 * in every later prompt, so their length is what a long task's prompt grows by.
 */
export function observationSummary(step: StepRecord, previous?: StepRecord): string {
  const o = step.observation;
  const p = previous?.observation;
  if (p && p.kind === o.kind && p.url === o.url && p.title === o.title) return `[Step ${step.index + 1}: same ${o.kind === 'shell' ? 'shell' : 'page'} as step ${step.index}, omitted]`;
  if (o.kind === 'shell') return `[Step ${step.index + 1} shell omitted: ${o.title.slice(0, 80)}]`;
  return `[Step ${step.index + 1} page omitted: "${o.title.slice(0, 80)}" ${o.url}]`;
}

function callResultText(call: CallRecord): { content: string; isError: boolean } {
  if (call.result) return { content: call.result.ok ? call.result.content : `Error: ${call.result.content}`, isError: !call.result.ok };
  return { content: 'Not run.', isError: true };
}

/** The evidence an action's result carries under its message (see web-perform's perform): lines quoting the page. */
const EVIDENCE_BLOCK = /\n<untrusted_output from="[a-z_]+">\n[\s\S]*\n<\/untrusted_output>$/;

/**
 * A result as it stays in the history once its step's page is masked: the message, which says what was done and what
 * the verification found, without the evidence under it, which quotes a page the prompt no longer shows. It is masked
 * with its page, in the same blocks, so earlier messages stay byte-identical between block boundaries.
 */
function maskedResult(call: CallRecord | undefined, content: string): string {
  if (!call?.result?.evidence?.length) return content;
  return content.replace(EVIDENCE_BLOCK, '');
}

function lastStepReport(step: StepRecord | undefined): string {
  if (!step) return 'Last step: none yet; this is the first turn.';
  if (step.calls.length === 0) return 'Last step: you called no tool.';
  const lines = step.calls.map((call) => {
    const { content } = callResultText(call);
    const head = call.stepText ?? call.name;
    return `- ${head}: ${call.status === 'finished' ? (call.result?.ok ? 'succeeded' : 'failed') : call.status}. ${content.split('\n')[0] ?? ''}`;
  });
  return `Last step (verification):\n${lines.join('\n')}`;
}

/**
 * A page is labelled as a page; a support chat as another person's words. Both are data, never instructions. In the
 * diff view a whole page also carries its step, which later pages sent as what changed name as their base.
 */
function wrapObservation(observation: StepRecord['observation'], text: string, step?: number): string {
  // Deputy's own account of a shell session; the output of commands, which is untrusted, arrives in tool results.
  if (observation.kind === 'shell') return `[${observation.title} ${observation.url}]\n${text}`;
  const tag = observation.kind === 'chat' ? 'untrusted_chat' : 'untrusted_page';
  return wrapUntrusted(tag, { url: observation.url, title: observation.title, ...(step === undefined ? {} : { step: String(step) }) }, text);
}

interface Limits {
  keep: number;
  block: number;
  currentChars: number;
  resultChars: number;
}

/**
 * Old observations are masked in blocks of this many steps rather than one by one: between two boundaries every
 * earlier message stays byte-identical, so the provider's prompt cache serves all of it, and the prompt changes (and
 * the cache misses) once a block instead of at every step.
 */
export const MASK_BLOCK = 5;

/**
 * The first step whose observation is still shown verbatim when step `current` is the one being asked about: at least
 * `keep` observations (the current one included) stay verbatim, and the boundary only moves in blocks of `block`.
 */
export function verbatimFrom(current: number, keep: number, block = MASK_BLOCK): number {
  return Math.max(0, Math.floor((current - (keep - 1)) / block) * block);
}

/**
 * The whole pages a page step's diff may be made against: those in the prompt in full since the last masked step,
 * oldest first. Empty in the full view.
 */
type Anchors = StepRecord[];

/**
 * A page's message: in full, as a pointer to the same page before, as one summary line once masked, or (in the diff
 * view) as what changed since one of `anchors`, whose full text is earlier in the same prompt. Returns whether it went
 * in full.
 */
function stepMessage(
  step: StepRecord,
  previous: StepRecord | undefined,
  verbatim: boolean,
  previousVerbatim: boolean,
  currentChars: number,
  anchors: Anchors | undefined,
): { text: string; full: boolean } {
  // A page that did not change since the step before (a plan update, a failed click) is not repeated in full, as long
  // as the one before is in the prompt in full.
  const unchanged = previous !== undefined && previousVerbatim && previous.observation.hash === step.observation.hash;
  const text = step.observation.text ?? '';
  const cut =
    text.length > currentChars ? `${text.slice(0, currentChars)}\n[… the rest of the page was cut to fit the prompt budget; scroll or use find to see more]` : text;
  const notices = step.notices.length > 0 ? `Notice: ${step.notices.join(' ')}\n` : '';
  if (unchanged) return { text: `${notices}[Step ${step.index + 1} ${step.observation.kind === 'shell' ? 'shell state' : 'page'}: unchanged since step ${step.index}]`, full: false };
  if (!verbatim) return { text: `${notices}${observationSummary(step, previous)}`, full: false };
  const diff = anchors && cut === text ? changesSince(anchors, step) : null;
  if (diff !== null) return { text: `${notices}${diff}`, full: false };
  return { text: `${notices}${wrapObservation(step.observation, cut, anchors ? step.index + 1 : undefined)}`, full: true };
}

/**
 * Every prompt is built again from the whole task, so the same pair of pages is compared at each later step until the
 * earlier one leaves the prompt; the comparisons with the last few bases are kept. They are keyed by the texts
 * themselves (the strings the task's steps hold, not copies), so a hit is always exact.
 */
const DIFF_MEMO_BASES = 8;
const DIFF_MEMO_PER_BASE = 16;
const diffMemo = new Map<string, Map<string, string>>();

function memoPageDiff(before: string, after: string): string {
  let byAfter = diffMemo.get(before);
  if (byAfter) diffMemo.delete(before);
  byAfter ??= new Map<string, string>();
  // Most recently used last, so the oldest base is the first to go.
  diffMemo.set(before, byAfter);
  if (diffMemo.size > DIFF_MEMO_BASES) diffMemo.delete(diffMemo.keys().next().value as string);
  const known = byAfter.get(after);
  if (known !== undefined) return known;
  const hunks = pageDiff(before, after);
  byAfter.set(after, hunks);
  if (byAfter.size > DIFF_MEMO_PER_BASE) byAfter.delete(byAfter.keys().next().value as string);
  return hunks;
}

/**
 * What changed on the page since a whole page earlier in the prompt, when that is shorter than the page itself. The
 * base is whichever whole page in the prompt gives the fewest lines: the page before the action, or one the task
 * left and came back to (a list after opening one of its items). How to read the hunks is said once, in the system
 * prompt (DIFF_LEGEND); the header names the base by its step, which its tag carries.
 */
function changesSince(anchors: Anchors, step: StepRecord): string | null {
  const after = step.observation.text;
  if (after === null || step.observation.kind === 'shell') return null;
  let best: { anchor: StepRecord; hunks: string } | null = null;
  for (const anchor of anchors) {
    const before = anchor.observation.text;
    if (before === null || anchor.observation.kind !== step.observation.kind) continue;
    const hunks = memoPageDiff(before, after);
    // On a tie the later page is the base: it is nearer in the prompt.
    if (hunks.length < after.length && (best === null || hunks.length <= best.hunks.length)) best = { anchor, hunks };
  }
  if (best === null) return null;
  return `${diffHeader(step.index + 1, best.anchor.index + 1)}\n${wrapObservation(step.observation, best.hunks)}`;
}

/** The line above a page sent as what changed: the scripted models (tests/fixtures/fake-provider/prompt-view.ts) read it too. */
export function diffHeader(step: number, base: number): string {
  return `[Step ${step} page: changes since step ${base}'s page]`;
}

/** How a page sent as what changed reads, for the system prompt of a task in the diff view. */
export const DIFF_LEGEND =
  '- In the diff view a page after an action may come as "[Step 9 page: changes since step 7\'s page]": unified-diff hunks against the whole page tagged step="7" above ("@@ -a,b +c,d @@" gives line numbers there; "-" removed, "+" added, " " unchanged context). Lines not shown are as they were. full_page shows the whole page next.';

/** Whether the model asked for the whole page in that step (the full_page tool). */
function fullAsked(step: StepRecord | undefined): boolean {
  return step?.calls.some((call) => call.name === 'full_page' && call.result?.ok === true) === true;
}

function build(state: AgentState, limits: Limits, options: PromptOptions): { messages: ConversationMessage[]; masked: number } {
  const messages: ConversationMessage[] = [{ role: 'user', content: `Task: ${state.task}\nStarted on: ${state.startUrl}` }];
  const memory = state.memory;
  if (memory) messages.push({ role: 'user', content: memoryMessage(memory, options.recallHint) });
  // The user's follow-ups come where they were written; one about steps now summarized follows the summary.
  const followUps = [...(state.followUps ?? [])];
  const addFollowUps = (beforeStep: number): void => {
    while (followUps[0] && followUps[0].beforeStep <= beforeStep) {
      const followUp = followUps.shift();
      if (followUp) messages.push({ role: 'user', content: followUpMessage(followUp.text) });
    }
  };
  // Summarized steps leave the prompt whole (reply, calls and results together), so every call keeps its result.
  const steps = memory ? state.steps.filter((step, i) => step.index > memory.throughStep || i === state.steps.length - 1) : state.steps;
  const current = steps.at(-1);
  if (!current) {
    addFollowUps(Number.POSITIVE_INFINITY);
    return { messages, masked: 0 };
  }
  const from = verbatimFrom(current.index, limits.keep, limits.block);
  const shown = (step: StepRecord | undefined): boolean => step !== undefined && step.observation.text !== null && step.index >= from;
  let masked = 0;
  let anchors: Anchors = [];
  steps.forEach((step, i) => {
    addFollowUps(step.index);
    const isCurrent = step === current;
    const verbatim = isCurrent || shown(step);
    if (!verbatim) masked += 1;
    // Each step's page goes into the prompt the same way whether it is the current step or an earlier one, so a turn
    // is sent unchanged in every later turn; what only the current turn needs follows it in a message of its own.
    // In the diff view a page is sent as what changed since a whole page shown earlier in the same prompt; it is sent
    // whole when there is none (the first page shown, the first after masked ones), after a full_page call, and when
    // the change is not smaller. Masking moves in blocks and drops every base before it, so between two block
    // boundaries each turn is sent byte-identical, and a diff's base is in the prompt for as long as the diff is.
    const asked = fullAsked(steps[i - 1]);
    // Asked for, the whole page is sent even when it did not change (instead of a pointer to the step before).
    const bases = options.pageView !== 'diff' ? undefined : asked ? [] : anchors;
    const message = stepMessage(step, steps[i - 1], verbatim, shown(steps[i - 1]) && !asked, isCurrent ? limits.currentChars : Infinity, bases);
    if (!verbatim) anchors = [];
    else if (message.full) anchors = [...anchors, step];
    messages.push({ role: 'user', content: message.text, ...(isCurrent ? { cacheBreakpoint: true } : {}) });
    if (isCurrent || !step.reply) return;
    messages.push({ role: 'assistant', content: step.reply.text, toolCalls: step.reply.toolCalls });
    for (const toolCall of step.reply.toolCalls) {
      const record = step.calls.find((c) => c.id === toolCall.id);
      const result = record ? callResultText(record) : { content: 'Not run.', isError: true };
      const content = verbatim ? result.content : maskedResult(record, result.content);
      const { isError } = result;
      const short = content.length > limits.resultChars ? `${content.slice(0, limits.resultChars)}… [cut]` : content;
      messages.push({ role: 'tool', toolCallId: toolCall.id, name: toolCall.name, content: short, isError });
    }
  });
  const kind = current.observation.kind === 'chat' ? 'chat and page' : current.observation.kind === 'shell' ? 'shell state' : 'page';
  const sections = [
    `The message above is the current ${kind} (step ${current.index + 1}).`,
    lastStepReport(state.steps.at(-2)),
    `Plan:\n${formatPlan(state.plan)}`,
    // Said again last, where the model looks first; the page's message above keeps them for later turns.
    ...(current.notices.length > 0 ? [`Notice: ${current.notices.join(' ')}`] : []),
  ];
  const screenshot = options.attachScreenshot ? current.observation.screenshot : undefined;
  messages.push({ role: 'user', content: sections.join('\n\n'), ...(screenshot ? { image: screenshot } : {}) });
  addFollowUps(Number.POSITIVE_INFINITY);
  return { messages, masked };
}

/** The user's own words after the task ended: they come from the user, so they are not wrapped as untrusted. */
export function followUpMessage(text: string): string {
  return `Follow-up from the user (the task continues from where it ended; do what this asks, then call done again):\n${text}`;
}

function sizeOf(system: string, messages: ConversationMessage[], tools: ToolSchema[]): number {
  let chars = system.length + JSON.stringify(tools).length;
  for (const m of messages) chars += m.content.length + (m.role === 'assistant' ? JSON.stringify(m.toolCalls).length : 0);
  return chars;
}

/**
 * Assembles the next turn: the task, every past action and result, the latest observations verbatim and older ones as
 * one-line summaries (masked in fixed blocks, so earlier turns stay byte-identical and cacheable), the current page
 * wrapped as untrusted, then the last step's verification and the current plan. Over budget, it masks more
 * observations, then cuts the current page, then shortens old results.
 */
export function buildPrompt(state: AgentState, system: string, tools: ToolSchema[], options: PromptOptions): BuiltPrompt {
  const attempts: Limits[] = [
    { keep: options.keepObservations, block: MASK_BLOCK, currentChars: Infinity, resultChars: Infinity },
    { keep: 1, block: 1, currentChars: Infinity, resultChars: Infinity },
  ];
  let last: { messages: ConversationMessage[]; masked: number; chars: number } | null = null;
  for (const limits of attempts) {
    const built = build(state, limits, options);
    const chars = sizeOf(system, built.messages, tools);
    last = { ...built, chars };
    if (chars <= options.maxPromptChars) {
      return { request: { system, messages: built.messages, tools }, chars, maskedObservations: built.masked, trimmed: limits !== attempts[0] };
    }
  }
  const overflow = (last?.chars ?? 0) - options.maxPromptChars;
  const currentText = state.steps.at(-1)?.observation.text?.length ?? 0;
  const cut = build(state, { keep: 1, block: 1, currentChars: Math.max(2000, currentText - overflow - 200), resultChars: 300 }, options);
  return {
    request: { system, messages: cut.messages, tools },
    chars: sizeOf(system, cut.messages, tools),
    maskedObservations: cut.masked,
    trimmed: true,
  };
}
