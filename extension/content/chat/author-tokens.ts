import type { ChatAuthor } from '../../../shared/protocol';

const US = new Set(['user', 'visitor', 'customer', 'me', 'self', 'own', 'mine', 'outgoing', 'outbound', 'sent', 'right', 'client', 'requester', 'human', 'enduser', 'guest', 'local']);
const THEM = new Set(['agent', 'operator', 'bot', 'ai', 'assistant', 'admin', 'support', 'incoming', 'inbound', 'received', 'rcvd', 'left', 'business', 'staff', 'server', 'remote', 'rep', 'response', 'answer', 'them', 'other']);
const SYSTEM = new Set(['system', 'event', 'notice', 'notification', 'status', 'activity', 'lineitem', 'note', 'divider', 'announcement']);

/**
 * Splits class names and attribute values into words: `user-message-text` -> user, message, text;
 * `chatItemSent` -> chat, item, sent; `nlux_cht_itm_rcvd` -> nlux, cht, itm, rcvd.
 */
export function wordsOf(value: string): string[] {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** The author a set of class names and attribute values names, if exactly one kind of author is named. */
export function authorFromWords(values: readonly string[]): ChatAuthor | null {
  const found = new Set<ChatAuthor>();
  for (const value of values) {
    for (const word of wordsOf(value)) {
      if (US.has(word)) found.add('us');
      else if (THEM.has(word)) found.add('them');
      else if (SYSTEM.has(word)) found.add('system');
    }
  }
  return found.size === 1 ? ([...found][0] ?? null) : null;
}
