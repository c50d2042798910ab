import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../../shared/agent/redactor';
import { createSecretVault } from '../../../../shared/agent/secret-vault';
import { REDACTION_CORPUS, leakedSecrets } from '../../../fixtures/redaction/corpus';
import { SCHEMES, generatedCorpus, splitCases } from '../../../fixtures/redaction/generated';

/** Leaks, also when only the case or the separators changed (a lower-case IBAN). */
function leaks(redacted: string, secrets: string[]): string[] {
  const squash = (text: string): string => text.replace(/[\s.\-/\\]|\\n/g, '').toLowerCase();
  return [...leakedSecrets(redacted, secrets), ...secrets.filter((s) => squash(s).length >= 6 && squash(redacted).includes(squash(s)))];
}

const { cases, decoys } = generatedCorpus();

describe('redaction by structure over a generated corpus of identifiers and credentials', () => {
  it(`covers ${SCHEMES.length} schemes, ${cases.length} values`, () => {
    expect(SCHEMES.length).toBeGreaterThanOrEqual(35);
    expect(cases.length).toBe(SCHEMES.length * 12);
  });

  for (const entry of [...cases, ...splitCases()]) {
    it(entry.name, () => {
      const vault = createSecretVault({ entries: {} });
      const redacted = createRedactor(vault).redact(entry.text);
      expect(leaks(redacted, entry.secrets), redacted).toEqual([]);
      for (const kept of entry.keep) expect(redacted, redacted).toContain(kept);
      // The value can still be typed back through its placeholder.
      const typed = vault.resolve(redacted);
      for (const value of entry.typedBack ?? entry.secrets) expect(typed.replace(/\s/g, ''), typed).toContain(value.replace(/\s/g, ''));
    });
  }

  for (const entry of decoys) {
    it(`leaves alone ${entry.name}`, () => {
      const redacted = createRedactor(createSecretVault({ entries: {} })).redact(entry.text);
      expect(redacted).toBe(entry.text);
    });
  }

  it('keeps the hand-written corpus passing', () => {
    for (const entry of REDACTION_CORPUS) {
      const redacted = createRedactor(createSecretVault({ entries: entry.stored ?? {} })).redact(entry.text);
      expect(leakedSecrets(redacted, entry.secrets), entry.name).toEqual([]);
      for (const kept of entry.keep) expect(redacted, entry.name).toContain(kept);
    }
  });
});
