import { AppError } from '../../../shared/errors';
import { isValueKind, normalizeValue, sameValue, type ValueKind } from '../../../shared/perception/value-formats';
import type { InputDriver } from './input-types';
import { parseChord } from './chord';

/** Input types whose value is set, not typed: the browser's own editors for them take no text from script. */
const BY_VALUE = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

/** An input whose value is written by value (a date, a time, a colour, a slider), not typed key by key. */
export function takesValue(el: Element): el is HTMLInputElement {
  return el.tagName === 'INPUT' && BY_VALUE.has((el as HTMLInputElement).type);
}

/** Sets a field's value through the prototype's setter, so frameworks that track it (React, Vue) see an edit. */
export function setNativeValue(field: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = field.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'value');
  if (descriptor?.set) descriptor.set.call(field, value);
  else field.value = value;
}

function fireEdit(el: Element): void {
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

/** The page's language, which decides how an ambiguous date such as 03/04/2025 is read. */
function localeOf(el: Element): string {
  const lang = el.closest('[lang]')?.getAttribute('lang') || el.ownerDocument.documentElement.lang;
  return lang || navigator.language || 'en-US';
}

/** A colour name the browser knows ("teal", "rebeccapurple"), as #rrggbb; null for anything else. */
function namedColor(doc: Document, text: string): string | null {
  if (!/^[a-z]+$/i.test(text.trim())) return null;
  const probe = doc.createElement('canvas').getContext('2d');
  if (!probe) return null;
  probe.fillStyle = '#000001';
  probe.fillStyle = text.trim();
  return probe.fillStyle === '#000001' ? null : probe.fillStyle;
}

/** Why the field does not accept the value it holds (outside its range, off its step), or null. */
function rangeProblem(input: HTMLInputElement): string | null {
  const v = input.validity;
  if (v.rangeUnderflow) return `it is below the field's minimum ${input.min}`;
  if (v.rangeOverflow) return `it is above the field's maximum ${input.max}`;
  if (v.stepMismatch) return `the field takes only steps of ${input.step || '1'}`;
  if (v.badInput) return 'the field rejects it';
  return null;
}

/** Why a native slider cannot hold a number: it sanitizes values outside its range or off its steps to the nearest. */
function sliderLimit(input: HTMLInputElement, wanted: number): string {
  const min = input.min === '' ? 0 : Number(input.min);
  const max = input.max === '' ? 100 : Number(input.max);
  if (wanted < min) return `the slider's minimum is ${min}`;
  if (wanted > max) return `the slider's maximum is ${max}`;
  return `the slider moves in steps of ${input.step || '1'} from ${min}`;
}

export interface SetOutcome {
  message: string;
  evidence: string[];
  /** Whether key presses were sent (so the step names its input path). */
  keyed: boolean;
}

/** Moves a native slider with arrow keys, as a keyboard user would: every step fires the page's own events. */
async function keyToValue(input: HTMLInputElement, wanted: number, driver: InputDriver): Promise<void> {
  const step = input.step === 'any' || !input.step ? 1 : Number(input.step);
  const current = Number(input.value);
  const presses = Math.round((wanted - current) / step);
  if (presses === 0) return;
  input.focus({ preventScroll: true });
  await driver.press(input, parseChord(presses > 0 ? 'ArrowRight' : 'ArrowLeft'), Math.min(Math.abs(presses), 100));
}

/**
 * Nudges an ARIA slider or spin button with keys until it reads the wanted number: a spin button with Up and Down (a
 * text field that is one, such as jQuery UI's spinner, reads its value), a slider with Right and Left.
 */
export async function keyAriaValue(el: HTMLElement, wanted: number, driver: InputDriver): Promise<void> {
  const field = el.tagName === 'INPUT';
  const now = (): number => Number(field ? (el as HTMLInputElement).value : el.getAttribute('aria-valuenow'));
  const spin = el.getAttribute('role') === 'spinbutton';
  el.focus({ preventScroll: true });
  let stuck = 0;
  for (let n = 0; n < 300 && now() !== wanted && stuck < 3; n += 1) {
    const before = now();
    const up = wanted > before;
    if (String(wanted) === el.getAttribute(up ? 'aria-valuemax' : 'aria-valuemin')) await driver.press(el, parseChord(up ? 'End' : 'Home'), 1);
    else if (spin) await driver.press(el, parseChord(up ? 'ArrowUp' : 'ArrowDown'), 1);
    else await driver.press(el, parseChord(up ? 'ArrowRight' : 'ArrowLeft'), 1);
    stuck = now() === before ? stuck + 1 : 0;
    // Overshooting means the widget moves in larger steps than it can be set to.
    if ((up && now() > wanted) || (!up && now() < wanted)) break;
  }
}

/**
 * Sets a slider, a date, time, datetime, month, week, colour or number field to a value, then reads it back: a value
 * the field did not take is a failure that says what it holds and why, never a success. The value is written in the
 * form people use ("10/16/2012", "10:15 PM") and converted to the field's own (see value-formats.ts).
 */
export async function setValue(el: Element, text: string, driver: InputDriver): Promise<SetOutcome> {
  const role = el.getAttribute('role');
  if (el.tagName !== 'INPUT') {
    if ((role === 'slider' || role === 'spinbutton') && el.hasAttribute('aria-valuenow')) {
      const wanted = normalizeValue('number', text);
      if (!wanted.ok) throw new AppError('invalid_params', wanted.reason);
      await keyAriaValue(el as HTMLElement, Number(wanted.value), driver);
      const now = el.getAttribute('aria-valuenow') ?? '';
      const shown = el.getAttribute('aria-valuetext');
      if (Number(now) !== Number(wanted.value)) {
        throw new AppError('invalid_params', `[@] is at ${now}${shown ? ` ("${shown}")` : ''}, not ${wanted.value}: its keys move it no closer`);
      }
      return { message: `set [@] to ${now}`, evidence: [`value is now ${now}${shown ? ` ("${shown}")` : ''}`], keyed: true };
    }
    throw new AppError('invalid_params', '[@] has no value to set: set_value takes sliders and date, time, colour and number fields (use type for text, select for lists)');
  }
  const input = el as HTMLInputElement;
  const kind = input.type as ValueKind;
  if (!isValueKind(kind)) throw new AppError('invalid_params', `[@] is a ${input.type} field: use type for text fields`);
  if (input.disabled || input.readOnly) throw new AppError('forbidden', '[@] is disabled or read-only');
  const colour = kind === 'color' ? namedColor(input.ownerDocument, text) : null;
  const wanted = colour ? { ok: true as const, value: colour } : normalizeValue(kind, text, { locale: localeOf(input) });
  if (!wanted.ok) throw new AppError('invalid_params', wanted.reason);
  // Tried on a detached copy first, so a value the field would refuse (out of range, off its steps) is refused without
  // touching the page: the field keeps what it had.
  const probe = input.cloneNode(false) as HTMLInputElement;
  probe.value = wanted.value;
  if (!sameValue(kind, probe.value, wanted.value)) {
    const why = kind === 'range' ? sliderLimit(input, Number(wanted.value)) : 'the field does not take it';
    throw new AppError('invalid_params', `[@] cannot hold ${JSON.stringify(wanted.value)}: ${why}; it still holds ${JSON.stringify(input.value)}`);
  }
  const refused = rangeProblem(probe);
  if (refused) throw new AppError('invalid_params', `[@] cannot hold ${JSON.stringify(wanted.value)}: ${refused}; it still holds ${JSON.stringify(input.value)}`);
  let keyed = false;
  if (kind === 'range' && driver.trusted()) {
    await keyToValue(input, Number(wanted.value), driver);
    keyed = true;
  }
  if (!sameValue(kind, input.value, wanted.value)) {
    input.focus({ preventScroll: true });
    setNativeValue(input, wanted.value);
    fireEdit(input);
  }
  const stored = input.value;
  const note = 'note' in wanted && wanted.note ? [wanted.note] : [];
  // The page's own code may change what was set (a mask, a limit of its own): what the field holds is the answer.
  if (!sameValue(kind, stored, wanted.value)) throw new AppError('invalid_params', `[@] holds ${JSON.stringify(stored)}, not ${JSON.stringify(wanted.value)}: the page changed it`);
  return { message: `set [@] to ${JSON.stringify(stored)}`, evidence: [`value is now ${JSON.stringify(stored)}`, ...note], keyed };
}
