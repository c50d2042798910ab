import { describe, expect, it } from 'vitest';
import { chordMatcher, watchStopHotkey, type HookKeyEvent, type KeyboardHook } from '../../../../native-host/desktop/stop-hotkey';

// The subset of uiohook-napi's UiohookKey table these tests use.
const codes = { S: 31, Q: 16, Escape: 1, F12: 88, '1': 2 };
const key = (keycode: number, mods: Partial<HookKeyEvent> = {}): HookKeyEvent => ({ keycode, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...mods });

describe('chordMatcher', () => {
  it('matches the main key with exactly the chord modifiers', () => {
    const matches = chordMatcher('ctrl+alt+shift+s', codes);
    expect(matches(key(31, { ctrlKey: true, altKey: true, shiftKey: true }))).toBe(true);
    expect(matches(key(31, { ctrlKey: true, altKey: true }))).toBe(false);
    expect(matches(key(31))).toBe(false);
    expect(matches(key(16, { ctrlKey: true, altKey: true, shiftKey: true }))).toBe(false);
  });

  it('accepts F-keys, digits and named keys', () => {
    expect(chordMatcher('ctrl+f12', codes)(key(88, { ctrlKey: true }))).toBe(true);
    expect(chordMatcher('ctrl+1', codes)(key(2, { ctrlKey: true }))).toBe(true);
    expect(chordMatcher('shift+esc', codes)(key(1, { shiftKey: true }))).toBe(true);
  });

  it('refuses a chord with no main key or two of them', () => {
    expect(() => chordMatcher('ctrl+alt', codes)).toThrow(/needs modifiers and one/);
    expect(() => chordMatcher('ctrl+q+s', codes)).toThrow(/needs modifiers and one/);
  });
});

describe('watchStopHotkey', () => {
  it('calls onStop for the chord only, and stops the hook when released', () => {
    let listener: ((event: HookKeyEvent) => void) | undefined;
    let running = false;
    const hook: KeyboardHook = { onKeyDown: (l) => (listener = l), start: () => (running = true), stop: () => (running = false) };
    let stops = 0;
    const release = watchStopHotkey(hook, chordMatcher('ctrl+alt+shift+s', codes), () => (stops += 1));
    expect(running).toBe(true);
    listener?.(key(31));
    listener?.(key(31, { ctrlKey: true, altKey: true, shiftKey: true }));
    expect(stops).toBe(1);
    release();
    expect(running).toBe(false);
  });
});
