import type { ChatAuthor } from '../../../shared/protocol';
import { authorFromWords } from './author-tokens';
import type { ChatProfile } from './chat-profile';
import { composedClosest, composedContains, composedParent, deepQueryWithin, isShown, readableText, type ShadowRootOf } from './deep-query';
import type { RawMessage } from './transcript-ledger';

export interface ReadContext {
  scope: Element;
  profile: ChatProfile | null;
  shadowRootOf: ShadowRootOf;
  /** Texts this frame typed into the composer: a message that repeats one of them is ours. */
  sentTexts: readonly string[];
  /** Elements that are not messages (typing indicators, quick-reply groups, forms). */
  isControl: (element: Element) => boolean;
}

const TYPING = /typing|is-typing|dots-loading|loading-message|writing/i;
/** Where UIs of no known vendor put a message's time: a time element, or a box named for it. */
const GENERIC_TIME = ['time', '[class*="timestamp" i]', '[class*="-time" i]', '[class*="time-" i]', '[class*="_time" i]'];

/** Chat text is untrusted page content: a transcript is bounded in messages and in characters per message. */
export const MAX_MESSAGES = 200;
export const MAX_TEXT = 4000;

function capped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** One message read from the page, with the element it was read from. */
export interface ReadMessage {
  element: Element;
  message: RawMessage;
}

/** Reads the transcript in page order, each message with its author and shown time. */
export function readMessages(context: ReadContext): ReadMessage[] {
  const items = messageElements(context).filter((item) => isShown(item) && !context.isControl(item) && !TYPING.test(item.getAttribute('class') ?? ''));
  const messages: ReadMessage[] = [];
  for (const item of items) {
    const time = timeOf(item, context);
    let text = readableText(item);
    if (time?.shown) text = text.replace(time.shown, '').trim();
    text = withoutLabels(item, text, context.shadowRootOf);
    if (text === '') continue;
    messages.push({ element: item, message: { author: authorOf(item, text, context), text: capped(text, MAX_TEXT), time: time ? capped(time.value, 64) : null } });
  }
  // The page decides how much it shows; the reader bounds what it passes on.
  return messages.slice(-MAX_MESSAGES);
}

const LABELS = '[class*="participant" i], [class*="sender" i], [class*="avatar" i], [class*="author-name" i], [class*="display-name" i], [class*="participantName" i]';

/** Drops the sender's name or avatar text that some UIs print inside each message ("Assistant Hi!"). */
function withoutLabels(item: Element, text: string, shadowRootOf: ShadowRootOf): string {
  let result = text;
  for (const label of deepQueryWithin(item, LABELS, shadowRootOf)) {
    const shown = readableText(label);
    if (shown !== '' && shown !== result && result.startsWith(shown)) result = result.slice(shown.length).trim();
  }
  return result;
}

function messageElements(context: ReadContext): Element[] {
  for (const selector of context.profile?.message ?? []) {
    const found = deepQueryWithin(context.scope, selector, context.shadowRootOf);
    if (found.length > 0) return outermost(found);
  }
  const items = genericItems(context.scope, context.shadowRootOf);
  return authorMarkedItems(context, items) ?? items;
}

/**
 * Messages that say who wrote them in their class names (`chatItem--received`, `user-message-text`): UIs that group
 * messages in segments nest them at different depths, and these marks find them at any depth. Used only when the
 * marked elements hold nearly all of the list's text, so a list where only some messages are marked is read by
 * structure instead.
 */
function authorMarkedItems(context: ReadContext, structural: Element[]): Element[] | null {
  const { scope: list, shadowRootOf } = context;
  const marked = outermost(
    deepQueryWithin(list, '[class]', shadowRootOf).filter((element) => element !== list && authorFromWords([element.getAttribute('class') ?? '']) !== null),
  );
  if (marked.length === 0) return null;
  const total = structural.filter((item) => !context.isControl(item)).reduce((sum, item) => sum + textLength(item, shadowRootOf), 0);
  const covered = marked.reduce((sum, element) => sum + textLength(element, shadowRootOf), 0);
  return total > 0 && covered / total >= 0.8 ? marked : null;
}

function textLength(element: Element, shadowRootOf: ShadowRootOf): number {
  const shadow = shadowRootOf(element);
  const own = readableText(element).replace(/\s+/g, '').length;
  return shadow ? own + [...shadow.children].reduce((sum, child) => sum + textLength(child, shadowRootOf), 0) : own;
}

/** Drops elements inside other found elements, so a message is not read twice through its inner bubble. */
function outermost(elements: Element[]): Element[] {
  return elements.filter((element) => !elements.some((other) => other !== element && composedContains(other, element)));
}

/**
 * The messages of a list found by structure: its children, stepping through wrappers that hold a single child (and
 * into a shadow root when the list is a custom element), as chat UIs nest each message in a few layers.
 */
function genericItems(list: Element, shadowRootOf: ShadowRootOf): Element[] {
  let container: Element | ShadowRoot = list;
  for (let depth = 0; depth < 4; depth += 1) {
    const shadow: ShadowRoot | null = container instanceof Element ? shadowRootOf(container) : null;
    const children: Element[] = [...(shadow ?? container).children].filter((child) => !['STYLE', 'SCRIPT', 'TEMPLATE', 'LINK'].includes(child.tagName));
    const only = children[0];
    if (children.length === 1 && only && only.children.length > 0) {
      container = only;
      continue;
    }
    return children;
  }
  return [...container.children];
}

function timeOf(item: Element, context: ReadContext): { value: string; shown: string } | null {
  for (const selector of context.profile?.time ?? GENERIC_TIME) {
    const element = deepQueryWithin(item, selector, context.shadowRootOf)[0];
    if (!element) continue;
    const shown = readableText(element);
    return { value: element.getAttribute('datetime') ?? shown, shown };
  }
  return null;
}

function authorOf(item: Element, text: string, context: ReadContext): ChatAuthor {
  for (const rule of context.profile?.authors ?? []) {
    try {
      if (item.matches(rule.selector) || composedClosest(item, rule.selector) || item.querySelector(rule.selector)) return rule.author;
    } catch {
      // A selector this engine cannot parse names no author.
    }
  }
  const fromWords = authorFromMarkup(item, context.scope);
  if (fromWords) return fromWords;
  if (context.sentTexts.some((sent) => sent === text || text.startsWith(sent))) return 'us';
  return authorFromAlignment(item, context.scope) ?? 'them';
}

/** Class names and data attributes on the message, its first levels of content, then its wrappers up to the list. */
function authorFromMarkup(item: Element, scope: Element): ChatAuthor | null {
  const own = (element: Element): string[] => [
    element.getAttribute('class') ?? '',
    ...[...element.attributes].filter((attribute) => attribute.name.startsWith('data-') || attribute.name === 'role').map((attribute) => attribute.value),
  ];
  const levels: Element[][] = [[item]];
  levels.push([...item.children]);
  levels.push([...item.children].flatMap((child) => [...child.children]));
  for (const level of levels) {
    const author = authorFromWords(level.flatMap(own));
    if (author) return author;
  }
  for (let current = composedParent(item); current && current !== scope; current = composedParent(current)) {
    const author = authorFromWords(own(current));
    if (author) return author;
  }
  return null;
}

/** Bubbles on the right are the user's in nearly every chat UI; on the left, the other side's. */
function authorFromAlignment(item: Element, scope: Element): ChatAuthor | null {
  const box = scope.getBoundingClientRect();
  let bubble: Element = item;
  while (bubble.getBoundingClientRect().width > box.width * 0.85 && bubble.firstElementChild) bubble = bubble.firstElementChild;
  const rect = bubble.getBoundingClientRect();
  if (rect.width === 0 || rect.width > box.width * 0.85) return null;
  const leftGap = rect.left - box.left;
  const rightGap = box.right - rect.right;
  if (Math.abs(leftGap - rightGap) < 8) return null;
  return leftGap > rightGap ? 'us' : 'them';
}
