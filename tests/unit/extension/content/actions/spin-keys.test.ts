import { describe, expect, it } from 'vitest';
import { keyAriaValue } from '../../../../../extension/content/actions/set-value';
import type { InputDriver } from '../../../../../extension/content/actions/input-types';

/** A text field that is a spin button and refuses typing, as jQuery UI's spinner does: only its arrow keys move it. */
function spinner(start: number, step = 1, limits: { min?: number; max?: number } = {}) {
  const attrs: Record<string, string> = { role: 'spinbutton' };
  const field = {
    tagName: 'INPUT',
    value: String(start),
    focus: () => undefined,
    getAttribute: (name: string) => attrs[name] ?? null,
  };
  const keys: string[] = [];
  const driver = {
    press: (_el: Element, chord: { key: string }) => {
      keys.push(chord.key);
      const now = Number(field.value);
      const next = chord.key === 'ArrowUp' ? now + step : chord.key === 'ArrowDown' ? now - step : now;
      field.value = String(Math.min(limits.max ?? Infinity, Math.max(limits.min ?? -Infinity, next)));
      return Promise.resolve();
    },
  } as unknown as InputDriver;
  return { field, keys, driver };
}

describe('keyAriaValue on a spin button', () => {
  for (const [start, wanted] of [[0, -4], [0, 7], [3, 3], [-10, 10], [5, -1]] as const) {
    it(`steps from ${start} to ${wanted} with Up and Down, reading the field's value`, async () => {
      const { field, keys, driver } = spinner(start);
      await keyAriaValue(field as unknown as HTMLElement, wanted, driver);
      expect(field.value).toBe(String(wanted));
      expect(keys.length).toBe(Math.abs(wanted - start));
      expect(new Set(keys)).toEqual(new Set(wanted === start ? [] : [wanted > start ? 'ArrowUp' : 'ArrowDown']));
    });
  }

  it('stops when the spinner no longer moves, leaving the read-back to report it', async () => {
    const { field, keys, driver } = spinner(0, 1, { max: 5 });
    await keyAriaValue(field as unknown as HTMLElement, 9, driver);
    expect(field.value).toBe('5');
    expect(keys.length).toBeLessThan(12);
  });
});
