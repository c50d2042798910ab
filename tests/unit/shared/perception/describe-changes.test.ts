import { describe, expect, it } from 'vitest';
import { describeChanges } from '../../../../shared/perception/describe-changes';

const state = { url: 'https://a.test/', title: 'Home', dialogs: [], focused: undefined };

describe('describeChanges', () => {
  it('says nothing on the first snapshot or when nothing changed', () => {
    expect(describeChanges(undefined, state)).toBeNull();
    expect(describeChanges(state, { ...state })).toBeNull();
  });

  it('reports URL, title, dialogs and focus in one line', () => {
    const line = describeChanges({ ...state, dialogs: ['Cookies'] }, { url: 'https://a.test/cart', title: 'Cart', dialogs: ['Sign in'], focused: 12 });
    expect(line).toBe('Changed: URL → https://a.test/cart; title → "Cart"; dialog "Sign in" opened; dialog "Cookies" closed; focus → [12]');
  });
});
