import type { SecretVault } from './secret-vault';

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

interface Pattern {
  kind: string;
  regex: RegExp;
  /** Which capture group holds the secret; 0 for the whole match. */
  group: number;
  accept?(match: string): boolean;
}

/** Luhn's check digit test, which real card numbers pass and most other long digit runs fail. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

function isCardNumber(match: string): boolean {
  const digits = match.replace(/[ -]/g, '');
  return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
}

const SECRET_PATTERNS: Pattern[] = [
  // Written whole, or in groups that start with four digits (4-4-4-4, Amex 4-6-5): a run of small numbers such as a
  // command's "68 69 70 71 72 73 74" is not a card even when its digits happen to pass Luhn.
  { kind: 'card', regex: /(?<![\w-])(?:\d{13,19}|\d{4}(?:[ -]\d{3,6}){2,4})(?![\w-])/g, group: 0, accept: isCardNumber },
  { kind: 'ssn', regex: /(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])/g, group: 0 },
  { kind: 'token', regex: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, group: 0 },
  { kind: 'token', regex: /\bBearer\s+([A-Za-z0-9._~+/-]{12,}=*)/gi, group: 1 },
  {
    kind: 'key',
    regex:
      /\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,})\b/g,
    group: 0,
  },
  {
    kind: 'password',
    // On the same line: a "Password:" prompt followed by the next line's words is not a password.
    regex: /\b(?:passw(?:or)?d|passwd|pwd|passcode|pin|secret|api[_-]?key|access[_-]?token)\b[ \t]*[:=][ \t]*["']?([^\s"',;{}]{3,})/gi,
    group: 1,
  },
];

const EMAIL: Pattern = { kind: 'email', regex: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g, group: 0 };
const PHONE: Pattern = {
  kind: 'phone',
  regex: /(?<![\w{])\+?\d[\d ().-]{6,}\d(?![\w}])/g,
  group: 0,
  accept: (match) => {
    const digits = match.replace(/\D/g, '');
    return digits.length >= 8 && digits.length <= 15;
  },
};

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Redacts personal data before any text reaches a provider or a log. Known vault values go first (the user's own card
 * number, wherever it appears); then patterns find what the vault does not know, and remember it so the model can
 * still type it back through its placeholder.
 */
export function createRedactor(vault: SecretVault, options: RedactionOptions = {}): Redactor {
  const patterns = [...SECRET_PATTERNS, ...(options.emails ? [EMAIL] : []), ...(options.phones ? [PHONE] : [])];

  function redact(text: string): string {
    let out = text;
    for (const { name, value } of vault.values()) {
      if (value.length < 3) continue;
      out = out.replace(new RegExp(escapeRegex(value), 'g'), `{{${name}}}`);
    }
    for (const pattern of patterns) {
      out = out.replace(pattern.regex, (...match: unknown[]) => {
        const whole = match[0] as string;
        const group = match[pattern.group];
        const secret = pattern.group === 0 ? whole : typeof group === 'string' ? group : '';
        if (secret === '' || (pattern.accept && !pattern.accept(secret))) return whole;
        const name = vault.remember(pattern.kind, secret);
        return pattern.group === 0 ? `{{${name}}}` : whole.replace(secret, `{{${name}}}`);
      });
    }
    return out;
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
