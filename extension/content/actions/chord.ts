import { AppError } from '../../../shared/errors';

export const KEY_CODES: Record<string, number> = {
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

