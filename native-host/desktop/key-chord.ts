import { AppError } from '../../shared/errors';

/**
 * Key names as nut-js spells them (its `Key` enum). Chords are parsed into these names here, where they can be tested
 * without a display; the driver turns each name into the enum value.
 */
export const KEY_NAMES = [
  'Escape', 'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10', 'F11', 'F12', 'F13', 'F14', 'F15', 'F16',
  'F17', 'F18', 'F19', 'F20', 'F21', 'F22', 'F23', 'F24', 'Print', 'ScrollLock', 'Pause', 'Grave', 'Num1', 'Num2',
  'Num3', 'Num4', 'Num5', 'Num6', 'Num7', 'Num8', 'Num9', 'Num0', 'Minus', 'Equal', 'Backspace', 'Insert', 'Home',
  'PageUp', 'NumLock', 'Divide', 'Multiply', 'Subtract', 'Tab', 'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P',
  'LeftBracket', 'RightBracket', 'Backslash', 'Delete', 'End', 'PageDown', 'Add', 'CapsLock', 'A', 'S', 'D', 'F', 'G',
  'H', 'J', 'K', 'L', 'Semicolon', 'Quote', 'Return', 'LeftShift', 'Z', 'X', 'C', 'V', 'B', 'N', 'M', 'Comma',
  'Period', 'Slash', 'RightShift', 'Up', 'Enter', 'LeftControl', 'LeftSuper', 'LeftAlt', 'RightControl', 'RightAlt',
  'Space', 'Menu', 'Left', 'Down', 'Right',
] as const;
export type KeyName = (typeof KEY_NAMES)[number];

export const MODIFIERS: ReadonlySet<KeyName> = new Set(['LeftControl', 'LeftShift', 'LeftAlt', 'LeftSuper', 'RightControl', 'RightShift', 'RightAlt']);

/** The names people and models write, mapped to the canonical ones. */
const ALIASES: Record<string, KeyName> = {
  ctrl: 'LeftControl', control: 'LeftControl', shift: 'LeftShift', alt: 'LeftAlt', option: 'LeftAlt', opt: 'LeftAlt',
  super: 'LeftSuper', win: 'LeftSuper', windows: 'LeftSuper', meta: 'LeftSuper', cmd: 'LeftSuper', command: 'LeftSuper',
  esc: 'Escape', enter: 'Enter', return: 'Return', del: 'Delete', ins: 'Insert', bksp: 'Backspace', pgup: 'PageUp',
  pgdn: 'PageDown', arrowup: 'Up', arrowdown: 'Down', arrowleft: 'Left', arrowright: 'Right', printscreen: 'Print',
  prtsc: 'Print', '-': 'Minus', '=': 'Equal', ',': 'Comma', '.': 'Period', '/': 'Slash', '\\': 'Backslash',
  ';': 'Semicolon', "'": 'Quote', '`': 'Grave', '[': 'LeftBracket', ']': 'RightBracket', ' ': 'Space',
};

const BY_LOWER = new Map<string, KeyName>(KEY_NAMES.map((name) => [name.toLowerCase(), name]));

/** One key by any accepted spelling ("ctrl", "Enter", "a", "7", "F5"), or undefined. */
export function keyByName(raw: string): KeyName | undefined {
  const lower = raw.toLowerCase();
  const alias = ALIASES[lower];
  if (alias !== undefined) return alias;
  if (/^[0-9]$/.test(lower)) return `Num${lower}` as KeyName;
  return BY_LOWER.get(lower);
}

/**
 * Parses "ctrl+shift+t" or "Enter" into key names, modifiers first. The plus key is written "plus" and presses the key
 * that carries "+" on a US layout ("="), which is what zoom shortcuts such as ctrl+plus expect. The error names the key
 * it did not know, so the model can correct it.
 */
export function parseKeyChord(text: string): KeyName[] {
  const parts = text
    .trim()
    .split(/\s*\+\s*/)
    .map((part) => (part.toLowerCase() === 'plus' ? '=' : part));
  if (parts.length === 0 || parts.some((part) => part === '')) {
    throw new AppError('invalid_params', `"${text}" is not a key chord; write keys joined by "+", e.g. "ctrl+c" or "enter".`);
  }
  if (parts.length > 5) throw new AppError('invalid_params', `"${text}" has ${parts.length} keys; a chord has at most 5.`);
  const keys = parts.map((part) => {
    const key = keyByName(part);
    if (key === undefined) {
      throw new AppError(
        'invalid_params',
        `Unknown key "${part}" in "${text}". Use names such as ctrl, alt, shift, cmd, enter, tab, esc, space, backspace, delete, up, down, left, right, home, end, pageup, pagedown, f1-f24, a-z, 0-9.`,
      );
    }
    return key;
  });
  const modifiers = keys.filter((key) => MODIFIERS.has(key));
  const others = keys.filter((key) => !MODIFIERS.has(key));
  return [...new Set([...modifiers, ...others])];
}

/** Canonical form of a chord for display and comparison: "Ctrl+Alt+Shift+Q". */
export function formatKeyChord(keys: readonly KeyName[]): string {
  const label = (key: KeyName): string =>
    key
      .replace(/^(Left|Right)(Control)$/, 'Ctrl')
      .replace(/^(Left|Right)(Shift|Alt|Super)$/, '$2')
      .replace(/^Num(\d)$/, '$1');
  return keys.map(label).join('+');
}

/** True when the two chords press the same keys, whichever side's modifier and in whatever order. */
export function sameChord(a: readonly KeyName[], b: readonly KeyName[]): boolean {
  const norm = (keys: readonly KeyName[]): string => [...new Set(formatKeyChord(keys).split('+'))].sort().join('+');
  return norm(a) === norm(b);
}
