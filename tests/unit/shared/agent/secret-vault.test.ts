import { describe, expect, it } from 'vitest';
import { countersAfter, createSecretVault, foundNamesIn, refuseUnknownFound } from '../../../../shared/agent/secret-vault';

describe('found values across a restart', () => {
  it('lists the found placeholders a text mentions, not the user\'s own names', () => {
    expect(foundNamesIn('Card {{redacted_card_1}}, again {{ redacted_card_1 }}, key {{redacted_api_key_12}}, mine {{card_number}}')).toEqual([
      'redacted_card_1',
      'redacted_api_key_12',
    ]);
  });

  it('numbers a value seen after the restart past every name used before, so an old name never means a new value', () => {
    const vault = createSecretVault({ entries: {}, counters: countersAfter(['redacted_card_1', 'redacted_card_3', 'redacted_api_key_2']) });
    expect(vault.remember('card', '4111111111111111')).toBe('redacted_card_4');
    expect(vault.remember('api_key', 'sk-1')).toBe('redacted_api_key_3');
    expect(vault.remember('ssn', '123-45-6789')).toBe('redacted_ssn_1');
  });

  it('refuses to type a found placeholder it does not hold, and says why', () => {
    const vault = refuseUnknownFound(createSecretVault({ entries: { card_number: '4111', redacted_card_2: '5500' } }), (name) => `${name} was forgotten`);
    expect(vault.resolve('{{card_number}} and {{redacted_card_2}}')).toBe('4111 and 5500');
    expect(() => vault.resolve('pay with {{redacted_card_1}}')).toThrow('redacted_card_1 was forgotten');
    // What the model writes that is not a placeholder of a found value is typed as written.
    expect(vault.resolve('{{nickname}}')).toBe('{{nickname}}');
  });
});
