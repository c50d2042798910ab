import { describe, expect, it } from 'vitest';
import { createRedactor, passesLuhn } from '../../../../shared/agent/redactor';
import { createSecretVault } from '../../../../shared/agent/secret-vault';

describe('passesLuhn', () => {
  it('accepts real test card numbers and rejects a changed digit', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('5555555555554444')).toBe(true);
    expect(passesLuhn('378282246310005')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
  });
});

describe('createRedactor', () => {
  it('replaces card numbers that pass Luhn, in any grouping, and leaves other long numbers alone', () => {
    const r = createRedactor(createSecretVault());
    expect(r.redact('Card 4111 1111 1111 1111, Amex 3782-822463-10005.')).toBe('Card {{redacted_card_1}}, Amex {{redacted_card_2}}.');
    expect(r.redact('Order 4111111111111112 and tracking 1234567890123')).toBe('Order 4111111111111112 and tracking 1234567890123');
    // A command's list of small numbers whose digits happen to pass Luhn.
    const counted = '66 67 68 69 70 71 72 73 74 75 76 77 78';
    expect(r.redact(counted)).toBe(counted);
    // A terminal's password prompt, and the next line of output.
    expect(r.redact('Password: \nstored 13 characters')).toBe('Password: \nstored 13 characters');
    expect(r.redact('password: hunter2!x')).toBe('password: {{redacted_password_1}}');
  });

  it('gives the same value the same placeholder, so the model can refer to it consistently', () => {
    const vault = createSecretVault();
    const r = createRedactor(vault);
    expect(r.redact('4111111111111111')).toBe('{{redacted_card_1}}');
    expect(r.redact('again 4111111111111111')).toBe('again {{redacted_card_1}}');
    expect(vault.resolve('pay with {{redacted_card_1}}')).toBe('pay with 4111111111111111');
  });

  it('replaces the user’s own vault values first, wherever they appear, under their names', () => {
    const vault = createSecretVault({ entries: { card_number: '4111 1111 1111 1111', password: 'hunter2!x' } });
    const r = createRedactor(vault);
    expect(r.redact('saved card 4111 1111 1111 1111; password hunter2!x')).toBe('saved card {{card_number}}; password {{password}}');
  });

  it('catches SSNs, JWTs, bearer tokens, API keys and password assignments', () => {
    const r = createRedactor(createSecretVault());
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature_value';
    expect(r.redact('SSN 078-05-1120')).toBe('SSN {{redacted_ssn_1}}');
    expect(r.redact('invalid SSN 000-12-3456 stays')).toBe('invalid SSN 000-12-3456 stays');
    expect(r.redact(`token ${jwt}`)).toBe('token {{redacted_token_1}}');
    expect(r.redact('Authorization: Bearer abcdefghijklmnop123')).toBe('Authorization: Bearer {{redacted_token_2}}');
    expect(r.redact('keys sk-ant-api03-abcdefghijklmnopqrstu AKIAIOSFODNN7EXAMPLE ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe(
      'keys {{redacted_key_1}} {{redacted_key_2}} {{redacted_key_3}}',
    );
    expect(r.redact('password: "s3cr3t-pw" and pin=4321')).toBe('password: "{{redacted_password_1}}" and pin={{redacted_password_2}}');
  });

  it('redacts emails and phone numbers only when configured', () => {
    const text = 'Mail ada@example.org or call +44 20 7946 0958.';
    expect(createRedactor(createSecretVault()).redact(text)).toBe(text);
    expect(createRedactor(createSecretVault(), { emails: true, phones: true }).redact(text)).toBe('Mail {{redacted_email_1}} or call {{redacted_phone_1}}.');
  });

  it('redacts every string in nested records, leaving other values as they are', () => {
    const r = createRedactor(createSecretVault());
    expect(r.redactDeep({ a: ['4111111111111111', 3, null], b: { c: 'SSN 078-05-1120', ok: true } })).toEqual({
      a: ['{{redacted_card_1}}', 3, null],
      b: { c: 'SSN {{redacted_ssn_1}}', ok: true },
    });
  });
});

describe('createSecretVault', () => {
  it('resolves only known placeholders and lists the ones a text uses', () => {
    const vault = createSecretVault({ entries: { card_number: '4111111111111111', email: 'ada@example.org' } });
    expect(vault.resolve('{{card_number}} {{ email }} {{unknown}}')).toBe('4111111111111111 ada@example.org {{unknown}}');
    expect(vault.placeholdersIn('x {{email}} {{nope}}')).toEqual(['email']);
    expect(vault.names()).toEqual(['card_number', 'email']);
  });

  it('survives a round trip through its saved contents, keeping the numbering', () => {
    const vault = createSecretVault();
    createRedactor(vault).redact('4111111111111111');
    const restored = createSecretVault(JSON.parse(JSON.stringify(vault.contents())) as ReturnType<typeof vault.contents>);
    expect(restored.resolve('{{redacted_card_1}}')).toBe('4111111111111111');
    expect(restored.remember('card', '5555555555554444')).toBe('redacted_card_2');
  });

  it('refuses entry names that could not be written as placeholders', () => {
    expect(() => createSecretVault({ entries: { 'Card Number': '1' } })).toThrow(/must be lowercase letters, digits and underscores/);
  });
});

describe('redaction of values split over fields and of stored values', () => {
  it('catches a card number typed into four boxes and an SSN in three', () => {
    const snapshot = [
      '[4] textbox "Card number, part 1" value="4111"',
      '[5] textbox "Card number, part 2" value="1111"',
      '[6] textbox "Card number, part 3" value="1111"',
      '[7] textbox "Card number, part 4" value="1111"',
      '[8] textbox "Quantity" value="12"',
      '[9] textbox "SSN" value="219"',
      '[10] textbox "SSN" value="09"',
      '[11] textbox "SSN" value="9999"',
    ].join('\n');
    const vault = createSecretVault();
    const out = createRedactor(vault).redact(snapshot);
    expect(out).not.toMatch(/value="4111"|value="1111"|value="219"|value="9999"/);
    expect(out).toContain('value="(part 1 of 4 of {{redacted_card_1}})"');
    expect(out).toContain('value="12"');
    expect(out).toContain('value="(part 3 of 3 of {{redacted_ssn_1}})"');
    expect(vault.resolve('{{redacted_card_1}}')).toBe('4111111111111111');
  });

  it('matches stored values as whole words only, in any case of surrounding text', () => {
    const r = createRedactor(createSecretVault({ entries: { first_name: 'Adam', pin: '1234' } }));
    expect(r.redact('Adam, Adamant and MacAdam; order 1234 costs $12.34')).toBe('{{first_name}}, Adamant and MacAdam; order 1234 costs $12.34');
  });
});
