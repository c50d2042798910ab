import type { ChatMessage, ChatState } from '../protocol/chat-protocol';

/**
 * Getting past a support bot: noticing that the other side is going round in circles (the same canned answer, or
 * answers that add nothing towards the goal, twice), and the move that asks for a person the way the chat offers one.
 * Pure code over the transcript, so the case does it whatever the model says.
 */

/** Lower case, digits folded to '#', punctuation and extra spacing gone: how two canned answers are compared. */
export function normaliseReply(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/#/g, ' ')
    .replace(/\d+/g, '#')
    .replace(/[^\p{L}\p{N}#\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function trigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  const padded = `  ${text} `;
  for (let i = 0; i + 3 <= padded.length; i++) {
    const gram = padded.slice(i, i + 3);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/** Dice similarity of character trigrams of the normalised texts: 1 for the same canned answer, ~0 for unrelated. */
export function replySimilarity(a: string, b: string): number {
  const left = normaliseReply(a);
  const right = normaliseReply(b);
  if (left === right) return 1;
  if (left.length === 0 || right.length === 0) return 0;
  const x = trigrams(left);
  const y = trigrams(right);
  let shared = 0;
  let total = 0;
  for (const count of x.values()) total += count;
  for (const [gram, count] of y) {
    total += count;
    shared += Math.min(count, x.get(gram) ?? 0);
  }
  return (2 * shared) / total;
}

const STOP = new Set(
  'a an the and or but if of to in on at for from by with about as is are was were be been being it its this that these those i you we they he she me us our your my their them can could would should will shall may might do does did done have has had not no yes please thanks thank sorry help here there what which who how when where why so just also any some all more very really let know ok okay hi hello'.split(' '),
);

function contentWords(text: string): Set<string> {
  return new Set(normaliseReply(text).split(' ').filter((word) => word.length > 2 && !STOP.has(word)));
}

/** One answer of the other side: what they said between one of our messages and the next. */
export interface SupportReply {
  text: string;
  /** Ids of the messages it is made of. */
  ids: string[];
}

/** The other side's answers to our messages, oldest first (their messages before our first one are the greeting). */
export function repliesToUs(messages: readonly ChatMessage[]): SupportReply[] {
  const replies: SupportReply[] = [];
  let current: SupportReply | null = null;
  let spoke = false;
  for (const message of messages) {
    if (message.author === 'us') {
      spoke = true;
      if (current) replies.push(current);
      current = null;
      continue;
    }
    if (message.author !== 'them' || !spoke) continue;
    current ??= { text: '', ids: [] };
    current.text = current.text ? `${current.text}\n${message.text}` : message.text;
    current.ids.push(message.id);
  }
  if (current) replies.push(current);
  return replies;
}

export type LoopKind = 'repeated-answer' | 'no-progress';

export interface LoopVerdict {
  looping: boolean;
  kind: LoopKind | null;
  /** In words for the model and the user: what was seen. */
  reason: string;
}

export interface LoopOptions {
  /** From this similarity on, two answers are the same canned one. */
  sameAt?: number;
  /** Below this share of new content words, an answer adds nothing towards the goal. */
  progressAt?: number;
  /** Words of the goal: an answer that mentions new ones of them counts as progress. */
  goal?: string;
}

const NOT_LOOPING: LoopVerdict = { looping: false, kind: null, reason: '' };

/**
 * A refusal loop: the last two answers each repeat an earlier answer (same canned text, by normalised similarity), or
 * the last two answers each bring (almost) no content that no earlier answer had and none of the goal's words.
 */
export function detectRefusalLoop(messages: readonly ChatMessage[], options: LoopOptions = {}): LoopVerdict {
  const sameAt = options.sameAt ?? 0.8;
  const progressAt = options.progressAt ?? 0.4;
  const replies = repliesToUs(messages);
  if (replies.length < 3) return NOT_LOOPING;
  const lastTwo = replies.slice(-2);
  const repeats = lastTwo.every((reply, k) => {
    const before = replies.slice(0, replies.length - 2 + k);
    return before.some((earlier) => replySimilarity(earlier.text, reply.text) >= sameAt);
  });
  if (repeats) {
    return { looping: true, kind: 'repeated-answer', reason: `Support gave the same canned answer again twice: "${clip(lastTwo[1]!.text)}"` };
  }
  const goal = options.goal ? contentWords(options.goal) : new Set<string>();
  const stalls = lastTwo.every((reply, k) => {
    const known = new Set<string>();
    for (const earlier of replies.slice(0, replies.length - 2 + k)) for (const word of contentWords(earlier.text)) known.add(word);
    const words = [...contentWords(reply.text)];
    if (words.length === 0) return true;
    if (words.some((word) => goal.has(word) && !known.has(word))) return false;
    return words.filter((word) => !known.has(word)).length / words.length < progressAt;
  });
  if (stalls) return { looping: true, kind: 'no-progress', reason: `Support's last two answers added nothing towards the goal: "${clip(lastTwo[1]!.text)}"` };
  return NOT_LOOPING;
}

function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A quick reply that asks for a person: "Talk to a person", "Chat with an agent", "Contact support", … */
const HUMAN_CHOICE = /\b(human|person|people|agent|representative|rep|advis[eo]r|operator|someone|staff|specialist|live (?:chat|support)|real|team member|customer service|speak|talk)\b/i;
/** Quick replies that look like it but are not: "Not a person", "I am human". */
const NOT_HUMAN_CHOICE = /\b(no|not|don'?t|never|bot|virtual|ai)\b(?! human)/i;

/** Words that a person (not the bot) has joined: "You are now chatting with Sam", "An agent has joined". */
const HUMAN_JOINED = /\b(now (?:chatting|talking|connected) with|(?:agent|advis[eo]r|representative|specialist|[A-Z][a-z]+) (?:has )?joined|transferr(?:ed|ing) you to (?:a|an|one of our) (?:human|person|agent|advis[eo]r|representative|specialist)|my name is [A-Z][a-z]+,? (?:and )?I(?:'|’)?(?:ll| will| am|'m))/i;

/** Words that no person is available: outside hours, queue closed, "agents are unavailable". */
const NO_HUMAN = /\b(no (?:agents?|advis[eo]rs?|one|representatives?|humans?) (?:is |are )?(?:available|online)|(?:agents?|advis[eo]rs?|team|representatives?) (?:is |are )?(?:currently )?(?:unavailable|offline|closed)|outside (?:of )?(?:our )?(?:business|opening|support) hours|live chat is (?:closed|unavailable)|cannot (?:connect|transfer) you)\b/i;

/** Whether a person has joined the chat after the bot (a system notice or their own introduction). */
export function humanJoined(messages: readonly ChatMessage[]): boolean {
  return messages.some((message) => message.author !== 'us' && HUMAN_JOINED.test(message.text));
}

/** The other side's last word that no person can be reached now, if it said so. */
export function noHumanNotice(messages: readonly ChatMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.author !== 'us' && NO_HUMAN.test(message.text)) return message.text;
  }
  return null;
}

/** What the case does to reach a person: click the chat's own quick reply, type the keyword the vendor reacts to, or give up honestly. */
export type EscalationMove =
  | { kind: 'choice'; index: number; label: string }
  | { kind: 'keyword'; text: string }
  | { kind: 'none'; reason: string };

/** Keywords bots answer with a handover, per vendor (the first one tried first), then the plain request. */
const VENDOR_KEYWORDS: Record<string, readonly string[]> = {
  intercom: ['Talk to a person'],
  zendesk: ['agent'],
  drift: ['Talk to a human'],
  freshchat: ['agent'],
  livechat: ['agent'],
  tidio: ['human'],
  hubspot: ['Talk to a person'],
  crisp: ['human'],
};
const PLAIN = ['agent', 'human', 'I would like to talk to a person, please.'];

/** The keywords to try on a vendor's chat, in order, without repeats. */
export function escalationKeywords(vendor: string): string[] {
  return [...new Set([...(VENDOR_KEYWORDS[vendor] ?? []), ...PLAIN])];
}

/**
 * The next move towards a person, given what the chat offers and what was already tried in this case: a quick reply
 * that asks for one (never one tried before), else the next keyword for the vendor, else none (tell the user).
 */
export function nextEscalationMove(state: Pick<ChatState, 'vendor' | 'choices' | 'messages'>, tried: ReadonlySet<string>, maxKeywords = 2): EscalationMove {
  const notice = noHumanNotice(state.messages);
  for (const choice of state.choices) {
    if (tried.has(`choice:${choice.label.toLowerCase()}`)) continue;
    if (HUMAN_CHOICE.test(choice.label) && !NOT_HUMAN_CHOICE.test(choice.label)) return { kind: 'choice', index: choice.index, label: choice.label };
  }
  if (notice) return { kind: 'none', reason: `Support said no person is available: "${clip(notice)}"` };
  const keywordsTried = [...tried].filter((entry) => entry.startsWith('keyword:')).length;
  if (keywordsTried < maxKeywords) {
    for (const text of escalationKeywords(state.vendor)) if (!tried.has(`keyword:${text.toLowerCase()}`)) return { kind: 'keyword', text };
  }
  return { kind: 'none', reason: `Asked for a person ${[...tried].length} time${[...tried].length === 1 ? '' : 's'} and the chat still answers with the bot; no human looks reachable here.` };
}

/** The key a move is remembered by in `tried`. */
export function moveKey(move: EscalationMove): string {
  if (move.kind === 'choice') return `choice:${move.label.toLowerCase()}`;
  if (move.kind === 'keyword') return `keyword:${move.text.toLowerCase()}`;
  return 'none';
}
