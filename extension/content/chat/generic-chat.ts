import { wordsOf } from './author-tokens';
import { composedClosest, composedContains, composedParent, deepQueryWithin, isShown, readableText, type DeepDom, type ShadowRootOf } from './deep-query';

/** The parts of a chat found by structure alone. */
export interface GenericChat {
  root: Element;
  composer: Element;
  send: Element | null;
  list: Element | null;
  score: number;
  reasons: string[];
}

const COMPOSERS =
  'textarea, input[type="text"], input:not([type]), [contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"], [role="textbox"]';
const BUTTONS = 'button, [role="button"], input[type="submit"], input[type="button"]';
/** Parts of the composer's box are named after messages too ("message-input__tools"); they are never the list. */
const NOT_LIST_WORDS = new Set(['input', 'composer', 'compose', 'editor', 'tools', 'toolbar', 'button', 'buttons', 'form', 'header', 'footer', 'avatar', 'actions', 'attach', 'emoji', 'send', 'typing', 'indicator', 'loader', 'spinner']);
const MAX_COMPOSERS = 20;
const MAX_SCANNED = 3000;
const SEND_WORDS = /\b(send|submit|reply|post|enviar|senden|envoyer|invia)\b|➤|➢|⮞/i;
const CHAT_WORDS = new Set(['chat', 'chats', 'chatbot', 'message', 'messages', 'messaging', 'messenger', 'support', 'conversation', 'conversations', 'assistant', 'help', 'helpdesk', 'talk', 'livechat']);
const LIST_WORDS = new Set(['message', 'messages', 'msgs', 'conversation', 'conversations', 'chat', 'chats', 'transcript', 'history', 'thread', 'log', 'feed', 'segments']);
const SEARCH_WORDS = /search|query|filter|coupon|promo|zip|postcode|email|password|name|phone/i;

/** What a person or a screen reader would call an element: its ARIA label, else its text, title, value or icon. */
export function labelOf(element: Element): string {
  const parts = [
    element.getAttribute('aria-label'),
    readableText(element),
    element.getAttribute('title'),
    element instanceof HTMLInputElement ? element.value : null,
    element.querySelector('svg title')?.textContent,
    element.getAttribute('name'),
  ];
  return parts.find((part): part is string => typeof part === 'string' && part.trim() !== '')?.trim() ?? '';
}

/** Whether a label or class list speaks of chat ("direct-chat-messages", "chatRoom", "Type a message"). */
export function namesChat(text: string): boolean {
  return wordsOf(text).some((word) => CHAT_WORDS.has(word));
}

function attributeText(element: Element): string {
  return [element.id, element.getAttribute('class'), element.getAttribute('aria-label'), element.getAttribute('role'), element.getAttribute('title'), element.tagName]
    .filter(Boolean)
    .join(' ');
}

function isComposerCandidate(element: Element): boolean {
  if (!isShown(element)) return false;
  if (element.closest('[role="search"], form[role="search"]')) return false;
  if (element instanceof HTMLInputElement && (element.type === 'search' || element.type === 'hidden')) return false;
  if (element.hasAttribute('readonly') || element.getAttribute('aria-readonly') === 'true') return false;
  const hints = [element.getAttribute('name'), element.getAttribute('placeholder'), element.getAttribute('aria-label'), element.id].join(' ');
  return !(SEARCH_WORDS.test(hints) && !namesChat(hints));
}

/** A send control near the composer: labelled "send", a submit button in its form, or the one icon button beside it. */
export function findSendControl(scope: Element, composer: Element, shadowRootOf: ShadowRootOf): Element | null {
  const buttons = deepQueryWithin(scope, BUTTONS, shadowRootOf).filter((button) => button !== composer && isShown(button));
  const labelled = buttons.find((button) => SEND_WORDS.test(labelOf(button)));
  if (labelled) return labelled;
  const form = composer.closest('form');
  const submit = form ? buttons.find((button) => button.closest('form') === form && (button.getAttribute('type') ?? 'submit') === 'submit') : undefined;
  return submit ?? null;
}

function overflowsVertically(element: Element): boolean {
  const style = element.ownerDocument.defaultView?.getComputedStyle(element);
  return style !== undefined && /(auto|scroll)/.test(style.overflowY);
}

/** The element that holds the messages: a log region, a scrolling box, or a box named like a message list. */
export function findMessageList(scope: Element, composer: Element, shadowRootOf: ShadowRootOf): Element | null {
  // Parts of controls (a send button's loading spinner is often named "message-loader") are never the list.
  const all = deepQueryWithin(scope, '*', shadowRootOf).slice(0, MAX_SCANNED).filter(
    (element) => !composedContains(element, composer) && !composedContains(composer, element) && !composedClosest(element, BUTTONS),
  );
  const log = all.find((element) => element.getAttribute('role') === 'log' || element.getAttribute('aria-live') === 'polite');
  if (log) return log;
  const named = all.filter((element) => {
    if (element.children.length === 0) return false;
    const words = wordsOf(`${element.id} ${element.getAttribute('class') ?? ''}`);
    return words.some((word) => LIST_WORDS.has(word)) && !words.some((word) => NOT_LIST_WORDS.has(word));
  });
  // A list holds its messages, whose parts are often named like it ("message__content"): keep the outermost ones.
  const outer = named.slice(0, 300).filter((element) => !named.some((other) => other !== element && composedContains(other, element)));
  return outer.find(overflowsVertically) ?? outer[0] ?? all.find((element) => overflowsVertically(element) && element.children.length > 0) ?? null;
}

function isFixedCorner(element: Element): boolean {
  const view = element.ownerDocument.defaultView;
  for (let current: Element | null = element; current; current = composedParent(current)) {
    const style = view?.getComputedStyle(current);
    if (style?.position === 'fixed') {
      const rect = current.getBoundingClientRect();
      return view !== null && rect.right > view.innerWidth / 2 && rect.bottom > view.innerHeight / 2;
    }
  }
  return false;
}

/**
 * Finds a chat by its shape: a composer and, around it, a list of messages and usually a send control. Each part and
 * each hint (chat words in labels, a fixed box in the bottom-right corner, a frame that is nothing but the chat) adds
 * to the score, so a search box or a contact form does not pass for a chat.
 */
export function findGenericChat(dom: DeepDom, shadowRootOf: ShadowRootOf): GenericChat | null {
  let best: GenericChat | null = null;
  // Bounded: a page with hundreds of inputs is a form, not a chat, and must not make detection slow.
  for (const composer of dom.queryAll(COMPOSERS).filter(isComposerCandidate).slice(0, MAX_COMPOSERS)) {
    let scope: Element | null = composedParent(composer);
    for (let depth = 0; scope && depth < 10; depth += 1, scope = composedParent(scope)) {
      const list = findMessageList(scope, composer, shadowRootOf);
      if (!list) continue;
      const send = findSendControl(scope, composer, shadowRootOf);
      const found = score(composer, scope, list, send);
      if (!best || found.score > best.score) best = found;
      break;
    }
  }
  return best;
}

/**
 * How sure the structure is a chat. A composer beside a list is only a start (a form beside a select list, a date
 * picker beside its live region look the same); a send control, chat words in the labels, a log region and a box
 * floating in the corner each add, and together they have to reach the fallback's threshold.
 */
function score(composer: Element, root: Element, list: Element, send: Element | null): GenericChat {
  const reasons = ['composer', 'message list'];
  let value = 0.4;
  if (send) {
    value += 0.15;
    reasons.push('send control');
  }
  const words = `${attributeText(root)} ${attributeText(list)} ${composer.getAttribute('placeholder') ?? ''} ${composer.getAttribute('aria-label') ?? ''}`;
  if (namesChat(words)) {
    value += 0.2;
    reasons.push('chat words in labels');
  }
  if (list.getAttribute('role') === 'log') {
    value += 0.1;
    reasons.push('log region');
  }
  if (isFixedCorner(root)) {
    value += 0.1;
    reasons.push('fixed bottom-right');
  }
  const view = root.ownerDocument.defaultView;
  if (view && view !== view.top) {
    value += 0.05;
    reasons.push('in its own frame');
  }
  return { root, composer, send, list, score: Math.round(Math.min(1, value) * 100) / 100, reasons };
}
