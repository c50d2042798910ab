import { createRedactor } from '../../../shared/agent/redactor';
import { countersAfter, createSecretVault, foundNamesIn, refuseUnknownFound, type SecretVault } from '../../../shared/agent/secret-vault';
import type { Settings, TaskRecord } from '../../../shared/protocol';

/**
 * Values redaction found on pages during a task (a card number it saw, ...), kept so a resumed task can still type
 * `{{redacted_card_1}}`. They live in session storage, apart from the task: never on disk, never sent to the panel.
 */
export interface FoundSecrets {
  load(taskId: string): Promise<Record<string, string>>;
  save(taskId: string, entries: Record<string, string>): Promise<void>;
}

/**
 * The task's text (or a follow-up's) with personal data replaced by placeholders; the values found are kept for the
 * task in session memory, beside those it found before (`earlier`), whose placeholders keep their numbers.
 */
export async function redactTask(secrets: FoundSecrets, taskId: string, text: string, settings: Settings, earlier?: TaskRecord): Promise<string> {
  const kept = earlier ? await secrets.load(taskId) : {};
  const counters = earlier ? countersAfter([...foundNamesIn(JSON.stringify(earlier.agent)), ...Object.keys(kept)]) : undefined;
  const vault = createSecretVault({ entries: { ...settings.personalData, ...kept }, ...(counters ? { counters } : {}) });
  const redacted = createRedactor(vault, { emails: settings.redactEmails, phones: settings.redactPhones }).redact(text);
  const found = Object.fromEntries(Object.entries(vault.contents().entries).filter(([name]) => !(name in settings.personalData)));
  if (Object.keys(found).length > 0) await secrets.save(taskId, found);
  return redacted;
}

/**
 * The vault a run types from: the user's personal data and what the task found on pages so far. A placeholder seen
 * before a browser restart whose value was forgotten (session storage only) is refused with the reason.
 */
export async function runVault(secrets: FoundSecrets, record: TaskRecord, settings: Settings): Promise<SecretVault> {
  const found = await secrets.load(record.id);
  // Values seen before a browser restart were in session storage only: their placeholders are known, not their values.
  const seen = foundNamesIn(JSON.stringify(record.agent));
  const forgotten = new Set(seen.filter((name) => !(name in found)));
  return refuseUnknownFound(
    createSecretVault({ entries: { ...settings.personalData, ...found }, counters: countersAfter([...seen, ...Object.keys(found)]) }),
    (name) =>
      forgotten.has(name)
        ? `{{${name}}} stood for a value seen on a page before the browser restarted. Such values are kept only in memory, so it was forgotten on the restart for safety and was not typed. Read it from the page again, or ask the user for it.`
        : `{{${name}}} is not a value Deputy knows, so nothing was typed: use only placeholders shown on the page or in the instructions.`,
  );
}

/** What the vault holds beyond the user's own personal data: the values the task found on pages. */
export function foundOnPages(vault: SecretVault, settings: Settings): Record<string, string> {
  return Object.fromEntries(Object.entries(vault.contents().entries).filter(([name]) => !(name in settings.personalData)));
}
