import type { AgentState, CallRecord, StepRecord } from './agent-state';
import { verbatimFrom } from './build-prompt';
import { ObservedDownload, type Observation, type ObservedTab } from './environment';
import type { ProviderReply } from './providers/provider';
import type { Redactor } from './redactor';
import { textHash } from './text-hash';

/**
 * The task's own tabs under the snapshot, when it has more than one; titles are page text too. The user's other tabs
 * are only counted: the model lists their titles with `tabs list` when the task needs them.
 */
function tabList(tabs: ObservedTab[], others: number): string {
  const lines = tabs.length < 2 ? [] : tabs.map((t) => `- tab ${t.id}${t.active ? ' (current)' : ''}: ${t.title.slice(0, 100)} — ${t.url}`);
  const rest = others > 0 ? `${others} other tab${others === 1 ? ' is' : 's are'} open (not the task's; tabs list shows their titles).` : '';
  if (lines.length === 0 && rest === '') return '';
  return `\n\n${lines.length > 0 ? `The task's tabs (switch with the tabs tool):\n${lines.join('\n')}${rest ? '\n' : ''}` : ''}${rest}`;
}

/** The page as the step keeps it: redacted before anything else sees it, fingerprinted for the stagnation check. */
export function observationRecord(raw: Observation, redactor: Redactor): StepRecord['observation'] {
  const text = redactor.redact(raw.text + tabList(raw.tabs ?? [], raw.otherTabs ?? 0));
  return {
    kind: raw.kind ?? 'page',
    ...(raw.status && raw.status !== 'ready' ? { status: raw.status } : {}),
    ...(raw.chat ? { chat: { lastFromThem: raw.chat.lastFromThem === null ? null : redactor.redact(raw.chat.lastFromThem), choices: (raw.chat.choices ?? []).map((c) => redactor.redact(c)), ...(raw.chat.draft !== undefined ? { draft: redactor.redact(raw.chat.draft) } : {}) } } : {}),
    url: redactor.redact(raw.url),
    title: redactor.redact(raw.title),
    hash: textHash(`${raw.url}\n${raw.changeKey ?? text}`),
    chars: text.length,
    text,
    elements: redactor.redactDeep(raw.elements ?? []),
    ...(raw.dialog ? { dialog: redactor.redactDeep({ ...raw.dialog, defaultPrompt: raw.dialog.defaultPrompt ?? '' }) } : {}),
    ...(raw.downloads && raw.downloads.length > 0 ? { downloads: redactor.redactDeep(raw.downloads.map((d) => ObservedDownload.parse(d))) } : {}),
    ...(raw.tabs && raw.tabs.length > 0 ? { ownTabs: raw.tabs.map((t) => t.id) } : {}),
    ...(raw.frameOrigins && raw.frameOrigins.length > 0 ? { frameOrigins: raw.frameOrigins } : {}),
    ...(raw.screenshot ? { screenshot: raw.screenshot } : {}),
  };
}

/** Old observations lose their text in the saved state too: the model only sees their summary, so nothing needs it. */
export function maskOldObservations(steps: StepRecord[], keep: number): void {
  const from = verbatimFrom(steps.at(-1)?.index ?? 0, keep);
  steps.forEach((step, i) => {
    if (step.index < from) step.observation.text = null;
    if (i < steps.length - 1) {
      step.observation.elements = [];
      delete step.observation.screenshot;
      delete step.observation.chat;
      delete step.observation.dialog;
      delete step.observation.downloads;
    }
  });
}

/** Records the model's reply on its step (redacted), its calls as proposed, and its tokens and cost on the task. */
export function recordReply(state: AgentState, step: StepRecord, reply: ProviderReply, cost: number | null, redactor: Redactor): void {
  // Local servers often number calls from zero in every reply; results are paired with calls by id across the whole
  // conversation, so an id seen before gets a suffix.
  const used = new Set(state.steps.flatMap((s) => s.reply?.toolCalls.map((c) => c.id) ?? []));
  const toolCalls = reply.toolCalls.map((c) => {
    let id = c.id === '' ? `call_${step.index}` : c.id;
    for (let n = 2; used.has(id); n += 1) id = `${c.id || 'call'}_${step.index}_${n}`;
    used.add(id);
    return { ...c, id, arguments: redactor.redact(c.arguments) };
  });
  step.reply = { text: redactor.redact(reply.text), toolCalls };
  step.usage = reply.usage;
  step.costUsd = cost;
  step.calls = step.reply.toolCalls.map((c): CallRecord => ({ id: c.id, name: c.name, arguments: c.arguments, status: 'proposed', classes: [] }));
  state.usage.inputTokens += reply.usage?.inputTokens ?? 0;
  state.usage.outputTokens += reply.usage?.outputTokens ?? 0;
  state.usage.cachedInputTokens = (state.usage.cachedInputTokens ?? 0) + (reply.usage?.cachedInputTokens ?? 0);
  state.usage.costUsd = state.usage.costUsd === null || cost === null ? null : state.usage.costUsd + cost;
}

export function skipCall(call: CallRecord, content: string): void {
  call.status = 'skipped';
  call.result = { ok: false, content };
}
