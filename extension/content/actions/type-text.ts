import { AppError } from '../../../shared/errors';
import type { InputDriver } from './input-types';
import { parseChord } from './chord';

type TextField = HTMLInputElement | HTMLTextAreaElement;

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '']);

export function isTextField(el: Element): el is TextField {
  if (el.tagName === 'TEXTAREA') return true;
  return el.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden', 'range', 'color'].includes((el as HTMLInputElement).type);
}

/**
 * Sets a field's value through the prototype's setter. Frameworks that track the value on the element (React's value
 * tracker, Vue's v-model) see the following input event as a real edit because the tracked value is now stale.
 */
function setNativeValue(field: TextField, value: string): void {
  const proto = field.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'value');
  if (descriptor?.set) descriptor.set.call(field, value);
  else field.value = value;
}

function fire(el: Element, text: string): void {
  el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Text that the field type accepts as typed (execCommand cannot put text into number, email or date fields). */
function typeIntoField(field: TextField, text: string, clear: boolean): void {
  field.focus({ preventScroll: true });
  const doc = field.ownerDocument;
  const selectable = field.tagName === 'TEXTAREA' || TEXT_INPUT_TYPES.has((field as HTMLInputElement).type);
  const expected = clear ? text : field.value + text;
  if (selectable && field.type !== 'number' && field.type !== 'email') {
    if (clear) field.select();
    else field.setSelectionRange(field.value.length, field.value.length);
    // insertText goes through the browser's editing code, so beforeinput/input are the events a user's typing sends.
    const inserted = text === '' ? doc.execCommand('delete') : doc.execCommand('insertText', false, text);
    if (inserted && field.value === expected) {
      field.dispatchEvent(new Event('change', { bubbles: true }));
      return;
    }
  }
  setNativeValue(field, expected);
  fire(field, text);
}

function typeIntoEditable(el: HTMLElement, text: string, clear: boolean): void {
  el.focus({ preventScroll: true });
  const doc = el.ownerDocument;
  const selection = doc.getSelection();
  if (selection) {
    const range = doc.createRange();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    selection.removeAllRanges();
    selection.addRange(range);
  }
  const done = text === '' ? doc.execCommand('delete') : doc.execCommand('insertText', false, text);
  if (!done) {
    el.textContent = clear ? text : (el.textContent ?? '') + text;
    fire(el, text);
  }
}

/** Types into an input, a textarea or a contenteditable element, replacing its text when `clear` is set. */
export function typeText(el: Element, text: string, clear: boolean): void {
  if (isTextField(el)) {
    if (el.disabled || el.readOnly) throw new AppError('forbidden', 'the field is disabled or read-only');
    typeIntoField(el, text, clear);
    return;
  }
  if ((el as HTMLElement).isContentEditable) {
    typeIntoEditable(el as HTMLElement, text, clear);
    return;
  }
  throw new AppError('invalid_params', `cannot type into a <${el.tagName.toLowerCase()}>: choose a text field, text area or editable area`);
}

/**
 * Types as a person does, through trusted input: the field gets the focus from a click when it lacks it, the text
 * to replace is selected, and each character goes in as a key press (see the background's trusted-input.ts). Where
 * trusted input is not available it types the synthetic way above.
 */
export async function typeWithInput(el: Element, text: string, clear: boolean, driver: InputDriver, focusByClick: () => Promise<unknown>): Promise<void> {
  const field = isTextField(el) ? el : null;
  if (field && (field.disabled || field.readOnly)) throw new AppError('forbidden', 'the field is disabled or read-only');
  if (!field && !(el as HTMLElement).isContentEditable) {
    throw new AppError('invalid_params', `cannot type into a <${el.tagName.toLowerCase()}>: choose a text field, text area or editable area`);
  }
  if (!driver.trusted()) {
    typeText(el, text, clear);
    return;
  }
  const doc = el.ownerDocument;
  if (doc.activeElement !== el && !el.contains(doc.activeElement)) await focusByClick();
  if (doc.activeElement !== el && !el.contains(doc.activeElement)) (el as HTMLElement).focus({ preventScroll: true });
  const hadText = field ? field.value !== '' : (el.textContent ?? '') !== '';
  if (field) {
    if (clear) field.select();
    else {
      try {
        field.setSelectionRange(field.value.length, field.value.length);
      } catch {
        // Number and email fields have no selection API; End puts the caret after their text.
        await driver.press(field, parseChord('End'), 1);
      }
    }
  } else {
    const selection = doc.getSelection();
    const range = doc.createRange();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    selection?.removeAllRanges();
    selection?.addRange(range);
  }
  if (text === '') {
    if (clear && hadText) await driver.press(el, parseChord('Backspace'), 1);
    return;
  }
  if (!(await driver.typeText(text))) typeText(el, text, clear);
}

/** What a field holds now, for the evidence; passwords are masked. */
export function readBack(el: Element): string {
  if (el.tagName === 'SELECT') return Array.from((el as HTMLSelectElement).selectedOptions, (o) => o.label || o.text).join(', ');
  if (isTextField(el) || el.tagName === 'INPUT') {
    const field = el as HTMLInputElement;
    return field.type === 'password' ? '•'.repeat(Math.min(field.value.length, 8)) : field.value;
  }
  return (el.textContent ?? '').replace(/\s+/g, ' ').trim();
}
