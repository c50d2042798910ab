import type { ChatMessage, ChatState } from '../protocol/chat-protocol';
import type { WrittenEscalation } from '../protocol/task-protocol';
import { factsShared } from './support-case';
import { extractPromises } from './support-promises';

/**
 * Escalating in writing (issue 31, item 3): when a support chat closes or stalls before the goal is met, Deputy drafts
 * a message for the site's contact form or support address from the case file — the goal in the user's words, the
 * facts the user gave that were shared in the chat (nothing else about them), what support promised, quoted, and when
 * things were said. The draft is made in code, never by the model, so it cannot carry an invented fact; the model only
 * types it into the site's form, and the form's submission waits for the user's approval like any form's.
 */

const FACT_NAMES: Record<string, string> = { order_number: 'Order number', email: 'Email', name: 'Name' };
const factName = (name: string): string => FACT_NAMES[name] ?? name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** Words of a chat's own that it has ended or timed out. */
const ENDED = /\b(?:conversation|chat|session)\b[^.!?]{0,30}\b(?:has |was |is )?(?:ended|closed|expired|timed out)\b|\bclosing this (?:chat|conversation)\b|\b(?:chat|conversation) (?:is )?over\b/i;

/** Why the chat cannot carry the case further, or null while it still can. */
export function chatStalled(state: ChatState, options: { noHuman?: boolean } = {}): string | null {
  const recent = state.messages.slice(-4).filter((message) => message.author !== 'us');
  const ended = recent.find((message) => ENDED.test(message.text));
  if (ended) return `support closed the chat ("${ended.text.slice(0, 120)}")`;
  if (options.noHuman) return 'no person could be reached in the chat';
  return null;
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "28 Nov 2026, 12:20 UTC": a time support can read whatever their zone, written so that no run of digits in it looks
 * like a phone number (the gate stops a message to support that holds one the user did not give).
 */
export function caseTime(at: number): string {
  const date = new Date(at);
  const hh = String(date.getUTCHours()).padStart(2, '0');
  const mm = String(date.getUTCMinutes()).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

export interface DraftInput {
  goal: string;
  /** Every message the case saw, oldest first. */
  messages: readonly ChatMessage[];
  /** The facts the user allowed Deputy to share, by name. */
  facts: Readonly<Record<string, string>>;
  /** Why the chat could not finish the case (chatStalled). */
  reason: string;
  /** Where it goes: a contact form's page, or a support email address. */
  to: { via: 'contact_form'; url: string } | { via: 'email'; address: string };
  now: number;
}

/** The message to support, with its subject; for an address, a mailto: link that opens it in the user's mail program. */
export function draftWrittenEscalation(input: DraftInput): WrittenEscalation {
  const shared = factsShared(input.messages, input.facts);
  const first = input.messages[0]?.seenAt;
  const promises = extractPromises(input.messages);
  const subject = `Follow-up to my support chat: ${input.goal.replace(/\s+/g, ' ').trim().slice(0, 90)}`;
  const lines = ['Hello,', '', `I am writing about this: ${input.goal.trim()}`];
  lines.push('', `I raised it in your support chat${first ? ` on ${caseTime(first)}` : ''}, but ${input.reason} before it was resolved.`);
  if (shared.length > 0) {
    lines.push('', 'The details I gave in the chat:');
    for (const name of shared) lines.push(`- ${factName(name)}: ${input.facts[name]}`);
  }
  if (promises.length > 0) {
    lines.push('', 'What your team told me in the chat:');
    const byId = new Map(input.messages.map((message) => [message.id, message]));
    for (const promise of promises) {
      const at = byId.get(promise.messageId)?.seenAt;
      lines.push(`- "${promise.quote}"${at ? ` (${caseTime(at)})` : ''}`);
    }
  }
  lines.push('', 'Please reply to let me know how you will resolve this.', '', 'Thank you.');
  const body = lines.join('\n');
  const base = { subject, body, draftedAt: input.now, reason: input.reason, factsUsed: shared };
  if (input.to.via === 'email') {
    return { ...base, via: 'email', to: input.to.address, mailto: `mailto:${input.to.address}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}` };
  }
  return { ...base, via: 'contact_form', to: input.to.url };
}

/** What the model is told once a draft is ready: the draft, where it goes, and that the user approves the sending. */
export function draftNote(draft: WrittenEscalation, replyTo: string | undefined): string {
  const where =
    draft.via === 'email'
      ? `It is for ${draft.to}: the user can open it in their mail program from the case in History. Tell the user, then end the case (chat_end).`
      : `${/^https?:\/\/[^/]+\/?$/.test(draft.to) ? `Find the site's contact page on ${draft.to} (its "Contact us" link or page), open it,` : `Open the site's contact page (${draft.to}),`} type the subject and message below exactly as drafted into its fields${replyTo ? `, and ${replyTo} as the address to reply to` : ''}, fill nothing else, then submit it: the user sees the draft and approves the sending first. If they decline, or the page has no contact form, end the case (chat_end) and say so.`;
  return `The chat cannot carry the case further (${draft.reason}). Deputy drafted a written escalation from the case file. ${where}\nSubject: ${draft.subject}\nMessage:\n${draft.body}`;
}
