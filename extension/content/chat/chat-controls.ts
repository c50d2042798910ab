import type { ChatForm, ChatUpload } from '../../../shared/protocol';
import type { ChatProfile } from './chat-profile';
import { composedContains, composedParent, deepQueryWithin, firstMatch, isShown, readableText, type DeepDom, type ShadowRootOf } from './deep-query';
import { labelOf } from './generic-chat';

/** The parts of an open chat in this frame, from the vendor's profile where it names them, else by structure. */
export interface ChatParts {
  root: Element;
  composer: Element | null;
  send: Element | null;
  list: Element | null;
  profile: ChatProfile | null;
}

const BUTTONS = 'button, [role="button"], input[type="button"]';
const FIELDS = 'input, select, textarea';
const GENERIC_TYPING = '[class*="typing" i], [aria-label*="typing" i], [class*="dots-loading" i], [class*="loading-message" i]';

export interface FoundForm {
  element: Element;
  title: string;
  fields: (HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement)[];
  submit: Element | null;
}

function scopeOf(parts: ChatParts): Element {
  return parts.list ?? parts.root;
}

/**
 * What a quick reply can be: a button, a link or a chip (`role=option`), as the widgets render them: Intercom and
 * Zendesk use buttons, Drift and Tidio buttons without a role, LiveChat and some bots links or option chips.
 */
const CHOICE_CONTROLS = `${BUTTONS}, a[href], [role="link"], [role="option"], [role="menuitemradio"]`;
/**
 * Words of the widget's own controls ("Close chat", "Attach a file", "More options", "Thumbs up"): a label made only of
 * them is not a choice, while a reply that uses one among other words ("Call me back", "Close my account") still is.
 */
const CONTROL_WORDS = new Set(
  ('close minimize minimise maximize maximise menu options option more emoji emojis picker attach attachment file files upload ' +
    'back go expand collapse settings end chat conversation window widget send message copy like dislike thumbs up down rate ' +
    'open new a the this').split(' '),
);
const BRANDING = /^(powered by|built with|we run on)\b/i;

export function widgetControlLabel(label: string): boolean {
  const words = label.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return BRANDING.test(label) || words.every((word) => CONTROL_WORDS.has(word));
}

/**
 * Quick replies and option buttons the other side offers, in page order, read as a person sees them: shown and
 * enabled controls with a short label, in the conversation or right under it (between the message list and the
 * composer), offered after our last message (older ones were answered or passed over), outside the chat's forms and
 * the composer's box. A link counts only when it stands alone, like a chip, rather than inside a message's sentence.
 * A vendor profile's selectors, where they match, name the candidates; the same reading applies to them.
 */
export function findChoices(parts: ChatParts, dom: DeepDom, shadowRootOf: ShadowRootOf, ourLast: Element | null): Element[] {
  const fromProfile = [...new Set((parts.profile?.choices ?? []).flatMap((selector) => dom.queryAll(selector)))];
  const candidates = fromProfile.length > 0 ? fromProfile : outermostOnly(deepQueryWithin(parts.root, CHOICE_CONTROLS, shadowRootOf));
  return candidates.filter(
    (control) =>
      !control.closest('form') &&
      control !== parts.send &&
      !(parts.composer && (composedContains(control, parts.composer) || composedContains(parts.composer, control))) &&
      offeredNow(control, parts, ourLast) &&
      isShown(control) &&
      enabled(control) &&
      (!isLink(control) || standsAlone(control)) &&
      plausibleLabel(labelOf(control)),
  );
}

function plausibleLabel(label: string): boolean {
  return label.length > 0 && label.length <= 120 && !widgetControlLabel(label);
}

function enabled(control: Element): boolean {
  return !control.matches(':disabled') && control.getAttribute('aria-disabled') !== 'true' && control.closest('[aria-disabled="true"], [inert]') === null;
}

function isLink(control: Element): boolean {
  return control.matches('a[href], [role="link"]');
}

/** A link alone in its box (a row of link chips), not one inside a sentence of a message. */
function standsAlone(link: Element): boolean {
  const box = composedParent(link);
  return box !== null && onlyControls(box, CHOICE_CONTROLS);
}

function outermostOnly(controls: Element[]): Element[] {
  return controls.filter((control) => !controls.some((other) => other !== control && composedContains(other, control)));
}

/** In the conversation or under it, before the composer, and after the last message we sent. */
function offeredNow(control: Element, parts: ChatParts, ourLast: Element | null): boolean {
  if (ourLast && (composedContains(ourLast, control) || composedOrder(ourLast, control) >= 0)) return false;
  const list = parts.list;
  if (list && !composedContains(list, control) && composedOrder(list, control) >= 0) return false;
  const composer = parts.composer;
  const composerAfterList = composer !== null && (!list || composedOrder(list, composer) < 0);
  return !composerAfterList || composedOrder(control, composer) < 0;
}

/** The element and the shadow hosts it sits under, innermost first. */
function hostChain(element: Element): Element[] {
  const chain = [element];
  for (let root = element.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) chain.push(root.host);
  return chain;
}

/**
 * Page order across shadow roots: negative when `a` comes before `b`, positive when after, 0 when one holds the other
 * (`compareDocumentPosition` alone says nothing useful about elements in different shadow trees).
 */
export function composedOrder(a: Element, b: Element): number {
  const chainA = hostChain(a).reverse();
  const chainB = hostChain(b).reverse();
  for (let level = 0; level < Math.min(chainA.length, chainB.length); level += 1) {
    const x = chainA[level];
    const y = chainB[level];
    if (!x || !y || x.getRootNode() !== y.getRootNode()) return 0;
    if (x === y) continue;
    const position = x.compareDocumentPosition(y);
    if (position & (Node.DOCUMENT_POSITION_CONTAINS | Node.DOCUMENT_POSITION_CONTAINED_BY)) return 0;
    return position & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  }
  return 0;
}

function fillable(element: Element): element is HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  if (element instanceof HTMLInputElement) return !['hidden', 'submit', 'button', 'file', 'image', 'reset'].includes(element.type) && isShown(element);
  return (element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) && isShown(element);
}

/** Forms the chat shows (an order number, an email), apart from the composer's own form. */
export function findForms(parts: ChatParts, shadowRootOf: ShadowRootOf): FoundForm[] {
  const forms = deepQueryWithin(parts.root, 'form', shadowRootOf).filter((form) => !(parts.composer && composedContains(form, parts.composer)));
  const found: FoundForm[] = [];
  for (const form of forms) {
    const fields = deepQueryWithin(form, FIELDS, shadowRootOf).filter(fillable);
    if (fields.length === 0) continue;
    const buttons = deepQueryWithin(form, 'button, input[type="submit"]', shadowRootOf).filter(isShown);
    const submit = buttons.find((button) => (button.getAttribute('type') ?? 'submit') === 'submit') ?? buttons.at(-1) ?? null;
    found.push({ element: form, title: formTitle(form), fields, submit });
  }
  return found;
}

function formTitle(form: Element): string {
  const heading = form.querySelector('legend, h1, h2, h3, h4, p, label');
  return (form.getAttribute('aria-label') ?? (heading ? readableText(heading) : '')).slice(0, 200);
}

export function fieldLabel(field: Element): string {
  const aria = field.getAttribute('aria-label');
  if (aria) return aria.trim();
  const id = field.id;
  const root = field.getRootNode() as Document | ShadowRoot;
  const byFor = id ? root.querySelector(`label[for="${CSS.escape(id)}"]`) : null;
  const label = byFor ?? field.closest('label');
  if (label) return readableText(label);
  return field.getAttribute('placeholder') ?? field.getAttribute('name') ?? '';
}

export function describeForm(form: FoundForm, index: number): ChatForm {
  return {
    index,
    title: form.title,
    fields: form.fields.map((field) => ({
      label: fieldLabel(field).slice(0, 200),
      name: (field.getAttribute('name') ?? '').slice(0, 200),
      type: field instanceof HTMLInputElement ? field.type : field.tagName.toLowerCase(),
      required: field.required,
      value: field.value.slice(0, 2000),
    })),
    submitLabel: form.submit ? labelOf(form.submit).slice(0, 200) : null,
  };
}

/** File inputs the other side put in the conversation (not the composer's own attach button): the user must choose. */
export function findUploads(parts: ChatParts, shadowRootOf: ShadowRootOf): ChatUpload[] {
  const scope = scopeOf(parts);
  const inputs = deepQueryWithin(parts.root, 'input[type="file"]', shadowRootOf).filter(
    (input) => composedContains(scope, input) || input.closest('form') !== null,
  );
  return inputs.map((input) => ({
    label: (fieldLabel(input) || labelOf(composedParent(input) ?? input) || 'a file').slice(0, 200),
    accept: input.getAttribute('accept'),
  }));
}

export function isTyping(parts: ChatParts, dom: DeepDom, shadowRootOf: ShadowRootOf): boolean {
  const profileHit = firstMatch(dom, parts.profile?.typing ?? [], isShown);
  if (profileHit) return true;
  return genericTyping(parts, shadowRootOf).some(isShown);
}

/** Typing indicators found by name, except the composer and its own box (some UIs mark the composer "typing"). */
function genericTyping(parts: ChatParts, shadowRootOf: ShadowRootOf): Element[] {
  const composer = parts.composer;
  return deepQueryWithin(parts.root, GENERIC_TYPING, shadowRootOf).filter(
    (element) => !composer || (!composedContains(element, composer) && !composedContains(composer, element)),
  );
}

/** True for elements that belong to controls rather than messages, so the reader skips them. */
export function controlTest(parts: ChatParts, dom: DeepDom, shadowRootOf: ShadowRootOf): (element: Element) => boolean {
  const typing = [...(parts.profile?.typing ?? []).flatMap((selector) => dom.queryAll(selector)), ...genericTyping(parts, shadowRootOf)];
  const composer = parts.composer;
  return (element) => {
    if (typing.some((indicator) => composedContains(element, indicator) || composedContains(indicator, element))) return true;
    // Forms and upload prompts are reported as such, not read as messages (the composer's own box aside).
    const fields = element.matches(FIELDS) ? [element] : [...element.querySelectorAll(FIELDS)];
    if (fields.some((field) => field !== composer && !(composer && composedContains(field, composer)))) return true;
    return onlyControls(element, `${BUTTONS}, [role="option"]`);
  };
}

/** An element whose every piece of text sits in a control (a row of quick replies). */
function onlyControls(element: Element, controls = BUTTONS): boolean {
  const buttons = [...element.querySelectorAll(controls)];
  if (buttons.length === 0 && !element.matches(controls)) return false;
  if (element.matches(controls)) return true;
  const buttonText = buttons.map((button) => readableText(button)).join(' ').replace(/\s+/g, '');
  return readableText(element).replace(/\s+/g, '') === buttonText;
}
