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
const NOT_A_CHOICE = /close|minimi[sz]e|menu|options|emoji|attach|upload|back|expand|collapse|more|settings|end chat|^send$/i;
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

/** Quick replies and option buttons the other side offers, in page order. */
export function findChoices(parts: ChatParts, dom: DeepDom, shadowRootOf: ShadowRootOf): Element[] {
  const fromProfile = [...new Set((parts.profile?.choices ?? []).flatMap((selector) => dom.queryAll(selector)))];
  const candidates =
    fromProfile.length > 0 ? fromProfile : deepQueryWithin(scopeOf(parts), BUTTONS, shadowRootOf).filter((button) => !button.closest('form'));
  return candidates.filter(
    (button) =>
      isShown(button) &&
      button !== parts.send &&
      !(button instanceof HTMLButtonElement && button.disabled) &&
      !(parts.composer && composedContains(button, parts.composer)) &&
      labelOf(button).length > 0 &&
      labelOf(button).length <= 120 &&
      !NOT_A_CHOICE.test(labelOf(button)),
  );
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
    return onlyControls(element);
  };
}

/** An element whose every piece of text sits in a button (a row of quick replies). */
function onlyControls(element: Element): boolean {
  const buttons = [...element.querySelectorAll(BUTTONS)];
  if (buttons.length === 0 && !element.matches(BUTTONS)) return false;
  if (element.matches(BUTTONS)) return true;
  const buttonText = buttons.map((button) => readableText(button)).join(' ').replace(/\s+/g, '');
  return readableText(element).replace(/\s+/g, '') === buttonText;
}
