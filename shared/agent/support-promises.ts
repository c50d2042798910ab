import type { ChatMessage } from '../protocol/chat-protocol';

/**
 * The other side's promises with a date ("your refund will arrive in 5 business days", "we'll call you by Friday"):
 * quoted word for word, with the day they fall due, so a case can remind the user and reopen itself.
 */
export interface SupportPromise {
  messageId: string;
  /** The sentence that holds the promise, as they wrote it. */
  quote: string;
  /** The words that give the date ("in 5 business days"). */
  when: string;
  /** When it falls due, epoch milliseconds (end of that day, local time). */
  dueAt: number;
}

const COMMIT = /\b(will|we'll|we’ll|you'll|you’ll|shall|should (?:arrive|reach|receive|see|be)|expect|is (?:being )?(?:processed|issued|scheduled)|has been (?:issued|scheduled|approved)|going to|promise|guarantee)\b/i;
const SUBJECT = /\b(refund|credit|money|reimburs|replacement|deliver|arriv|ship|dispatch|call|contact|email|reply|respond|get back|follow up|process|resolv|fix|repair|collect|pick ?up|cancel|return|compensat|voucher|label)/i;

const NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fourteen: 14, fifteen: 15, twenty: 20, thirty: 30 };
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const NUM = `(\\d{1,3}|${Object.keys(NUMBERS).join('|')})`;
const RANGE = `(?:${NUM}\\s*(?:-|–|to|or)\\s*)?${NUM}`;
const RELATIVE = new RegExp(`\\b(?:in|within|over the next|next|after)\\s+(?:the\\s+next\\s+)?${RANGE}\\s+(business|working)?\\s*(hours?|days?|weeks?|months?)\\b`, 'i');
const WEEKDAY = new RegExp(`\\b(?:by|on|before|until|this|next)\\s+(?:(?:this|next)\\s+)?(${WEEKDAYS.join('|')})\\b`, 'i');
const DAY_MONTH = new RegExp(`\\b(?:by|on|before|until)\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+(${MONTHS.join('|')})[a-z]*\\b`, 'i');
const MONTH_DAY = new RegExp(`\\b(?:by|on|before|until)\\s+(${MONTHS.join('|')})[a-z]*\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'i');
const ISO = /\b(?:by|on|before|until)\s+(\d{4})-(\d{2})-(\d{2})\b/i;
const TOMORROW = /\b(tomorrow|end of (?:the )?(?:day|today)|end of (?:the )?week|end of (?:the )?month)\b/i;

function count(word: string | undefined): number | null {
  if (!word) return null;
  const lower = word.toLowerCase();
  if (/^\d+$/.test(lower)) return Number(lower);
  return NUMBERS[lower] ?? null;
}

function endOfDay(date: Date): number {
  const copy = new Date(date);
  copy.setHours(23, 59, 0, 0);
  return copy.getTime();
}

function addBusinessDays(from: Date, days: number): Date {
  const date = new Date(from);
  let left = days;
  while (left > 0) {
    date.setDate(date.getDate() + 1);
    const day = date.getDay();
    if (day !== 0 && day !== 6) left--;
  }
  return date;
}

/** The due time a date phrase names, seen from `now`; null when the sentence names none. */
export function dueFromText(text: string, now: Date): { when: string; dueAt: number } | null {
  const relative = RELATIVE.exec(text);
  if (relative) {
    // "3-5 days" is due at its far end: the promise is kept until then.
    const n = count(relative[2]) ?? count(relative[1]);
    if (n !== null && n > 0 && n <= 366) {
      const unit = relative[4]!.toLowerCase().replace(/s$/, '');
      const business = Boolean(relative[3]);
      let due: Date;
      if (unit === 'hour') return { when: relative[0], dueAt: now.getTime() + n * 3_600_000 };
      if (unit === 'day') due = business ? addBusinessDays(now, n) : new Date(now.getTime() + n * 86_400_000);
      else if (unit === 'week') due = business ? addBusinessDays(now, n * 5) : new Date(now.getTime() + n * 7 * 86_400_000);
      else {
        due = new Date(now);
        due.setMonth(due.getMonth() + n);
      }
      return { when: relative[0], dueAt: endOfDay(due) };
    }
  }
  const iso = ISO.exec(text);
  if (iso) {
    const due = new Date(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
    if (!Number.isNaN(due.getTime())) return { when: iso[0], dueAt: endOfDay(due) };
  }
  const dayMonth = DAY_MONTH.exec(text);
  const monthDay = MONTH_DAY.exec(text);
  if (dayMonth || monthDay) {
    const day = Number(dayMonth ? dayMonth[1] : monthDay![2]);
    const month = MONTHS.indexOf((dayMonth ? dayMonth[2]! : monthDay![1]!).slice(0, 3).toLowerCase());
    if (day >= 1 && day <= 31 && month >= 0) {
      const due = new Date(now.getFullYear(), month, day);
      // A date already past this year is next year's (said in December about January).
      if (endOfDay(due) < now.getTime()) due.setFullYear(due.getFullYear() + 1);
      return { when: (dayMonth ?? monthDay)![0], dueAt: endOfDay(due) };
    }
  }
  const weekday = WEEKDAY.exec(text);
  if (weekday) {
    const target = WEEKDAYS.indexOf(weekday[1]!.toLowerCase());
    const due = new Date(now);
    let ahead = (target - now.getDay() + 7) % 7;
    if (ahead === 0) ahead = 7;
    due.setDate(due.getDate() + ahead);
    return { when: weekday[0], dueAt: endOfDay(due) };
  }
  const tomorrow = TOMORROW.exec(text);
  if (tomorrow) {
    const phrase = tomorrow[1]!.toLowerCase();
    const due = new Date(now);
    if (phrase === 'tomorrow') due.setDate(due.getDate() + 1);
    else if (phrase.includes('week')) due.setDate(due.getDate() + ((5 - due.getDay() + 7) % 7));
    else if (phrase.includes('month')) due.setMonth(due.getMonth() + 1, 0);
    return { when: tomorrow[0], dueAt: endOfDay(due) };
  }
  return null;
}

/** Sentences of a message (keeping their own punctuation). */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).map((part) => part.trim()).filter(Boolean);
}

/** The other side's promises with a date in the transcript, oldest first, one per sentence. */
export function extractPromises(messages: readonly ChatMessage[], now: Date = new Date()): SupportPromise[] {
  const found: SupportPromise[] = [];
  for (const message of messages) {
    if (message.author !== 'them') continue;
    const seen = Number.isFinite(message.seenAt) && message.seenAt > 0 ? new Date(message.seenAt) : now;
    for (const sentence of sentences(message.text)) {
      if (!COMMIT.test(sentence) || !SUBJECT.test(sentence)) continue;
      // A question or a condition is not a promise: "Would you like a refund in 5 days?", "If we can't, …".
      if (/\?\s*$/.test(sentence) || /^\s*(if|unless|once you)\b/i.test(sentence)) continue;
      const due = dueFromText(sentence, seen);
      if (due) found.push({ messageId: message.id, quote: sentence, when: due.when, dueAt: due.dueAt });
    }
  }
  return found;
}
