import { z } from 'zod';

/** A vault's contents: the user's named values and the values redaction found on pages, by placeholder name. */
export const VaultContents = z.object({
  entries: z.record(z.string(), z.string()),
  counters: z.record(z.string(), z.number().int().nonnegative()).default({}),
});
export type VaultContents = z.input<typeof VaultContents>;

const PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]{0,63})\s*\}\}/g;
const NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Personal values the model never sees. The user fills named entries (card_number, password, ...); redaction adds the
 * values it finds on pages under generated names (redacted_card_1). The model writes `{{name}}`, and only the handler
 * that types into the page swaps in the real value. Persist `contents()` where the task's state lives, so a resumed
 * task types the same values.
 */
export interface SecretVault {
  /** Placeholder names the model may use, for the system prompt. Never the values. */
  names(): string[];
  /** Every stored value with its name, longest first, so redaction replaces "4111 1111" before "1111". */
  values(): { name: string; value: string }[];
  /** Stores a value found on a page and returns its placeholder name; the same value always gets the same name. */
  remember(kind: string, value: string): string;
  /** Replaces known placeholders with their values; unknown ones stay as written. */
  resolve(text: string): string;
  /** The known placeholder names used in a text. */
  placeholdersIn(text: string): string[];
  contents(): VaultContents;
}

export function createSecretVault(initial: VaultContents = { entries: {} }): SecretVault {
  const parsed = VaultContents.parse(initial);
  const entries = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed.entries)) {
    if (!NAME.test(name)) throw new Error(`Vault entry name "${name}" must be lowercase letters, digits and underscores.`);
    if (value !== '') entries.set(name, value);
  }
  const counters = new Map(Object.entries(parsed.counters));

  return {
    names: () => [...entries.keys()],
    values: () =>
      [...entries.entries()].map(([name, value]) => ({ name, value })).sort((a, b) => b.value.length - a.value.length),
    remember(kind, value) {
      for (const [name, known] of entries) if (known === value) return name;
      const next = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, next);
      const name = `redacted_${kind}_${next}`;
      entries.set(name, value);
      return name;
    },
    resolve: (text) => text.replace(PLACEHOLDER, (whole, name: string) => entries.get(name) ?? whole),
    placeholdersIn: (text) => [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '').filter((name) => entries.has(name)),
    contents: () => ({ entries: Object.fromEntries(entries), counters: Object.fromEntries(counters) }),
  };
}

const FOUND_NAME = /^redacted_([a-z0-9_]+)_(\d+)$/;

/** Every placeholder name a text uses (known to a vault or not), each once, in order. */
export function placeholderNames(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];
}

/** The names of values redaction found (`redacted_card_1`) that a text mentions as placeholders, each once. */
export function foundNamesIn(text: string): string[] {
  const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '').filter((name) => FOUND_NAME.test(name));
  return [...new Set(names)];
}

/**
 * Counters that go on after the highest found name already used, so a value seen after a restart never gets the name
 * an earlier, different value had in the task's history.
 */
export function countersAfter(names: Iterable<string>): Record<string, number> {
  const counters: Record<string, number> = {};
  for (const name of names) {
    const match = FOUND_NAME.exec(name);
    if (!match?.[1] || !match[2]) continue;
    counters[match[1]] = Math.max(counters[match[1]] ?? 0, Number(match[2]));
  }
  return counters;
}

/**
 * A vault that refuses to resolve a found placeholder it does not hold (one forgotten on a browser restart, or one
 * the model made up): typing `{{redacted_card_1}}` into a page is never right. The error says why, from `explain`.
 */
export function refuseUnknownFound(vault: SecretVault, explain: (name: string) => string): SecretVault {
  return {
    ...vault,
    resolve(text) {
      const known = new Set(vault.names());
      const missing = foundNamesIn(text).find((name) => !known.has(name));
      if (missing !== undefined) throw new Error(explain(missing));
      return vault.resolve(text);
    },
  };
}
