import { luhn } from './identity-checks';
import { STRUCTURED_KINDS, cvvAfterCard, findStructuredSecrets } from './structured-secrets';

/**
 * What personal data looks like in free text: card numbers with any separator, IBANs, social security numbers with or
 * without separators, keys and tokens, and passwords written in prose ("my password is ..."), in several languages.
 * Each finding is a span of the text, so redaction can replace it and clipping can keep it whole.
 */

export interface SecretSpan {
  kind: string;
  /** Where the secret itself is (without the words that announced it). */
  start: number;
  end: number;
  value: string;
}

interface Pattern {
  kind: string;
  regex: RegExp;
  /** Which capture group holds the secret; 0 for the whole match. */
  group: number;
  accept?(value: string, text: string, index: number): boolean;
}

/** Luhn's check digit test, which real card numbers pass and most other long digit runs fail. */
export const passesLuhn = luhn;

/**
 * A card number: 13 to 19 digits passing Luhn, starting as card numbers do (2-6), written as one run or in the groups
 * cards print (4-4-4-4, 4-6-5, ...) with spaces, dashes, dots or slashes. Other long digit runs (order numbers,
 * phone numbers) rarely pass all three tests.
 */
export function isCardNumber(text: string): boolean {
  const digits = text.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19 || !/^[2-6]/.test(digits) || !passesLuhn(digits)) return false;
  const groups = text.split(/[^\d]+/).filter(Boolean).map((g) => g.length);
  if (groups.length === 1) return true;
  const [first, ...rest] = groups;
  const fours = first === 4 && rest.slice(0, -1).every((g) => g === 4) && (rest.at(-1) ?? 0) >= 1 && (rest.at(-1) ?? 0) <= 4;
  const amex = groups.length === 3 && first === 4 && groups[1] === 6 && (groups[2] === 5 || groups[2] === 4);
  return fours || amex;
}

/** The IBAN check: move the country and check digits to the end, letters to numbers, remainder 1 modulo 97. */
export function isIban(text: string): boolean {
  const iban = text.replace(/[\s-]/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of moved) {
    const value = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** Words that follow "password is" without being one: "my password is wrong", "the PIN is required". */
const NOT_A_SECRET = new Set(
  [
    'not', 'required', 'needed', 'missing', 'wrong', 'incorrect', 'invalid', 'correct', 'too', 'the', 'a', 'an', 'in', 'on', 'at', 'for', 'my', 'your',
    'same', 'reset', 'expired', 'empty', 'set', 'saved', 'stored', 'changed', 'below', 'above', 'here', 'there', 'different', 'strong', 'weak',
    'nicht', 'falsch', 'leer', 'pas', 'faux', 'vide', 'no', 'incorrecto', 'vacío', 'vacio', 'case-sensitive', 'optional', 'forgotten', 'long', 'short',
    'erforderlich', 'notwendig', 'obligatoire', 'requis', 'obligatorio', 'requerida', 'obrigatória', 'obrigatoria', 'incorreta', 'obbligatoria',
    'errata', 'richiesta', 'vereist', 'verplicht', 'onjuist', 'wymagane', 'nieprawidłowe', 'krävs', 'fel', 'påkrævet', 'forkert', 'kreves', 'feil',
    'vaaditaan', 'väärin', 'povinné', 'nesprávné', 'gerekli', 'yanlış', 'απαιτείται', 'λάθος', 'sai', 'wajib', 'salah', 'diperlukan', 'мой', 'неверный',
    'обязателен', 'مطلوبة', 'خاطئة', 'आवश्यक', 'נדרשת', 'שגויה', 'kötelező', 'hibás', 'lautet',
  ],
);

/** Words that announce a secret, in the languages users write in. */
const SECRET_WORDS =
  "passwords?|passw(?:or)?d|passwd|pwd|passcode|passphrase|pin(?: code)?|secret|api[_ -]?key|access[_ -]?token|auth(?:entication)?[_ -]?token|" +
  "private[_ -]?key|client[_ -]?secret|mot de passe|code secret|passwort|kennwort|geheimzahl|contraseña|clave|senha|parola d'ordine|" +
  'пароль|パスワード|暗証番号|密码|密碼|비밀번호|wachtwoord|has[łl]o|[şs]ifre(?:m|si)?|lösenord(?:et)?|adgangskode(?:n)?|passord(?:et)?|' +
  'salasana(?:ni)?|heslo|jelsz[óo]|parol[aă]|contrasenya|كلمة (?:المرور|السر)|पासवर्ड|ה?סיסמ[הא]|κωδικός(?: πρόσβασης)?|mật khẩu|kata sandi|' +
  'mã pin|пин-код|пин';

const SSN_WORDS = 'ssn|social security(?: number| no\\.?| #)?|sozialversicherungsnummer|numéro de sécurité sociale|número de seguro social|tax id|itin';

function acceptProse(value: string): boolean {
  const word = value.replace(/[.!?]+$/, '');
  // Deputy's own element numbers ("Uploaded /etc/passwd to [1]") are never a password.
  if (/^\[\d+\]$/.test(word)) return false;
  return word.length >= 3 && !NOT_A_SECRET.has(word.toLowerCase());
}

/** A long run of letters and digits that mixes capitals, small letters and digits, and is not part of an address. */
function isHighEntropy(value: string, text: string, index: number): boolean {
  if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/\d/.test(value)) return false;
  const before = text.slice(Math.max(0, index - 1), index);
  // Part of a URL (a path, a query value, a fragment) or a file name: addresses must keep working.
  if (/[/=?&#.@%]/.test(before)) return false;
  const line = text.slice(text.lastIndexOf('\n', index) + 1, index);
  return !/https?:\/\/\S*$/.test(line);
}

const PATTERNS: Pattern[] = [
  { kind: 'card', regex: /(?<![\w.,/-])\d(?:[ .\-/]?\d){12,18}(?![\w-]|[.,/]\d)/g, group: 0, accept: isCardNumber },
  // Printed in groups of four (or in one run), in capitals; the last group may be shorter.
  { kind: 'iban', regex: /(?<![\w-])[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){2,7}(?:[ -]?[A-Z0-9]{1,3})?(?![\w-])/g, group: 0, accept: isIban },
  { kind: 'ssn', regex: /(?<![\w.-])(?!000|666|9\d\d)\d{3}([- .])(?!00)\d{2}\1(?!0000)\d{4}(?![\w-]|\.\d)/g, group: 0 },
  { kind: 'ssn', regex: new RegExp(`\\b(?:${SSN_WORDS})\\b[^\\d\\n]{0,24}((?!000|666|9\\d\\d)\\d{9})(?!\\d)`, 'giu'), group: 1 },
  { kind: 'token', regex: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, group: 0 },
  { kind: 'token', regex: /\bBearer\s+([A-Za-z0-9._~+/-]{12,}=*)/gi, group: 1 },
  {
    kind: 'key',
    regex:
      /\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|ya29\.[0-9A-Za-z_-]{20,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,}|shp(?:at|ss|ca)_[A-Fa-f0-9]{32})\b/g,
    group: 0,
  },
  {
    kind: 'password',
    // "password: x", "PIN=1234", "my password is x", "the password for the bank is x", "Passwort ist x", "mot de passe est x".
    // On one line: a "Password:" prompt followed by the next line's words is not a password.
    regex: new RegExp(
      `(?<![\\p{L}\\p{N}/\\\\])(?:${SECRET_WORDS})["']?(?:\\s+(?:for|of|für|pour|de|del|para|voor|dla|för|til|per)\\s+[^\\n:=.,;]{1,40}?)?(?:[ \\t]*(?:[:=：]|:=)|[ \\t]+(?:is|was|ist|lautet|est|es|é|è|era|war|to|jest|är|er|on|je|adalah|là|είναι|هي|है|היא)[ \\t]|[ \\t]*(?:は|是|는)[ \\t]*)[ \\t]*["'“‘«]?([^\\s"'“”‘’«»,;{}]{2,}[^\\s"'“”‘’«»,;{}.!?])`,
      'giu',
    ),
    group: 1,
    accept: acceptProse,
  },
  { kind: 'key', regex: /(?<![\w-])[A-Za-z0-9_-]{24,}(?![\w-])/g, group: 0, accept: isHighEntropy },
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

export interface SecretOptions {
  emails?: boolean;
  phones?: boolean;
}

/**
 * Every secret in the text, earliest first, none overlapping (an earlier, then a longer finding wins). Patterns that
 * need their own check (Luhn, the IBAN remainder) are checked here, so a price or an order number is never a finding.
 */
export function findSecrets(text: string, options: SecretOptions = {}): SecretSpan[] {
  const patterns = [...PATTERNS, ...(options.emails ? [EMAIL] : []), ...(options.phones ? [PHONE] : [])];
  const found: SecretSpan[] = [];
  for (const pattern of patterns) {
    pattern.regex.lastIndex = 0;
    for (const match of text.matchAll(pattern.regex)) {
      const value = match[pattern.group];
      if (typeof value !== 'string' || value === '') continue;
      const start = (match.index ?? 0) + (pattern.group === 0 ? 0 : match[0].lastIndexOf(value));
      if (pattern.accept && !pattern.accept(value, text, start)) continue;
      found.push({ kind: pattern.kind, start, end: start + value.length, value });
    }
  }
  found.push(...findStructuredSecrets(text));
  // A security code written right after a card number (and its expiry).
  for (const card of found.filter((span) => span.kind === 'card')) {
    const cvv = cvvAfterCard(text, card.end);
    if (cvv) found.push(cvv);
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: SecretSpan[] = [];
  for (const span of found) {
    const last = kept.at(-1);
    if (last && span.start < last.end) continue;
    kept.push(span);
  }
  return kept;
}

/** The digits (and letters, for an IBAN) that make a card, IBAN or SSN, whatever the separators. */
export function canonicalSecret(kind: string, value: string): string {
  if (kind === 'card' || kind === 'ssn') return value.replace(/\D/g, '');
  if (kind === 'iban' || STRUCTURED_KINDS.has(kind)) return value.replace(/[\s.\-/]/g, '').toUpperCase();
  return value;
}
