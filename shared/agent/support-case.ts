import type { ChatMessage } from '../protocol/chat-protocol';
import type { CasePromise, ChatCaseResult, WrittenEscalation } from '../protocol/task-protocol';
import { extractPromises, type SupportPromise } from './support-promises';

/**
 * A support case's file, built from everything the case saw: the goal, which of the user's facts went into the chat,
 * the transcript with times, the other side's dated promises quoted as written, and what Deputy did on its own to
 * reach a person. Pure: the background saves it at every step (so it outlives the chat and the tab), and the
 * exports (Markdown, PDF) are made from it.
 */

export interface CaseInput {
  goal: string;
  /** Every message the case saw, oldest first (the chat's own list may drop old ones; the case keeps them). */
  messages: readonly ChatMessage[];
  vendor: string | null;
  /** The facts the user allowed Deputy to share, by name. */
  facts: Readonly<Record<string, string>>;
  escalations: readonly string[];
  /** Screenshots kept of promise messages: message id -> the step whose screenshot shows it. */
  promiseShots?: ReadonlyMap<string, number>;
  /** The promises already found in `messages` (extractPromises), so a save reads the transcript for them once. */
  promises?: readonly SupportPromise[];
  redact: (text: string) => string;
  outcome: string;
  summary: string;
  open: boolean;
  /** The written escalation drafted when the chat closed or stalled. */
  written?: WrittenEscalation;
}

/** Folds case and spacing, so "1234" is found in "Order #1234" and "jane@example.org" in "JANE@example.org". */
function fold(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The names of the facts whose value appears in one of our messages. */
export function factsShared(messages: readonly ChatMessage[], facts: Readonly<Record<string, string>>): string[] {
  const ours = messages.filter((message) => message.author === 'us').map((message) => fold(message.text));
  return Object.entries(facts)
    .filter(([, value]) => fold(value) !== '' && ours.some((text) => text.includes(fold(value))))
    .map(([name]) => name);
}

/** The case's promises, oldest first, one per message sentence, with the step of the screenshot that shows each. */
export function casePromises(
  messages: readonly ChatMessage[],
  redact: (text: string) => string,
  shots?: ReadonlyMap<string, number>,
  found: readonly SupportPromise[] = extractPromises(messages),
): CasePromise[] {
  const byId = new Map(messages.map((message) => [message.id, message]));
  return found.map((promise) => {
    const shot = shots?.get(promise.messageId);
    const made = byId.get(promise.messageId)?.seenAt;
    return {
      quote: redact(promise.quote),
      when: promise.when,
      dueAt: promise.dueAt,
      ...(made !== undefined ? { madeAt: made } : {}),
      ...(shot !== undefined ? { shotStep: shot } : {}),
    };
  });
}

/** The draft as the case file keeps it: redacted like the transcript (its mailto: link made again from what is kept). */
function redactWritten(written: WrittenEscalation, redact: (text: string) => string): WrittenEscalation {
  const subject = redact(written.subject);
  const body = redact(written.body);
  return { ...written, subject, body, ...(written.mailto !== undefined ? { mailto: `mailto:${written.to}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}` } : {}) };
}

export function buildCaseFile(input: CaseInput): ChatCaseResult {
  return {
    outcome: input.outcome,
    summary: input.summary,
    vendor: input.vendor,
    goal: input.goal,
    factsShared: factsShared(input.messages, input.facts),
    transcript: input.messages.map((message) => ({ author: message.author, text: input.redact(message.text), at: message.seenAt, time: message.time })),
    promises: casePromises(input.messages, input.redact, input.promiseShots, input.promises),
    escalations: [...input.escalations],
    open: input.open,
    ...(input.written ? { written: redactWritten(input.written, input.redact) } : {}),
  };
}

/**
 * Merges a fresh read of the chat into the case's ledger: a message keeps its place and takes its newest text (it may
 * grow while streamed); new ones are added in the order read. The chat's own list holds at most its last 200.
 */
export function mergeLedger(ledger: Map<string, ChatMessage>, messages: readonly ChatMessage[]): void {
  for (const message of messages) {
    const known = ledger.get(message.id);
    ledger.set(message.id, known ? { ...message, seenAt: known.seenAt } : message);
  }
}

/** A case file saved again keeps what it knew of its promises' reminders (a promise is reminded once). */
export function carryReminders(previous: ChatCaseResult | null | undefined, next: ChatCaseResult): ChatCaseResult {
  const reminded = new Map((previous?.promises ?? []).filter((p) => p.remindedAt !== undefined).map((p) => [`${p.quote}|${p.dueAt}`, p.remindedAt!]));
  if (reminded.size === 0 || !next.promises) return next;
  return { ...next, promises: next.promises.map((p) => (reminded.has(`${p.quote}|${p.dueAt}`) ? { ...p, remindedAt: reminded.get(`${p.quote}|${p.dueAt}`)! } : p)) };
}
