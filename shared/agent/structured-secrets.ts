/**
 * Personal identifiers and credentials found by their structure: national identity and tax numbers of many countries
 * (each confirmed by its check digits where the scheme has them), IBANs in any case and spacing (by the registry's
 * length for the country and the mod-97 check), passport numbers and machine-readable zones, cloud and service keys,
 * PEM private keys, and card security codes. One table; `findStructuredSecrets` walks it.
 *
 * A scheme whose check is weak (one mod-10/11 digit over a plain run of digits) is looked for only after a label that
 * names it ("BSN", "PESEL", "TFN"), so order numbers and prices are left alone; a scheme with a distinctive shape
 * (letters and digits in fixed places, a date inside, a printed grouping) is looked for anywhere.
 */
import * as id from './identity-checks';

export interface StructuredSpan {
  kind: string;
  start: number;
  end: number;
  value: string;
}

interface Rule {
  kind: string;
  /** The value is capture group 1 (with its separators), or the whole match when there is no group. */
  regex: RegExp;
  /** The check over the value with separators removed (upper-cased for letter schemes). */
  check?(compact: string, text: string, start: number): boolean;
}

const compactOf = (value: string): string => value.replace(/[\s.\-/]/g, '').toUpperCase();

/** Lengths of IBANs by country, from the SWIFT IBAN registry. */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22,
  DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HN: 28,
  HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25,
  MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29,
  RO: 24, RS: 22, RU: 33, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29,
  VA: 22, VG: 24, XK: 20, YE: 30,
};

/** The mod-97 IBAN check over letters and digits in any case. */
export function ibanChecks(compact: string): boolean {
  const iban = compact.toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  return id.mod97([...moved].map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('')) === 1;
}

/** IBANs in any case, with single spaces or dashes anywhere, exactly as long as the country's IBANs are. */
function findIbans(text: string): StructuredSpan[] {
  const spans: StructuredSpan[] = [];
  for (const match of text.matchAll(/(?<![\p{L}\p{N}])([A-Za-z]{2})\d{2}/gu)) {
    const length = IBAN_LENGTHS[(match[1] ?? '').toUpperCase()];
    if (!length) continue;
    const start = match.index ?? 0;
    let i = start;
    let count = 0;
    let compact = '';
    while (i < text.length && count < length) {
      const char = text[i] ?? '';
      if (/[A-Za-z0-9]/.test(char)) {
        compact += char;
        count += 1;
        i += 1;
      } else if (/[ \-\u00a0]/.test(char) && count > 0 && /[A-Za-z0-9]/.test(text[i + 1] ?? '')) i += 1;
      else break;
    }
    if (count !== length || /[\p{L}\p{N}]/u.test(text[i] ?? '') || !ibanChecks(compact)) continue;
    spans.push({ kind: 'iban', start, end: i, value: text.slice(start, i) });
  }
  return spans;
}

/** A label naming an identifier, then up to a few words (no digits, same line), then the value. */
const labelled = (labels: string, value: string): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${labels})(?![\\p{L}])[^\\n\\d]{0,30}?(?<![\\p{L}\\p{N}])(${value})(?![\\p{L}\\p{N}])`, 'giu');
const bare = (value: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}\\-.])(${value})(?![\\p{L}\\p{N}]|[-.]\\d)`, 'giu');

const PASSPORT_WORDS =
  "passport(?:\\s*(?:number|no\\.?|nr\\.?|num\\.?|#))?|passeport|num[ée]ro de passeport|reisepass(?:nummer)?|passnummer|pasaporte|passaporto|paspoort(?:nummer)?|" +
  'passaporte|paszport|pass(?:nummer)?|паспорт|パスポート(?:番号)?|护照(?:号码?)?|護照|여권(?:번호)?|جواز السفر|पासपोर्ट';

const CVV_WORDS =
  'cvv2?|cvc2?|cid|csc|cvn|security code|card (?:security |verification )?code|card verification (?:value|code)|código de seguridad|' +
  'código de segurança|cryptogramme(?: visuel)?|kartenprüfnummer|prüfnummer|prüfziffer|sicherheitscode|codice di sicurezza|beveiligingscode|' +
  'säkerhetskod|kod cvv|kod zabezpieczający|セキュリティコード|安全码|安全碼|보안코드|cvv-код';

/** The table. Each rule's value is checked by the issuer's algorithm where there is one. */
const RULES: Rule[] = [
  // Europe
  { kind: 'national_insurance', regex: bare('[A-Za-z]{2} ?\\d{2} ?\\d{2} ?\\d{2} ?[A-Da-d]'), check: id.isUkNino },
  { kind: 'tax_id', regex: labelled('steuer-?id|steuerliche identifikationsnummer|identifikationsnummer|idnr|tax id|tin|steuer-identifikationsnummer', '\\d{2} ?\\d{3} ?\\d{3} ?\\d{3}'), check: id.isDeSteuerId },
  { kind: 'national_id', regex: bare('[12] ?\\d{2} ?\\d{2} ?(?:\\d{2}|2[ABab]) ?\\d{3} ?\\d{3} ?\\d{2}'), check: id.isFrNir },
  { kind: 'national_id', regex: bare('[XYZxyz]?-?\\d{7,8}-?[A-Za-z]'), check: id.isEsDniNie },
  { kind: 'tax_id', regex: bare('[A-Za-z]{6}[0-9LMNPQRSTUVlmnpqrstuv]{2}[A-Za-z][0-9LMNPQRSTUVlmnpqrstuv]{2}[A-Za-z][0-9LMNPQRSTUVlmnpqrstuv]{3}[A-Za-z]'), check: id.isItCodiceFiscale },
  { kind: 'national_id', regex: labelled('bsn|burgerservicenummer|sofinummer|citizen service number', '\\d{4}\\.?\\d{2}\\.?\\d{3}|\\d{9}'), check: id.isNlBsn },
  { kind: 'national_id', regex: labelled('pesel', '\\d{11}'), check: id.isPlPesel },
  { kind: 'national_id', regex: bare('(?:19|20)?\\d{6}[-+]\\d{4}'), check: (c) => id.isSePersonnummer(c.replace(/\+/g, '').slice(-10)) },
  { kind: 'national_id', regex: labelled('personnummer|personnr', '(?:19|20)?\\d{10}'), check: (c) => id.isSePersonnummer(c.slice(-10)) },
  { kind: 'national_id', regex: bare('\\d{6}[-+A-FU-Ya-fu-y]\\d{3}[0-9A-Ya-y]'), check: (_c, text, start) => id.isFiHetu(hetuAt(text, start)) },
  { kind: 'national_id', regex: labelled('fødselsnummer|fodselsnummer|f\\.nr\\.?|fnr', '\\d{6} ?\\d{5}'), check: id.isNoFodselsnummer },
  { kind: 'national_id', regex: bare('\\d{2}\\.\\d{2}\\.\\d{2}-\\d{3}\\.\\d{2}'), check: id.isBeNationalNumber },
  { kind: 'national_id', regex: labelled('rijksregisternummer|numéro national|national (?:register )?number|niss|insz', '\\d{11}'), check: id.isBeNationalNumber },
  { kind: 'national_id', regex: bare('756\\.?\\d{4}\\.?\\d{4}\\.?\\d{2}'), check: id.isChAhv },
  { kind: 'tax_id', regex: labelled('nif|contribuinte|número fiscal|numero de contribuinte', '\\d{9}'), check: id.isPtNif },
  { kind: 'national_id', regex: labelled('ppsn?|pps number|personal public service(?: number)?', '\\d{7}[A-Wa-w][A-Ia-iWw]?'), check: id.isIePps },
  // Americas
  { kind: 'tax_id', regex: bare('9\\d{2}-\\d{2}-\\d{4}'), check: id.isUsItin },
  { kind: 'tax_id', regex: labelled('itin', '9\\d{8}'), check: id.isUsItin },
  { kind: 'tax_id', regex: labelled('ein|employer identification number|federal tax id', '\\d{2}-?\\d{7}') },
  { kind: 'national_id', regex: labelled('sin|social insurance(?: number)?|numéro d.assurance sociale|nas', '\\d{3}[ -]?\\d{3}[ -]?\\d{3}'), check: id.isCaSin },
  { kind: 'tax_id', regex: bare('\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}'), check: id.isBrCpf },
  { kind: 'tax_id', regex: labelled('cpf', '\\d{11}'), check: id.isBrCpf },
  { kind: 'national_id', regex: bare('[A-Za-z]{4}\\d{6}[HMXhmx][A-Za-z]{5}[A-Za-z\\d]\\d'), check: id.isMxCurp },
  // Asia-Pacific, Africa
  { kind: 'national_id', regex: bare('[2-9]\\d{3} \\d{4} \\d{4}'), check: id.isInAadhaar },
  { kind: 'national_id', regex: labelled('aadhaar|uidai|आधार', '[2-9]\\d{3}[ -]?\\d{4}[ -]?\\d{4}'), check: id.isInAadhaar },
  { kind: 'national_id', regex: bare('\\d{17}[\\dXx]'), check: id.isCnResidentId },
  { kind: 'national_id', regex: bare('\\d{6}-\\d{7}'), check: id.isKrRrn },
  { kind: 'national_id', regex: labelled('マイナンバー|個人番号|my ?number', '\\d{4} ?\\d{4} ?\\d{4}'), check: id.isJpMyNumber },
  { kind: 'tax_id', regex: labelled('tfn|tax file number', '\\d{3} ?\\d{3} ?\\d{3}'), check: id.isAuTfn },
  { kind: 'national_id', regex: labelled('id number|identity number|national id(?: number)?|id no\\.?', '\\d{13}'), check: id.luhn },
  // Passports: after a label in many languages, and the machine-readable zone wherever it is.
  { kind: 'passport', regex: labelled(PASSPORT_WORDS, '[A-Za-z]{0,3}\\d[A-Za-z0-9]{4,9}') },
  { kind: 'passport', regex: /(?<![A-Z0-9<])([A-Z0-9<]{9}\d[A-Z<]{3}\d{7}[MFX<]\d{7}[A-Z0-9<]{14}[\d<]\d)(?![A-Z0-9<])/g, check: (_c, text, start) => id.isPassportMrzLine(text.slice(start, start + 44)) },
  { kind: 'passport', regex: /(?<![A-Z0-9<])(P[A-Z<][A-Z<]{3}[A-Z]+<<[A-Z<]+)(?![A-Z0-9<])/g, check: (compact) => compact.length === 44 },
  // Card security codes after their label.
  { kind: 'cvv', regex: labelled(CVV_WORDS, '\\d{3,4}') },
  // Cloud and service credentials.
  { kind: 'key', regex: /\b((?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z2-7]{16})\b/g },
  { kind: 'key', regex: /(?<![A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g, check: (_c, text, start) => mixed(text.slice(start, start + 40)) && !inUrl(text, start) },
  { kind: 'key', regex: /AccountKey=([A-Za-z0-9/+]{86}==)/g },
  { kind: 'key', regex: /[?&]sig=([A-Za-z0-9%/+]{30,}(?:%3D|=)*)/g },
  { kind: 'key', regex: /(?<![\w~.-])([A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34})(?![\w~.-])/g },
  { kind: 'key', regex: /\b(GOCSPX-[A-Za-z0-9_-]{28})/g },
  { kind: 'key', regex: /"private_key_id"\s*:\s*"([a-f0-9]{40})"/g },
  { kind: 'key', regex: /\b(xox[abcdeoprs]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Z0-9]+-\d+-[a-f0-9]+)/g },
  { kind: 'key', regex: /hooks\.slack\.com\/services\/(T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]{20,})/g },
  { kind: 'key', regex: /\b((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})/g },
  { kind: 'key', regex: /\b(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}|SK[0-9a-f]{32}|dop_v1_[a-f0-9]{64}|dapi[a-f0-9]{32}|key-[a-f0-9]{32}|hvs\.[A-Za-z0-9_-]{24,})\b/g },
  { kind: 'key', regex: /\b(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}|lin_api_[A-Za-z0-9]{40}|ntn_[A-Za-z0-9]{40,}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|ATATT3[A-Za-z0-9_=-]{100,})/g },
  { kind: 'key', regex: /\b(sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|EAAA[A-Za-z0-9_-]{60,}|gsk_[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{30,})/g },
  { kind: 'key', regex: /(?<!\d)(\d{8,10}:AA[A-Za-z0-9_-]{33})(?![\w-])/g },
  // PEM private keys (also JSON-escaped, and cut off before their end line), and bare base64 body lines.
  { kind: 'private_key', regex: /(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|(?=\n[ \t]*\n)|$))/g },
  { kind: 'private_key', regex: /^[ \t]*([A-Za-z0-9+/]{60,76}={0,2})[ \t]*$/gm, check: (_c, text, start) => mixed(text.slice(start, start + 60)) },
  // Configuration and environment assignments of anything named like a credential.
  {
    kind: 'key',
    regex: /(?<![A-Za-z0-9])["']?[A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|pwd|api_?key|apikey|private_?key|access_?key|credentials?)[A-Za-z0-9_.-]*["']?[ \t]*[:=][ \t]*["']?([^\s"',;{}]{8,})/gi,
    check: (compact, text, start) => !/^(?:BEARER|BASIC|REQUIRED|NULL|UNDEFINED|NONE|TRUE|FALSE|\$\{.*)$/.test(compact) && !text.slice(start).startsWith('{{') && !/^https?:/i.test(text.slice(start, start + 8)),
  },
];

function mixed(value: string): boolean {
  return /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value);
}

function inUrl(text: string, index: number): boolean {
  const line = text.slice(text.lastIndexOf('\n', index - 1) + 1, index);
  return /(?:https?:\/\/|www\.)\S*$/i.test(line);
}

function hetuAt(text: string, start: number): string {
  return text.slice(start, start + 11);
}

/** Every structured finding, in no particular order; `findSecrets` merges them with the others. */
export function findStructuredSecrets(text: string): StructuredSpan[] {
  const spans: StructuredSpan[] = findIbans(text);
  for (const rule of RULES) {
    rule.regex.lastIndex = 0;
    for (const match of text.matchAll(rule.regex)) {
      const value = match[1] ?? match[0];
      if (!value) continue;
      const start = (match.index ?? 0) + match[0].lastIndexOf(value);
      if (rule.check && !rule.check(compactOf(value), text, start)) continue;
      spans.push({ kind: rule.kind, start, end: start + value.length, value });
    }
  }
  return spans;
}

/**
 * A security code written right after a card number (and its expiry): "4111 1111 1111 1111 12/27 123". Given where
 * the card ends, the code's span, if any.
 */
export function cvvAfterCard(text: string, cardEnd: number): StructuredSpan | null {
  const after = text.slice(cardEnd, cardEnd + 60);
  const m = /^[\s,;|]*(?:(?:exp\w*\.?:?\s*)?(?:0?[1-9]|1[0-2])\s*\/\s*(?:\d{2}|20\d{2})[\s,;|]+)?(?:cvv2?:?\s*|cvc2?:?\s*)?(\d{3,4})(?![\d/.,:]\d|\d)/i.exec(after);
  if (!m?.[1]) return null;
  const start = cardEnd + m[0].length - m[1].length;
  return { kind: 'cvv', start, end: start + m[1].length, value: m[1] };
}

/** Which identifier a value typed over several fields makes once joined, if any (used for split inputs). */
export function classifyJoined(joined: string): string | null {
  if (joined.length < 8) return null;
  const found = findStructuredSecrets(joined).find((span) => span.start === 0 && span.end === joined.length);
  return found ? found.kind : null;
}

/** The kinds this module finds whose value is compared without separators or case. */
export const STRUCTURED_KINDS = new Set(['national_insurance', 'national_id', 'tax_id', 'passport', 'cvv']);
