/**
 * Typing and clicking the way a widget accepts them. Frameworks (React, Vue, Preact) track an input's value
 * themselves, so the value is set through the prototype's own setter and announced with input events; editors built
 * on contenteditable listen to beforeinput/input, which `insertText` produces natively.
 */
export function setFieldValue(field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  field.focus();
  // The prototype's setter, with the field as receiver, bypasses a value property a framework defined on the field.
  const prototype = Object.getPrototypeOf(field) as object;
  if (!Reflect.set(prototype, 'value', value, field)) field.value = value;
  field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: value }));
  field.dispatchEvent(new Event('change', { bubbles: true }));
}

export function typeIntoEditable(editable: HTMLElement, text: string): void {
  editable.focus();
  const doc = editable.ownerDocument;
  const selection = doc.getSelection();
  if (selection) {
    const range = doc.createRange();
    range.selectNodeContents(editable);
    selection.removeAllRanges();
    selection.addRange(range);
  }
  // execCommand is deprecated but still the one way to produce trusted-looking beforeinput/input with the text the
  // editor expects; it returns false where the editor refuses it, and then the events are sent by hand.
  const inserted = doc.execCommand('insertText', false, text);
  if (inserted && normalize(editable.innerText) === normalize(text)) return;
  const before = new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType: 'insertText', data: text });
  if (editable.dispatchEvent(before)) editable.textContent = text;
  editable.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
}

export function typeInto(composer: Element, text: string): void {
  if (composer instanceof HTMLTextAreaElement || composer instanceof HTMLInputElement) {
    setFieldValue(composer, text);
    return;
  }
  if (composer instanceof HTMLElement) {
    typeIntoEditable(composer, text);
    return;
  }
  throw new TypeError('The composer is not an element that takes text');
}

/** Presses Enter in the composer, as keydown, keypress and keyup (widgets listen to one or another). */
export function pressEnter(target: Element): void {
  const init: KeyboardEventInit = { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true, composed: true };
  for (const type of ['keydown', 'keypress', 'keyup']) target.dispatchEvent(new KeyboardEvent(type, init));
}

/** A full pointer sequence then click: some widgets act on pointerdown or mousedown rather than click. */
export function clickLikeAUser(target: Element): void {
  const init = { bubbles: true, cancelable: true, composed: true, button: 0 };
  if (target instanceof HTMLElement) target.focus();
  target.dispatchEvent(new PointerEvent('pointerdown', init));
  target.dispatchEvent(new MouseEvent('mousedown', init));
  target.dispatchEvent(new PointerEvent('pointerup', init));
  target.dispatchEvent(new MouseEvent('mouseup', init));
  if (target instanceof HTMLElement) target.click();
  else target.dispatchEvent(new MouseEvent('click', init));
}

export function composerText(composer: Element): string {
  if (composer instanceof HTMLTextAreaElement || composer instanceof HTMLInputElement) return composer.value;
  return composer instanceof HTMLElement ? composer.innerText : (composer.textContent ?? '');
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
