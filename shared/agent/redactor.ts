import type { SecretVault } from './secret-vault';
import { canonicalSecret, findSecrets, isCardNumber } from './secret-patterns';
import { classifyJoined } from './structured-secrets';

export { passesLuhn } from './secret-patterns';

export interface RedactionOptions {
  /** Email addresses are often needed to do a task, so they are redacted only when the user asks. */
  emails?: boolean;
  phones?: boolean;
}

export interface Redactor {
  /** The text with every secret replaced by its `{{placeholder}}`. */
  redact(text: string): string;
  /** Redacts every string inside a JSON-like value (trace records, tool arguments). */
  redactDeep<T>(value: T): T;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A stored value as it may appear in text: whole, never as part of a longer word or number, so the name "Adam" leaves
 * "Adamant" alone and a stored "4242" does not eat into order 142421. Short all-digit values (a PIN) are not looked
 * for in text at all: they would turn prices and order numbers into placeholders, and they are typed only through
 * their placeholder anyway.
 */
function valuePattern(value: string): RegExp | null {
  if (value.length < 3 || /^\d{1,5}$/.test(value)) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegex(value)}(?![\\p{L}\\p{N}_])`, 'gu');
}

const SPLIT_VALUE = /value="([A-Za-z0-9]{1,8})"/;

/**
 * A card number, SSN, IBAN or national identifier split over consecutive fields (four boxes of four digits, an SSN in
 * three, an IBAN or insurance number in boxes), as the snapshot
 * shows them: one field per line, each with its `value="..."`. Each part is replaced by a mention of the whole.
 */
function redactSplitValues(text: string, name: (kind: string, value: string) => string): string {
  if (!text.includes('value="')) return text;
  const lines = text.split('\n');
  const parts = lines.map((line) => SPLIT_VALUE.exec(line)?.[1]);
  for (let start = 0; start < lines.length; start += 1) {
    if (parts[start] === undefined) continue;
    let end = start;
    while (end + 1 < lines.length && parts[end + 1] !== undefined) end += 1;
    if (end === start) continue;
    for (let from = start; from < end; from += 1) {
      for (let to = end; to > from; to -= 1) {
        const run = parts.slice(from, to + 1) as string[];
        const joined = run.join('');
        const kind = isCardNumber(joined)
          ? 'card'
          : run.length === 3 && /^\d{3}$/.test(run[0] ?? '') && /^\d{2}$/.test(run[1] ?? '') && /^\d{4}$/.test(run[2] ?? '')
            ? 'ssn'
            : classifyJoined(joined);
        if (!kind) continue;
        const placeholder = name(kind, joined);
        for (let i = from; i <= to; i += 1) {
          lines[i] = (lines[i] ?? '').replace(SPLIT_VALUE, `value="(part ${i - from + 1} of ${run.length} of {{${placeholder}}})"`);
          parts[i] = undefined;
        }
        from = to;
        break;
      }
    }
    start = end;
  }
  return lines.join('\n');
}

/**
 * Redacts personal data before any text reaches a provider, storage or a log. Known vault values go first (the
 * user's own card number, wherever it appears, in whichever format); then patterns find what the vault does not know,
 * and remember it so the model can still type it back through its placeholder.
 */
export function createRedactor(vault: SecretVault, options: RedactionOptions = {}): Redactor {
  /** The vault's name for a value found in text: the user's own entry when it is the same card, IBAN or SSN. */
  const nameFor = (kind: string, value: string): string => {
    const canonical = canonicalSecret(kind, value);
    const known = vault.values().find((entry) => entry.value === value || (canonical.length >= 9 && canonicalSecret(kind, entry.value) === canonical));
    return known ? known.name : vault.remember(kind, value);
  };

  function redact(text: string): string {
    let out = text;
    for (const { name, value } of vault.values()) {
      const pattern = valuePattern(value);
      if (pattern) out = out.replace(pattern, `{{${name}}}`);
    }
    // Names are given in reading order, then the text is rewritten from its end so earlier offsets stay valid.
    // A placeholder already written ("passport {{passport_number}}") is never found again as a value.
    const placeholders = [...out.matchAll(/\{\{[^{}\s]+\}\}/g)].map((m) => [m.index, m.index + m[0].length] as const);
    const free = (span: { start: number; end: number }): boolean => !placeholders.some(([start, end]) => span.start < end && span.end > start);
    const named = findSecrets(out, options)
      .filter(free)
      .map((span) => ({ span, name: nameFor(span.kind, span.value) }));
    for (const { span, name } of named.reverse()) out = `${out.slice(0, span.start)}{{${name}}}${out.slice(span.end)}`;
    return redactSplitValues(out, nameFor);
  }

  function redactDeep<T>(value: T): T {
    if (typeof value === 'string') return redact(value) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item)) as T;
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item)])) as T;
    }
    return value;
  }

  return { redact, redactDeep };
}
