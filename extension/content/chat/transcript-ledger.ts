import type { ChatAuthor, ChatBaseline, ChatMessage } from '../../../shared/protocol';

/** One message as read from the page, before it has an id. */
export interface RawMessage {
  author: ChatAuthor;
  text: string;
  time: string | null;
}

/**
 * Gives messages stable ids across reads, so a reply that grows while it streams stays one message and a caller can
 * tell new messages from old ones. Reads are aligned with the previous transcript: widgets append at the end, some
 * drop the oldest messages from a virtual list, and the last message may still be growing.
 */
export class TranscriptLedger {
  private messages: ChatMessage[] = [];
  private next = 1;

  constructor(private readonly now: () => number) {}

  get current(): readonly ChatMessage[] {
    return this.messages;
  }

  update(read: readonly RawMessage[]): ChatMessage[] {
    const previous = this.messages;
    const offset = alignmentOffset(previous, read);
    const result: ChatMessage[] = [];
    let matching = true;
    read.forEach((raw, index) => {
      const before = previous[offset + index];
      if (matching && before && sameMessage(before, raw)) {
        result.push({ ...before, text: raw.text, time: raw.time ?? before.time });
        return;
      }
      matching = false;
      result.push({ id: `m${this.next++}`, author: raw.author, text: raw.text, time: raw.time, seenAt: this.now() });
    });
    this.messages = result;
    return result;
  }
}

/** Where the read starts within the previous transcript: 0 unless the widget dropped messages from the top. */
function alignmentOffset(previous: readonly ChatMessage[], read: readonly RawMessage[]): number {
  const first = read[0];
  if (!first || previous.length === 0) return 0;
  if (previous[0] && sameMessage(previous[0], first)) return 0;
  const index = previous.findIndex((message) => message.author === first.author && message.text === first.text);
  return index > 0 ? index : 0;
}

/** The same message, possibly grown (a streamed reply) or re-rendered with its text trimmed differently. */
export function sameMessage(before: Pick<ChatMessage, 'author' | 'text'>, raw: RawMessage): boolean {
  if (before.author !== raw.author) return false;
  return raw.text === before.text || raw.text.startsWith(before.text) || before.text.startsWith(raw.text);
}

/** Where a transcript ends now, for a later wait to count only what comes after. */
export function baselineOf(messages: readonly Pick<ChatMessage, 'text'>[]): ChatBaseline {
  return { count: messages.length, lastText: messages.at(-1)?.text ?? '' };
}

/**
 * Messages after the baseline. If the widget dropped old messages the count no longer lines up, so the last text
 * at the baseline is looked for again and counting starts after it.
 */
export function messagesSince<T extends Pick<ChatMessage, 'text'>>(messages: readonly T[], baseline: ChatBaseline): T[] {
  if (baseline.count === 0) return [...messages];
  const atCount = messages[baseline.count - 1];
  if (atCount && atCount.text.startsWith(baseline.lastText)) return messages.slice(baseline.count);
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]?.text === baseline.lastText) return messages.slice(index + 1);
  }
  return messages.slice(Math.min(baseline.count, messages.length));
}

/**
 * The baseline after one of our actions (a message sent, a quick reply chosen, a form sent): everything up to our
 * own last message, so a reply that arrived while the action was still being confirmed still counts as new. When our
 * action left no message of ours, everything that was there before the action.
 */
export function baselineAfterAction(
  before: readonly Pick<ChatMessage, 'text' | 'author'>[] | null,
  after: readonly Pick<ChatMessage, 'text' | 'author'>[],
): ChatBaseline {
  let lastOurs = -1;
  after.forEach((message, index) => {
    if (message.author === 'us') lastOurs = index;
  });
  const priorCount = before?.length ?? after.length;
  if (lastOurs + 1 >= priorCount && lastOurs !== -1) return baselineOf(after.slice(0, lastOurs + 1));
  return baselineOf(after.slice(0, Math.min(priorCount, after.length)));
}
