import type { AgentState, CallRecord, StepRecord } from './agent-state';
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
}

export interface BuiltPrompt {
  request: ProviderRequest;
  chars: number;
  maskedObservations: number;
  /** True when the budget forced the prompt to be cut beyond normal masking. */
  trimmed: boolean;
}

/** The one line that replaces an old observation: enough to follow the history, none of the page text. */
export function observationSummary(step: StepRecord): string {
  const o = step.observation;
  if (o.kind === 'shell') return `[Step ${step.index + 1} shell state: ${o.title.slice(0, 80)} (omitted)]`;
  return `[Step ${step.index + 1} page: "${o.title.slice(0, 80)}" ${o.url} (${o.chars} characters; content omitted)]`;
}

function callResultText(call: CallRecord): { content: string; isError: boolean } {
  if (call.result) return { content: call.result.ok ? call.result.content : `Error: ${call.result.content}`, isError: !call.result.ok };
  return { content: 'Not run.', isError: true };
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

/** A page is labelled as a page; a support chat as another person's words. Both are data, never instructions. */
function wrapObservation(observation: StepRecord['observation'], text: string): string {
  // Deputy's own account of a shell session; the output of commands, which is untrusted, arrives in tool results.
  if (observation.kind === 'shell') return `[${observation.title} ${observation.url}]\n${text}`;
  const tag = observation.kind === 'chat' ? 'untrusted_chat' : 'untrusted_page';
  return wrapUntrusted(tag, { url: observation.url, title: observation.title }, text);
}

interface Limits {
  keep: number;
  currentChars: number;
  resultChars: number;
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
  let masked = 0;
  steps.slice(0, -1).forEach((step, i) => {
    addFollowUps(step.index);
    const verbatim = step.observation.text !== null && i >= steps.length - limits.keep;
    // A page that did not change since the step before (a plan update, a failed click) is not repeated in full.
    const unchanged = i > 0 && steps[i - 1]?.observation.hash === step.observation.hash;
    if (!verbatim) masked += 1;
    const page = unchanged
      ? `[Step ${step.index + 1} ${step.observation.kind === 'shell' ? 'shell state' : 'page'}: unchanged since step ${step.index}]`
      : verbatim
        ? wrapObservation(step.observation, step.observation.text ?? '')
        : observationSummary(step);
    const notices = step.notices.length > 0 ? `Notice: ${step.notices.join(' ')}\n` : '';
    messages.push({ role: 'user', content: `${notices}${page}` });
    if (!step.reply) return;
    messages.push({ role: 'assistant', content: step.reply.text, toolCalls: step.reply.toolCalls });
    for (const toolCall of step.reply.toolCalls) {
      const record = step.calls.find((c) => c.id === toolCall.id);
      const { content, isError } = record ? callResultText(record) : { content: 'Not run.', isError: true };
      const short = content.length > limits.resultChars ? `${content.slice(0, limits.resultChars)}… [cut]` : content;
      messages.push({ role: 'tool', toolCallId: toolCall.id, name: toolCall.name, content: short, isError });
    }
  });
  if (current) {
    addFollowUps(current.index);
    const text = current.observation.text ?? '';
    const cut = text.length > limits.currentChars ? `${text.slice(0, limits.currentChars)}\n[… the rest of the page was cut to fit the prompt budget; scroll or use find to see more]` : text;
    const sections = [
      lastStepReport(state.steps.at(-2)),
      `Plan:\n${formatPlan(state.plan)}`,
      ...(current.notices.length > 0 ? [`Notice: ${current.notices.join(' ')}`] : []),
      `${current.observation.kind === 'chat' ? 'Current chat and page' : current.observation.kind === 'shell' ? 'Current shell state' : 'Current page'} (step ${current.index + 1}):`,
      wrapObservation(current.observation, cut),
    ];
    const screenshot = options.attachScreenshot ? current.observation.screenshot : undefined;
    messages.push({ role: 'user', content: sections.join('\n\n'), ...(screenshot ? { image: screenshot } : {}) });
  }
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
 * Assembles the next turn: the task, every past action and result, the last few observations verbatim and older ones
 * as one-line summaries, then the current plan, the last step's verification, any notices, and the page, wrapped as
 * untrusted. Over budget, it masks more observations, then cuts the current page, then shortens old results.
 */
export function buildPrompt(state: AgentState, system: string, tools: ToolSchema[], options: PromptOptions): BuiltPrompt {
  const attempts: Limits[] = [
    { keep: options.keepObservations, currentChars: Infinity, resultChars: Infinity },
    { keep: 1, currentChars: Infinity, resultChars: Infinity },
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
  const cut = build(state, { keep: 1, currentChars: Math.max(2000, currentText - overflow - 200), resultChars: 300 }, options);
  return {
    request: { system, messages: cut.messages, tools },
    chars: sizeOf(system, cut.messages, tools),
    maskedObservations: cut.masked,
    trimmed: true,
  };
}
