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
