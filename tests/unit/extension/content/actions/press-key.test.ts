import { describe, expect, it } from 'vitest';
import { parseChord } from '../../../../../extension/content/actions/press-key';

describe('parseChord', () => {
  it('reads keys and modifier chords', () => {
    expect(parseChord('Enter')).toEqual({ key: 'Enter', ctrl: false, shift: false, alt: false, meta: false });
    expect(parseChord('Control+Shift+k')).toEqual({ key: 'k', ctrl: true, shift: true, alt: false, meta: false });
    expect(parseChord('esc').key).toBe('Escape');
    expect(parseChord('space').key).toBe(' ');
    expect(parseChord('Ctrl++').key).toBe('+');
    expect(parseChord('arrowdown').key).toBe('ArrowDown');
  });

  it('names what is wrong with a bad chord and what to write instead', () => {
    expect(() => parseChord('Hyper+K')).toThrow('unknown modifier "Hyper" in "Hyper+K": use Control, Shift, Alt or Meta');
    expect(() => parseChord('Control+')).not.toThrow();
  });
});
