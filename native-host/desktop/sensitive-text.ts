import { createRedactor } from '../../shared/agent/redactor';
import { createSecretVault } from '../../shared/agent/secret-vault';

/**
 * True when the agent's redactor would hide part of the text: a card number, an SSN, a password, an API key or a token.
 * Desktop typing has no placeholders the model could use instead, so such text is typed only with the user's approval.
 * Each check uses a fresh vault, so nothing typed is remembered here.
 */
export function sensitiveTextCheck(): (text: string) => boolean {
  return (text) => createRedactor(createSecretVault()).redact(text) !== text;
}
