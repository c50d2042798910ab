import { describe, expect, it } from 'vitest';
import { formatKeyChord, parseKeyChord, sameChord } from '../../../../native-host/desktop/key-chord';

describe('parseKeyChord', () => {
  it('reads the spellings people and models use, modifiers first', () => {
    expect(parseKeyChord('ctrl+shift+t')).toEqual(['LeftControl', 'LeftShift', 'T']);
    expect(parseKeyChord('T + Ctrl')).toEqual(['LeftControl', 'T']);
    expect(parseKeyChord('Enter')).toEqual(['Enter']);
    expect(parseKeyChord('cmd+a')).toEqual(['LeftSuper', 'A']);
    expect(parseKeyChord('alt+f4')).toEqual(['LeftAlt', 'F4']);
    expect(parseKeyChord('ctrl+1')).toEqual(['LeftControl', 'Num1']);
    expect(parseKeyChord('esc')).toEqual(['Escape']);
    expect(parseKeyChord('ctrl+plus')).toEqual(['LeftControl', 'Equal']);
  });

  it('names the unknown key and lists what is accepted', () => {
    expect(() => parseKeyChord('ctrl+banana')).toThrow(/Unknown key "banana" in "ctrl\+banana".*ctrl, alt, shift/);
    expect(() => parseKeyChord('ctrl++')).toThrow(/not a key chord/);
    expect(() => parseKeyChord('a+b+c+d+e+f')).toThrow(/at most 5/);
  });
});

describe('formatKeyChord and sameChord', () => {
  it('prints the chord the way a user reads it', () => {
    expect(formatKeyChord(parseKeyChord('ctrl+alt+shift+s'))).toBe('Ctrl+Alt+Shift+S');
  });

  it('treats order and spelling as the same chord', () => {
    expect(sameChord(parseKeyChord('shift+control+alt+S'), parseKeyChord('ctrl+alt+shift+s'))).toBe(true);
    expect(sameChord(parseKeyChord('ctrl+alt+s'), parseKeyChord('ctrl+alt+shift+s'))).toBe(false);
  });
});
