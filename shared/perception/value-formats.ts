/**
 * Turns a value as people write it ("10/16/2012", "10:15 PM", "October 2012", "#F80", "1,250") into the exact form a
 * date, time, colour or number field stores ("2012-10-16", "22:15", "2012-10", "#ff8800", "1250"), or says why it
 * cannot. Pure, so the content script and the tests share it.
 */
export type ValueKind = 'date' | 'time' | 'datetime-local' | 'month' | 'week' | 'color' | 'number' | 'range';

export type Normalized = { ok: true; value: string; note?: string } | { ok: false; reason: string };

export interface NormalizeOptions {
  /** The page's or the browser's language (en-US, de, fr-CA): it decides whether 03/04/2025 is March or April. */
  locale?: string;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const KINDS = new Set<string>(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'number', 'range']);

export function isValueKind(kind: string): kind is ValueKind {
  return KINDS.has(kind);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function monthIndex(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w.length < 3) return -1;
  return MONTHS.findIndex((m) => m.startsWith(w) || (w.startsWith(m.slice(0, 3)) && m.startsWith(w.slice(0, Math.min(w.length, m.length)))));
}

function fullYear(text: string): number {
  const n = Number(text);
  if (text.length > 2) return n;
  // Two-digit years read as most people mean them: 12 is 2012, 85 is 1985.
  return n < 70 ? 2000 + n : 1900 + n;
}

function validDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1 && y <= 275_760 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Whether day-first (31/12) is the reading for an ambiguous numeric date in this language; US English reads month first. */
function dayFirst(locale: string | undefined): boolean {
  const tag = (locale ?? 'en-US').toLowerCase();
  return !(tag === 'en' || tag === 'en-us' || tag.startsWith('en-us-') || tag === 'fil' || tag.startsWith('en-ph'));
}

interface Ymd {
  y: number;
  m: number;
  d: number;
  note?: string;
}

function parseDate(text: string, options: NormalizeOptions): Ymd | string {
  const t = text.trim().replace(/\s+/g, ' ');
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (match) return { y: Number(match[1]), m: Number(match[2]), d: Number(match[3]) };
  match = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(t);
  if (match) return { y: Number(match[1]), m: Number(match[2]), d: Number(match[3]) };
  match = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{2}|\d{4})$/.exec(t);
  if (match) {
    const a = Number(match[1]);
    const b = Number(match[3]);
    const y = fullYear(match[4] ?? '');
    if (a > 12 && b <= 12) return { y, m: b, d: a };
    if (b > 12 && a <= 12) return { y, m: a, d: b };
    if (a === b) return { y, m: a, d: b };
    // Dots are day-first wherever they are used (16.10.2012); slashes follow the page's language.
    const dmy = match[2] === '.' || dayFirst(options.locale);
    const order = dmy ? 'day/month/year' : 'month/day/year';
    return { y, m: dmy ? b : a, d: dmy ? a : b, note: `read ${JSON.stringify(t)} as ${order} (the page's language is ${options.locale ?? 'unknown'})` };
  }
  // Words: "16 October 2012", "October 16, 2012", "Tue, Oct 16 2012", "16-Oct-2012".
  const words = t.replace(/,/g, ' ').split(/[\s-]+/).filter(Boolean);
  let m = -1;
  let d = -1;
  let y = -1;
  for (const word of words) {
    const ordinal = /^(\d{1,2})(st|nd|rd|th)?$/i.exec(word);
    if (/^\d{4}$/.test(word)) y = Number(word);
    else if (ordinal && d < 0) d = Number(ordinal[1]);
    else if (/^[a-z]+\.?$/i.test(word) && monthIndex(word) >= 0 && m < 0) m = monthIndex(word) + 1;
  }
  if (m > 0 && d > 0 && y > 0) return { y, m, d };
  return `cannot read ${JSON.stringify(text)} as a date: write it as YYYY-MM-DD (e.g. 2012-10-16) or MM/DD/YYYY`;
}

interface Hms {
  h: number;
  m: number;
  s: number | null;
}

function parseTime(text: string): Hms | string {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (t === 'noon') return { h: 12, m: 0, s: null };
  if (t === 'midnight') return { h: 0, m: 0, s: null };
  const match = /^(\d{1,2})(?:[:.h](\d{2}))?(?::(\d{2}))?\s*([ap])?\.?\s*(m\.?)?$/.exec(t);
  if (!match || (match[2] === undefined && match[4] === undefined)) return `cannot read ${JSON.stringify(text)} as a time: write it as HH:MM (e.g. 22:15) or with AM/PM (10:15 PM)`;
  let h = Number(match[1]);
  const m = match[2] === undefined ? 0 : Number(match[2]);
  const s = match[3] === undefined ? null : Number(match[3]);
  const half = match[4];
  if (half) {
    if (h < 1 || h > 12) return `${JSON.stringify(text)} has an hour of ${h}, which AM/PM times do not have`;
    if (half === 'p' && h !== 12) h += 12;
    if (half === 'a' && h === 12) h = 0;
  }
  if (h > 23 || m > 59 || (s !== null && s > 59)) return `${JSON.stringify(text)} is not a time of day`;
  return { h, m, s };
}

const formatTime = (t: Hms): string => `${pad(t.h)}:${pad(t.m)}${t.s ? `:${pad(t.s)}` : ''}`;

function dateValue(text: string, options: NormalizeOptions): Normalized {
  const date = parseDate(text, options);
  if (typeof date === 'string') return { ok: false, reason: date };
  if (!validDate(date.y, date.m, date.d)) return { ok: false, reason: `${JSON.stringify(text)} is not a real date (month ${date.m}, day ${date.d})` };
  return { ok: true, value: `${pad(date.y, 4)}-${pad(date.m)}-${pad(date.d)}`, ...(date.note ? { note: date.note } : {}) };
}

function dateTimeValue(text: string, options: NormalizeOptions): Normalized {
  const t = text.trim();
  const iso = /^(\d{4}-\d{1,2}-\d{1,2})[T ](.+)$/.exec(t);
  const tail = /^(.*?)[\s,]+(?:at\s+)?(\d{1,2}(?:[:.]\d{2}){0,2}\s*(?:[ap]\.?\s*m\.?)?)$/i.exec(t);
  const parts: [string, string] | null = iso ? [iso[1] ?? '', iso[2] ?? ''] : tail ? [tail[1] ?? '', tail[2] ?? ''] : null;
  if (!parts) return { ok: false, reason: `cannot read ${JSON.stringify(text)} as a date and time: write it as YYYY-MM-DDTHH:MM (e.g. 2012-10-16T22:15)` };
  const date = dateValue(parts[0], options);
  if (!date.ok) return date;
  const time = parseTime(parts[1]);
  if (typeof time === 'string') return { ok: false, reason: time };
  return { ok: true, value: `${date.value}T${formatTime(time)}`, ...(date.note ? { note: date.note } : {}) };
}

function monthValue(text: string): Normalized {
  const t = text.trim();
  let match = /^(\d{4})-(\d{1,2})$/.exec(t) ?? /^(\d{4})\/(\d{1,2})$/.exec(t);
  if (match) return monthOf(Number(match[1]), Number(match[2]), text);
  match = /^(\d{1,2})[/.-](\d{4})$/.exec(t);
  if (match) return monthOf(Number(match[2]), Number(match[1]), text);
  const words = t.replace(/,/g, ' ').split(/\s+/);
  const year = words.find((w) => /^\d{4}$/.test(w));
  const month = words.map(monthIndex).find((i) => i >= 0);
  if (year && month !== undefined) return monthOf(Number(year), month + 1, text);
  return { ok: false, reason: `cannot read ${JSON.stringify(text)} as a month: write it as YYYY-MM (e.g. 2012-10)` };
}

function monthOf(y: number, m: number, text: string): Normalized {
  if (m < 1 || m > 12) return { ok: false, reason: `${JSON.stringify(text)} has no month ${m}` };
  return { ok: true, value: `${pad(y, 4)}-${pad(m)}` };
}

function weekValue(text: string): Normalized {
  const t = text.trim();
  const yearFirst = /^(\d{4})-?\s*W(?:eek)?\s*(\d{1,2})$/i.exec(t);
  const weekFirst = /^W(?:eek)?\s*(\d{1,2})[\s,/-]+(\d{4})$/i.exec(t);
  const y = Number(yearFirst ? yearFirst[1] : weekFirst?.[2]);
  const w = Number(yearFirst ? yearFirst[2] : weekFirst?.[1]);
  if ((!yearFirst && !weekFirst) || w < 1 || w > 53) return { ok: false, reason: `cannot read ${JSON.stringify(text)} as a week: write it as YYYY-Www (e.g. 2012-W42)` };
  return { ok: true, value: `${pad(y, 4)}-W${pad(w)}` };
}

function colorValue(text: string): Normalized {
  const t = text.trim().toLowerCase();
  let match = /^#?([0-9a-f]{6})$/.exec(t);
  if (match) return { ok: true, value: `#${match[1]}` };
  match = /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(t);
  if (match) return { ok: true, value: `#${match.slice(1, 4).map((c) => `${c}${c}`).join('')}` };
  match = /^rgba?\(\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/.exec(t);
  if (match) {
    const channels = match.slice(1, 4).map(Number);
    if (channels.every((c) => c <= 255)) return { ok: true, value: `#${channels.map((c) => c.toString(16).padStart(2, '0')).join('')}` };
  }
  return { ok: false, reason: `cannot read ${JSON.stringify(text)} as a colour: write it as #rrggbb (e.g. #ff8800) or rgb(255, 136, 0)` };
}

function numberValue(text: string): Normalized {
  let t = text.trim().replace(/^[+]/, '').replace(/^[$€£¥]\s*/, '').replace(/\s*[%$€£¥]$/, '').replace(/[\s\u00a0\u202f']/g, '');
  if (t.includes(',') && t.includes('.')) {
    // Whichever separator comes last is the decimal point: 1,234.5 and 1.234,5 are both 1234.5.
    t = t.lastIndexOf(',') > t.lastIndexOf('.') ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
  } else if (/^-?\d{1,3}(,\d{3})+$/.test(t)) {
    t = t.replace(/,/g, '');
  } else {
    t = t.replace(',', '.');
  }
  if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return { ok: false, reason: `cannot read ${JSON.stringify(text)} as a number` };
  return { ok: true, value: String(Number(t)) };
}

/** The value a field of this kind stores for what the model wrote. */
export function normalizeValue(kind: ValueKind, text: string, options: NormalizeOptions = {}): Normalized {
  switch (kind) {
    case 'date':
      return dateValue(text, options);
    case 'time': {
      const time = parseTime(text);
      return typeof time === 'string' ? { ok: false, reason: time } : { ok: true, value: formatTime(time) };
    }
    case 'datetime-local':
      return dateTimeValue(text, options);
    case 'month':
      return monthValue(text);
    case 'week':
      return weekValue(text);
    case 'color':
      return colorValue(text);
    case 'number':
    case 'range':
      return numberValue(text);
  }
}

/** Whether two values of a field mean the same: a time field may store 22:15:00 for 22:15, a number 5.0 for 5. */
export function sameValue(kind: ValueKind, stored: string, wanted: string): boolean {
  if (stored === wanted) return true;
  if (kind === 'time' || kind === 'datetime-local') return stored.replace(/:00(\.0+)?$/, '') === wanted.replace(/:00(\.0+)?$/, '');
  if (kind === 'number' || kind === 'range') return stored !== '' && Number(stored) === Number(wanted);
  if (kind === 'color') return stored.toLowerCase() === wanted.toLowerCase();
  return false;
}

/**
 * Whether a text field holds what was written into it: the same text, or the same once a mask's spacing and
 * punctuation are set aside ("(555) 123-4567" for "5551234567"), or the same number ("3" for "3.0"). Anything else is
 * a value the page did not take, and the tool says so.
 */
export function heldAsWritten(held: string, written: string): boolean {
  if (held.trim() === written.trim()) return true;
  // A number is its value: its sign is no mask's punctuation.
  const number = /^[-+]?\d+(\.\d+)?$/;
  if (number.test(written.trim()) && number.test(held.trim())) return Number(held) === Number(written);
  if (/^[-+]/.test(written.trim())) return false;
  const bare = (text: string): string => text.replace(/[\s\p{P}\p{S}]+/gu, '').toLowerCase();
  return bare(written) !== '' && bare(held) === bare(written);
}
