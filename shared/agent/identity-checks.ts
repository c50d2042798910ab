/**
 * Check-digit algorithms of national identifiers, tax numbers and account numbers, each as published by its issuer.
 * Pure functions over a string of digits (and letters where the scheme has them); separators are removed by callers.
 */

const digitsOf = (text: string): number[] => [...text].map(Number);

/** Luhn (ISO/IEC 7812): cards, Canadian SIN, Swedish personnummer, South African ID. */
export function luhn(digits: string): boolean {
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

/** The remainder of a long number modulo 97, digit by digit (IBAN, French NIR, Belgian national number). */
export function mod97(numeric: string): number {
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder;
}

/** Weighted sum modulo m: sum(d[i] * w[i]) % m. */
export function weighted(digits: string, weights: number[], m: number): number {
  return digitsOf(digits).reduce((sum, digit, i) => sum + digit * (weights[i] ?? 0), 0) % m;
}

/** ISO 7064 MOD 11,10 (German Steuer-ID, Croatian OIB). */
export function iso7064Mod11_10(digits: string): boolean {
  let product = 10;
  for (const digit of digitsOf(digits.slice(0, -1))) {
    let sum = (digit + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  const check = (11 - product) % 10;
  return check === Number(digits.at(-1));
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6], [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1], [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2], [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1], [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Verhoeff (Indian Aadhaar). */
export function verhoeff(digits: string): boolean {
  let c = 0;
  const reversed = digitsOf(digits).reverse();
  for (let i = 0; i < reversed.length; i += 1) c = VERHOEFF_D[c]?.[VERHOEFF_P[i % 8]?.[reversed[i] ?? 0] ?? 0] ?? 0;
  return c === 0;
}

/** ICAO 9303 machine-readable zone check digit: weights 7-3-1, `<` is 0, letters A=10..Z=35. */
export function icaoCheck(field: string): number {
  const weights = [7, 3, 1];
  let sum = 0;
  [...field].forEach((char, i) => {
    const value = char === '<' ? 0 : /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 55;
    sum += value * (weights[i % 3] ?? 0);
  });
  return sum % 10;
}

const isDate = (yy: number, mm: number, dd: number): boolean => mm >= 1 && mm <= 12 && dd >= 1 && dd <= 31 && yy >= 0;

/** German tax identification number (Steuerliche Identifikationsnummer): 11 digits, no leading 0, MOD 11,10. */
export function isDeSteuerId(value: string): boolean {
  if (!/^[1-9]\d{10}$/.test(value)) return false;
  // In the first ten digits one digit occurs two or three times and the others at most once.
  const counts = new Map<string, number>();
  for (const digit of value.slice(0, 10)) counts.set(digit, (counts.get(digit) ?? 0) + 1);
  const repeated = [...counts.values()].filter((n) => n > 1);
  return repeated.length === 1 && (repeated[0] === 2 || repeated[0] === 3) && iso7064Mod11_10(value);
}

/** French social security number (NIR): sex, year, month, place, order, then a key of 97 - (number mod 97). */
export function isFrNir(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^[12]\d{2}(0[1-9]|1[0-2]|[2-9]\d)(\d{2}|2[AB])\d{6}\d{2}$/.test(v)) return false;
  const body = v.slice(0, 13).replace('2A', '19').replace('2B', '18');
  return 97 - mod97(body) === Number(v.slice(13));
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spanish DNI (8 digits and a letter) and NIE (X, Y or Z, 7 digits and a letter): number mod 23 picks the letter. */
export function isEsDniNie(value: string): boolean {
  const v = value.toUpperCase();
  const m = /^([XYZ]?)(\d{7,8})([A-Z])$/.exec(v);
  if (!m) return false;
  const [, prefix = '', number = '', letter] = m;
  if ((prefix && number.length !== 7) || (!prefix && number.length !== 8)) return false;
  const n = Number(`${prefix ? 'XYZ'.indexOf(prefix) : ''}${number}`);
  return DNI_LETTERS[n % 23] === letter;
}

const CF_ODD: Record<string, number> = Object.fromEntries(
  [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => {
    const table = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
    const index = i < 10 ? i : i - 10;
    return [c, table[index] ?? 0];
  }),
);

/** Italian codice fiscale: 6 letters, 2 digits, month letter, 2 digits, place (letter + 3), check letter. */
export function isItCodiceFiscale(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i += 1) {
    const c = v[i] ?? '0';
    sum += i % 2 === 0 ? (CF_ODD[c] ?? 0) : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65;
  }
  return String.fromCharCode(65 + (sum % 26)) === v[15];
}

/** Dutch citizen service number (BSN): 9 digits passing the eleven test with weights 9..2 and -1. */
export function isNlBsn(value: string): boolean {
  if (!/^\d{9}$/.test(value) || value === '000000000') return false;
  return weighted(value, [9, 8, 7, 6, 5, 4, 3, 2, -1], 11) === 0;
}

/** UK National Insurance number: two prefix letters (not D, F, I, Q, U, V; second not O; not BG, GB, KN, NK, NT, TN, ZZ), six digits, A-D. */
export function isUkNino(value: string): boolean {
  const v = value.toUpperCase();
  return /^(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/.test(v);
}

/** Polish PESEL: 11 digits, weights 1-3-7-9, and a valid birth date. */
export function isPlPesel(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  const month = Number(value.slice(2, 4)) % 20;
  if (!isDate(0, month, Number(value.slice(4, 6)))) return false;
  return (10 - weighted(value.slice(0, 10), [1, 3, 7, 9, 1, 3, 7, 9, 1, 3], 10)) % 10 === Number(value[10]);
}

/** Swedish personnummer: YYMMDD, four digits, the last a Luhn check over the ten. */
export function isSePersonnummer(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  return isDate(0, Number(value.slice(2, 4)), Number(value.slice(4, 6)) % 60) && luhn(value);
}

const HETU_CHARS = '0123456789ABCDEFHJKLMNPRSTUVWXY';

/** Finnish personal identity code (HETU): DDMMYY, century sign, three digits, mod-31 check character. */
export function isFiHetu(value: string): boolean {
  const v = value.toUpperCase();
  const m = /^(\d{6})[-+A-FU-Y](\d{3})([0-9A-Y])$/.exec(v);
  if (!m) return false;
  const [, date = '', order = '', check] = m;
  if (!isDate(0, Number(date.slice(2, 4)), Number(date.slice(0, 2)))) return false;
  return HETU_CHARS[Number(date + order) % 31] === check;
}

/** Norwegian fødselsnummer: 11 digits with two mod-11 check digits. */
export function isNoFodselsnummer(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  const k1 = (11 - weighted(value.slice(0, 9), [3, 7, 6, 1, 8, 9, 4, 5, 2], 11)) % 11;
  const k2 = (11 - weighted(value.slice(0, 10), [5, 4, 3, 2, 7, 6, 5, 4, 3, 2], 11)) % 11;
  return k1 === Number(value[9]) && k2 === Number(value[10]);
}

/** Belgian national register number: YYMMDD, order, and 97 - (number mod 97) (with 2 prepended after 2000). */
export function isBeNationalNumber(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  const check = Number(value.slice(9));
  const body = value.slice(0, 9);
  return 97 - mod97(body) === check || 97 - mod97(`2${body}`) === check;
}

/** Brazilian CPF: 11 digits with two mod-11 check digits, not all the same digit. */
export function isBrCpf(value: string): boolean {
  if (!/^\d{11}$/.test(value) || /^(\d)\1{10}$/.test(value)) return false;
  const check = (length: number): number => {
    const weights = Array.from({ length }, (_, i) => length + 1 - i);
    const r = (weighted(value.slice(0, length), weights, 11) * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === Number(value[9]) && check(10) === Number(value[10]);
}

/** Indian Aadhaar: 12 digits, not starting with 0 or 1, Verhoeff check. */
export function isInAadhaar(value: string): boolean {
  return /^[2-9]\d{11}$/.test(value) && verhoeff(value);
}

/** Chinese resident identity card: 17 digits and a MOD 11-2 check (0-9 or X), with a birth date inside. */
export function isCnResidentId(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(v)) return false;
  const year = Number(v.slice(6, 10));
  if (year < 1900 || year > 2100 || !isDate(year, Number(v.slice(10, 12)), Number(v.slice(12, 14)))) return false;
  const sum = weighted(v.slice(0, 17), [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2], 11);
  return '10X98765432'[sum] === v[17];
}

/** Canadian social insurance number: 9 digits passing Luhn, not starting with 0 or 8. */
export function isCaSin(value: string): boolean {
  return /^[1-79]\d{8}$/.test(value) && luhn(value);
}

/** Swiss AHV/AVS number: 756 and ten digits, EAN-13 check. */
export function isChAhv(value: string): boolean {
  if (!/^756\d{10}$/.test(value)) return false;
  const sum = weighted(value.slice(0, 12), [1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3], 10);
  return (10 - sum) % 10 === Number(value[12]);
}

/** Australian tax file number: 9 digits, weighted sum divisible by 11. */
export function isAuTfn(value: string): boolean {
  return /^\d{9}$/.test(value) && weighted(value, [1, 4, 3, 7, 5, 8, 6, 9, 10], 11) === 0;
}

/** Portuguese NIF: 9 digits, mod-11 check digit. */
export function isPtNif(value: string): boolean {
  if (!/^[1-35-9]\d{8}$/.test(value)) return false;
  const r = 11 - weighted(value.slice(0, 8), [9, 8, 7, 6, 5, 4, 3, 2], 11);
  return (r >= 10 ? 0 : r) === Number(value[8]);
}

/** Irish PPS number: 7 digits, a mod-23 check letter, and an optional second letter. */
export function isIePps(value: string): boolean {
  const v = value.toUpperCase();
  const m = /^(\d{7})([A-W])([A-IW]?)$/.exec(v);
  if (!m) return false;
  const [, digits = '', check, extra = ''] = m;
  const extraValue = extra && extra !== 'W' ? extra.charCodeAt(0) - 64 : 0;
  const sum = weighted(digits, [8, 7, 6, 5, 4, 3, 2], 1000) + extraValue * 9;
  return 'WABCDEFGHIJKLMNOPQRSTUV'[sum % 23] === check;
}

/** South Korean resident registration number: YYMMDD-NNNNNNN, weighted mod-11 check. */
export function isKrRrn(value: string): boolean {
  if (!/^\d{13}$/.test(value) || !isDate(0, Number(value.slice(2, 4)), Number(value.slice(4, 6)))) return false;
  const sum = weighted(value.slice(0, 12), [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5], 11);
  return (11 - sum) % 10 === Number(value[12]);
}

/** Japanese My Number (individual number): 12 digits, weighted mod-11 check. */
export function isJpMyNumber(value: string): boolean {
  if (!/^\d{12}$/.test(value)) return false;
  const weights = [6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const r = weighted(value.slice(0, 11), weights, 11);
  return (r <= 1 ? 0 : 11 - r) === Number(value[11]);
}

/** Mexican CURP: 4 letters, birth date, sex, state, 3 consonants, a homoclave, and a check digit. */
export function isMxCurp(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^[A-Z][AEIOUX][A-Z]{2}\d{6}[HMX][A-Z]{2}[B-DF-HJ-NP-TV-Z]{3}[A-Z\d]\d$/.test(v)) return false;
  const alphabet = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';
  let sum = 0;
  for (let i = 0; i < 17; i += 1) sum += alphabet.indexOf(v[i] ?? '0') * (18 - i);
  return (10 - (sum % 10)) % 10 === Number(v[17]);
}

/** US individual taxpayer identification number: 9XX-[50-65|70-88|90-92|94-99]-XXXX. */
export function isUsItin(value: string): boolean {
  if (!/^9\d{8}$/.test(value)) return false;
  const group = Number(value.slice(3, 5));
  return (group >= 50 && group <= 65) || (group >= 70 && group <= 88) || (group >= 90 && group <= 92) || group >= 94;
}

/** A passport's MRZ second line (TD3): number, nationality, birth date, sex, expiry, each with its check digit. */
export function isPassportMrzLine(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^[A-Z0-9<]{9}\d[A-Z<]{3}\d{6}\d[MF<X]\d{6}\d[A-Z0-9<]{14}[\d<]\d$/.test(v)) return false;
  const digit = (i: number): number => Number(v[i]);
  return icaoCheck(v.slice(0, 9)) === digit(9) && icaoCheck(v.slice(13, 19)) === digit(19) && icaoCheck(v.slice(21, 27)) === digit(27);
}
