import { AppError } from '../../../shared/errors';
import { isTextField } from './type-text';

const KEY_CODES: Record<string, number> = {
  Enter: 13,
  Escape: 27,
  Tab: 9,
  Backspace: 8,
  Delete: 46,
  ' ': 32,
  ArrowLeft: 37,
  ArrowUp: 38,
  ArrowRight: 39,
  ArrowDown: 40,
  Home: 36,
  End: 35,
  PageUp: 33,
  PageDown: 34,
};

const ALIASES: Record<string, string> = {
  esc: 'Escape',
  return: 'Enter',
  space: ' ',
  spacebar: ' ',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  del: 'Delete',
};

export interface Chord {
  key: string;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  meta: boolean;
}

/** Reads "Control+Shift+K", "Enter" or "a" into a key and modifiers; unknown modifiers are an error. */
export function parseChord(text: string): Chord {
  // A trailing "+" is the plus key itself: "Control++", "Control+" and "+" all press +.
  const plus = text.endsWith('+');
  const head = plus ? text.slice(0, text.endsWith('++') ? -2 : -1) : text;
  const parts = head === '' ? [] : head.split('+').map((part) => part.trim());
  let key = plus ? '+' : (parts.pop() ?? '');
  key = ALIASES[key.toLowerCase()] ?? key;
  if (key.length > 1) key = Object.keys(KEY_CODES).find((known) => known.toLowerCase() === key.toLowerCase()) ?? key[0]?.toUpperCase() + key.slice(1);
  const chord: Chord = { key, ctrl: false, shift: false, alt: false, meta: false };
  for (const part of parts) {
    const name = part.toLowerCase();
    if (name === 'control' || name === 'ctrl') chord.ctrl = true;
    else if (name === 'shift') chord.shift = true;
    else if (name === 'alt' || name === 'option') chord.alt = true;
    else if (name === 'meta' || name === 'cmd' || name === 'command') chord.meta = true;
    else throw new AppError('invalid_params', `unknown modifier "${part}" in "${text}": use Control, Shift, Alt or Meta, e.g. Control+A`);
  }
  if (!key) throw new AppError('invalid_params', `no key in "${text}": name one, e.g. Enter, Escape, Tab, ArrowDown or a`);
  return chord;
}

function keyCode(key: string): number {
  if (key in KEY_CODES) return KEY_CODES[key] ?? 0;
  return key.length === 1 ? key.toUpperCase().charCodeAt(0) : 0;
}

function tabbables(doc: Document): HTMLElement[] {
  return Array.from(
    doc.querySelectorAll<HTMLElement>('a[href], button, input:not([type=hidden]), select, textarea, [tabindex], [contenteditable]'),
  ).filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0);
}

/**
 * Presses a key on the element: keydown, keypress for printable keys, keyup; then what the browser would do for a
 * real key press that scripts did not cancel (synthetic key events do nothing by themselves): Enter submits a field's
 * form or activates a button or link, Space toggles, Tab moves focus, printable keys and Backspace edit text fields.
 */
export function pressKey(target: Element, chord: Chord): void {
  const code = keyCode(chord.key);
  const init: KeyboardEventInit & { keyCode: number; which: number } = {
    key: chord.key,
    code: chord.key.length === 1 ? (/[a-z]/i.test(chord.key) ? `Key${chord.key.toUpperCase()}` : '') : chord.key,
    keyCode: code,
    which: code,
    ctrlKey: chord.ctrl,
    shiftKey: chord.shift,
    altKey: chord.alt,
    metaKey: chord.meta,
    bubbles: true,
    cancelable: true,
    composed: true,
  };
  const proceed = target.dispatchEvent(new KeyboardEvent('keydown', init));
  const printable = chord.key.length === 1 && !chord.ctrl && !chord.meta;
  if (proceed && (printable || chord.key === 'Enter')) {
    target.dispatchEvent(new KeyboardEvent('keypress', { ...init, charCode: chord.key === 'Enter' ? 13 : chord.key.charCodeAt(0) }));
  }
  if (proceed) defaultAction(target, chord, printable);
  target.dispatchEvent(new KeyboardEvent('keyup', init));
}

function defaultAction(target: Element, chord: Chord, printable: boolean): void {
  const doc = target.ownerDocument;
  const editable = isTextField(target) || (target as HTMLElement).isContentEditable;
  if (chord.key === 'Enter' && !chord.ctrl && !chord.alt && !chord.meta) {
    if (target.tagName === 'INPUT') (target as HTMLInputElement).form?.requestSubmit();
    else if (target.tagName === 'TEXTAREA' || (target as HTMLElement).isContentEditable) doc.execCommand('insertParagraph');
    else if (target.matches('a[href], button, summary, [role=button], [role=link]')) (target as HTMLElement).click();
    return;
  }
  if (chord.key === ' ' && !editable && target.matches('button, input[type=checkbox], input[type=radio], summary, [role=button], [role=checkbox]')) {
    (target as HTMLElement).click();
    return;
  }
  if (chord.key === 'Tab') {
    const list = tabbables(doc);
    const index = list.indexOf(target as HTMLElement);
    const next = list[(index + (chord.shift ? -1 : 1) + list.length) % list.length];
    next?.focus();
    return;
  }
  if (editable && printable) {
    doc.execCommand('insertText', false, chord.key);
    return;
  }
  if (editable && (chord.key === 'Backspace' || chord.key === 'Delete')) {
    doc.execCommand(chord.key === 'Backspace' ? 'delete' : 'forwardDelete');
    return;
  }
  if (editable && chord.key.toLowerCase() === 'a' && (chord.ctrl || chord.meta)) {
    doc.execCommand('selectAll');
    return;
  }
  if (chord.key === 'Escape') {
    const dialog = target.closest('dialog[open]');
    if (dialog && dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) (dialog as HTMLDialogElement).close();
    return;
  }
  const win = doc.defaultView;
  if (!editable && win) {
    const page = win.innerHeight * 0.9;
    const by: Record<string, number> = { PageDown: page, PageUp: -page, ArrowDown: 40, ArrowUp: -40, End: 1e9, Home: -1e9, ' ': chord.shift ? -page : page };
    const dy = by[chord.key];
    if (dy !== undefined) win.scrollBy({ top: dy, behavior: 'instant' });
  }
}
