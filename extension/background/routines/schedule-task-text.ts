import { createRedactor } from '../../../shared/agent/redactor';
import { createSecretVault } from '../../../shared/agent/secret-vault';
import { AppError } from '../../../shared/errors';
import type { Settings } from '../../../shared/protocol';

/**
 * A task in words as a schedule may keep it: the user's personal data in it turned into its placeholders (the run's
 * vault types the value), and refused when it holds a secret that is not in personal data (a card number, a key), so
 * that no secret sits in clear in the schedules' storage. The error says how to give it instead.
 */
export function taskWithoutClearSecrets(task: string, settings: Pick<Settings, 'personalData' | 'redactEmails' | 'redactPhones'>): string {
  const vault = createSecretVault({ entries: settings.personalData });
  const redacted = createRedactor(vault, { emails: settings.redactEmails, phones: settings.redactPhones }).redact(task);
  const found = Object.keys(vault.contents().entries).filter((name) => !(name in settings.personalData));
  if (found.length > 0) {
    throw new AppError(
      'bad_request',
      `The task holds a secret (${found.map((name) => name.replace(/^redacted_|_\d+$/g, '')).join(', ')}) that a schedule would keep in clear: save it in Settings → Personal data (for example as card_number) and write {{card_number}} in the task instead.`,
    );
  }
  return redacted;
}
