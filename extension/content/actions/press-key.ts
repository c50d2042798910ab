import { type Chord, KEY_CODES } from './chord';
import { isTextField } from './type-text';

export { type Chord, parseChord } from './chord';

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
