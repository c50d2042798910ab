/** One key as the DevTools protocol describes it: what `KeyboardEvent.key`, `code` and `keyCode` say, and its text. */
export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  /** The character it types (none for keys that type nothing: arrows, Tab, Escape). */
  text?: string;
  /** 1 for the left modifier keys, so `event.location` reads as it does under a real keyboard. */
  location?: number;
}

/** DevTools modifier bits. */
export const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 } as const;
export type Modifier = keyof typeof MODIFIER_BITS;

const NAMED: Record<string, Omit<KeyDefinition, 'key'>> = {
  Enter: { code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { code: 'Tab', keyCode: 9 },
  Escape: { code: 'Escape', keyCode: 27 },
  Backspace: { code: 'Backspace', keyCode: 8 },
  Delete: { code: 'Delete', keyCode: 46 },
  Insert: { code: 'Insert', keyCode: 45 },
  ArrowLeft: { code: 'ArrowLeft', keyCode: 37 },
  ArrowUp: { code: 'ArrowUp', keyCode: 38 },
  ArrowRight: { code: 'ArrowRight', keyCode: 39 },
  ArrowDown: { code: 'ArrowDown', keyCode: 40 },
  Home: { code: 'Home', keyCode: 36 },
  End: { code: 'End', keyCode: 35 },
  PageUp: { code: 'PageUp', keyCode: 33 },
  PageDown: { code: 'PageDown', keyCode: 34 },
  Shift: { code: 'ShiftLeft', keyCode: 16, location: 1 },
  Control: { code: 'ControlLeft', keyCode: 17, location: 1 },
  Alt: { code: 'AltLeft', keyCode: 18, location: 1 },
  Meta: { code: 'MetaLeft', keyCode: 91, location: 1 },
  ' ': { code: 'Space', keyCode: 32, text: ' ' },
};
for (let n = 1; n <= 12; n += 1) NAMED[`F${n}`] = { code: `F${n}`, keyCode: 111 + n };

/** The US layout's punctuation: the unshifted and shifted character of each key, its code and keyCode. */
const PUNCTUATION: [plain: string, shifted: string, code: string, keyCode: number][] = [
  ['`', '~', 'Backquote', 192],
  ['-', '_', 'Minus', 189],
  ['=', '+', 'Equal', 187],
  ['[', '{', 'BracketLeft', 219],
  [']', '}', 'BracketRight', 221],
  ['\\', '|', 'Backslash', 220],
  [';', ':', 'Semicolon', 186],
  ["'", '"', 'Quote', 222],
  [',', '<', 'Comma', 188],
  ['.', '>', 'Period', 190],
  ['/', '?', 'Slash', 191],
];
const DIGIT_SHIFTED = ')!@#$%^&*(';

/**
 * The key that types a character on a US keyboard, and whether Shift is held for it; undefined for characters no key
 * types (accents, other scripts, emoji), which go in as text the way an input method commits them.
 */
export function keyForCharacter(char: string): { key: KeyDefinition; shift: boolean } | undefined {
  if (char === '\n' || char === '\r') return { key: { key: 'Enter', ...NAMED.Enter } as KeyDefinition, shift: false };
  if (char === ' ') return { key: { key: ' ', code: 'Space', keyCode: 32, text: ' ' }, shift: false };
  if (/^[a-z]$/.test(char)) return { key: { key: char, code: `Key${char.toUpperCase()}`, keyCode: char.toUpperCase().charCodeAt(0), text: char }, shift: false };
  if (/^[A-Z]$/.test(char)) return { key: { key: char, code: `Key${char}`, keyCode: char.charCodeAt(0), text: char }, shift: true };
  if (/^[0-9]$/.test(char)) return { key: { key: char, code: `Digit${char}`, keyCode: char.charCodeAt(0), text: char }, shift: false };
  const digit = DIGIT_SHIFTED.indexOf(char);
  if (digit >= 0) return { key: { key: char, code: `Digit${digit}`, keyCode: 48 + digit, text: char }, shift: true };
  for (const [plain, shifted, code, keyCode] of PUNCTUATION) {
    if (char === plain) return { key: { key: char, code, keyCode, text: char }, shift: false };
    if (char === shifted) return { key: { key: char, code, keyCode, text: char }, shift: true };
  }
  return undefined;
}

/** A named key ("Enter", "ArrowDown", "F5") or one character; undefined for a name no keyboard has. */
export function keyDefinition(name: string): KeyDefinition | undefined {
  const named = NAMED[name];
  if (named) return { key: name, ...named };
  if ([...name].length === 1) {
    const typed = keyForCharacter(name);
    // A character no US key types still goes in as a key press that carries the character.
    return typed ? typed.key : { key: name, code: '', keyCode: 0, text: name };
  }
  return undefined;
}
