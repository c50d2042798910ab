import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../../../shared/agent/secret-patterns';

// A secret word inside a file path is not prose, and Deputy's own element numbers are never a value: a false finding
// here is redacted everywhere for the rest of the task (the "[1]" of every later snapshot became a placeholder).
describe('passwords in prose: what is not one', () => {
  it.each([
    ['Uploaded "/etc/passwd" to [1] button "CV": failed'],
    ['C:\\secrets\\password is stored here'],
    ['Password: [12]'],
    ['the passwd file is world-readable'],
  ])('%s', (text) => {
    expect(findSecrets(text).map((span) => span.value)).toEqual([]);
  });

  it.each([
    ['my password is hunter22', 'hunter22'],
    ['hasło to Tajne123', 'Tajne123'],
    ['DB_PASSWORD=abc123', 'abc123'],
    ['cfg.password = qwerty9', 'qwerty9'],
    ['my-password: zzz999', 'zzz999'],
  ])('%s still is', (text, value) => {
    expect(findSecrets(text).map((span) => span.value)).toEqual([value]);
  });
});

describe('a placeholder already written', () => {
  it('is never found again as a value: the user\'s passport keeps its own name', async () => {
    const { createRedactor } = await import('../../../../shared/agent/redactor');
    const { createSecretVault } = await import('../../../../shared/agent/secret-vault');
    const vault = createSecretVault({ entries: { passport_number: 'X1234567', card_number: '5500 0000 0000 0004' } });
    expect(createRedactor(vault).redact('passport X1234567 card 5500 0000 0000 0004')).toBe('passport {{passport_number}} card {{card_number}}');
  });
});
