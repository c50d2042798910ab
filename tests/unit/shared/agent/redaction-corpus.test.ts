import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../../shared/agent/redactor';
import { createSecretVault } from '../../../../shared/agent/secret-vault';
import { REDACTION_CORPUS, leakedSecrets } from '../../../fixtures/redaction/corpus';

describe('redaction over a corpus of formats and languages', () => {
  for (const entry of REDACTION_CORPUS) {
    it(entry.name, () => {
      const vault = createSecretVault({ entries: entry.stored ?? {} });
      const redacted = createRedactor(vault).redact(entry.text);
      expect(leakedSecrets(redacted, entry.secrets), redacted).toEqual([]);
      for (const kept of entry.keep) expect(redacted, redacted).toContain(kept);
      // Every secret can still be typed back: its placeholder resolves to the value (a stored one as stored).
      const typed = vault.resolve(redacted);
      for (const secret of entry.typedBack ?? entry.secrets) expect(entry.stored ? Object.values(entry.stored).some((v) => typed.includes(v)) : typed.includes(secret), secret).toBe(true);
    });
  }
});
