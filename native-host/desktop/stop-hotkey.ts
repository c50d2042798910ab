import { AppError } from '../../shared/errors';
import { MODIFIERS, parseKeyChord, type KeyName } from './key-chord';

/** The default stop chord: four keys no application binds and no task types by accident. */
export const DEFAULT_STOP_HOTKEY = 'ctrl+alt+shift+s';

/** A key event as the global hook reports it: the key's hook code and which modifiers were down. */
export interface HookKeyEvent {
  keycode: number;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

/** The global keyboard hook (uiohook-napi); tests pass a fake that emits events. */
export interface KeyboardHook {
  onKeyDown(listener: (event: HookKeyEvent) => void): void;
  start(): void;
  stop(): void;
}

const HOOK_NAMES: Partial<Record<KeyName, string>> = {
  Escape: 'Escape', Enter: 'Enter', Return: 'Enter', Tab: 'Tab', Space: 'Space', Backspace: 'Backspace',
  Delete: 'Delete', Insert: 'Insert', Home: 'Home', End: 'End', PageUp: 'PageUp', PageDown: 'PageDown',
  Up: 'ArrowUp', Down: 'ArrowDown', Left: 'ArrowLeft', Right: 'ArrowRight', Pause: 'Pause',
};

function hookName(key: KeyName): string | undefined {
  if (/^([A-Z]|F\d{1,2})$/.test(key)) return key;
  const digit = /^Num(\d)$/.exec(key);
  if (digit) return digit[1];
  return HOOK_NAMES[key];
}

/**
 * Builds a matcher for a chord such as "ctrl+alt+shift+s" against the hook's key codes (`codes`: uiohook's UiohookKey
 * table). A chord needs exactly one key besides its modifiers, and that key must be one the hook reports.
 */
export function chordMatcher(chord: string, codes: Record<string, number>): (event: HookKeyEvent) => boolean {
  const keys = parseKeyChord(chord);
  const main = keys.filter((key) => !MODIFIERS.has(key));
  const [key] = main;
  const name = key === undefined ? undefined : hookName(key);
  const code = name === undefined ? undefined : codes[name];
  if (main.length !== 1 || code === undefined) {
    throw new AppError('bad_config', `The stop hotkey "${chord}" needs modifiers and one letter, digit, F-key or named key, e.g. ${DEFAULT_STOP_HOTKEY}.`);
  }
  const want = {
    ctrl: keys.includes('LeftControl') || keys.includes('RightControl'),
    alt: keys.includes('LeftAlt') || keys.includes('RightAlt'),
    shift: keys.includes('LeftShift') || keys.includes('RightShift'),
    meta: keys.includes('LeftSuper'),
  };
  return (event) =>
    event.keycode === code &&
    event.ctrlKey === want.ctrl &&
    event.altKey === want.alt &&
    event.shiftKey === want.shift &&
    event.metaKey === want.meta;
}

/** Loads uiohook-napi; only the desktop worker does, once a display is known to be there. */
export async function loadKeyboardHook(): Promise<{ hook: KeyboardHook; codes: Record<string, number> }> {
  const { uIOhook, UiohookKey } = await import('uiohook-napi');
  return {
    hook: {
      onKeyDown: (listener) => void uIOhook.on('keydown', listener),
      start: () => uIOhook.start(),
      stop: () => uIOhook.stop(),
    },
    codes: UiohookKey as unknown as Record<string, number>,
  };
}

/** Listens for the stop chord and calls `onStop` each time it is pressed. */
export function watchStopHotkey(hook: KeyboardHook, matches: (event: HookKeyEvent) => boolean, onStop: () => void): () => void {
  hook.onKeyDown((event) => {
    if (matches(event)) onStop();
  });
  hook.start();
  return () => hook.stop();
}
