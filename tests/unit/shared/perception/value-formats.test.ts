import { describe, expect, it } from 'vitest';
import { heldAsWritten, normalizeValue, sameValue } from '../../../../shared/perception/value-formats';

const value = (kind: Parameters<typeof normalizeValue>[0], text: string, locale?: string): string => {
  const result = normalizeValue(kind, text, locale ? { locale } : {});
  return result.ok ? result.value : `error: ${result.reason}`;
};

describe('normalizeValue', () => {
  it('reads dates as people write them into the form a date field stores', () => {
    expect(value('date', '10/16/2012')).toBe('2012-10-16');
    expect(value('date', '16/10/2012', 'en-GB')).toBe('2012-10-16');
    expect(value('date', '16.10.2012')).toBe('2012-10-16');
    expect(value('date', '2012-10-16')).toBe('2012-10-16');
    expect(value('date', 'October 16, 2012')).toBe('2012-10-16');
    expect(value('date', 'Tue, 16 Oct 2012')).toBe('2012-10-16');
    expect(value('date', '3/4/12', 'en-US')).toBe('2012-03-04');
    expect(value('date', '3/4/12', 'fr')).toBe('2012-04-03');
  });

  it('says how it read an ambiguous date, and refuses what is not a date', () => {
    const ambiguous = normalizeValue('date', '03/04/2025', { locale: 'en-US' });
    expect(ambiguous.ok && ambiguous.note).toBe('read "03/04/2025" as month/day/year (the page\'s language is en-US)');
    expect(value('date', '02/30/2024')).toMatch(/^error: "02\/30\/2024" is not a real date/);
    expect(value('date', 'next tuesday')).toMatch(/^error: cannot read "next tuesday" as a date: write it as YYYY-MM-DD/);
  });

  it('reads times with AM/PM, seconds and 24-hour clocks', () => {
    expect(value('time', '10:15 PM')).toBe('22:15');
    expect(value('time', '10:15pm')).toBe('22:15');
    expect(value('time', '12:05 AM')).toBe('00:05');
    expect(value('time', '12 PM')).toBe('12:00');
    expect(value('time', '7:05:30')).toBe('07:05:30');
    expect(value('time', '25:00')).toMatch(/^error: /);
    expect(value('time', '13:00 PM')).toMatch(/^error: "13:00 PM" has an hour of 13/);
  });

  it('reads dates with times, months, weeks, colours and numbers', () => {
    expect(value('datetime-local', '10/16/2012 10:15 PM')).toBe('2012-10-16T22:15');
    expect(value('datetime-local', '2012-10-16T22:15')).toBe('2012-10-16T22:15');
    expect(value('datetime-local', 'October 16, 2012 at 9:30')).toBe('2012-10-16T09:30');
    expect(value('month', 'October 2012')).toBe('2012-10');
    expect(value('month', '10/2012')).toBe('2012-10');
    expect(value('week', '2012-W42')).toBe('2012-W42');
    expect(value('week', 'week 7, 2013')).toBe('2013-W07');
    expect(value('color', '#F80')).toBe('#ff8800');
    expect(value('color', 'rgb(255, 136, 0)')).toBe('#ff8800');
    expect(value('color', 'mauve-ish')).toMatch(/^error: cannot read "mauve-ish" as a colour/);
    expect(value('number', '1,250')).toBe('1250');
    expect(value('number', '1.234,5')).toBe('1234.5');
    expect(value('number', '$ 12.50')).toBe('12.5');
    expect(value('range', '42')).toBe('42');
    expect(value('number', 'twelve')).toMatch(/^error: /);
  });
});

describe('sameValue', () => {
  it('treats what a field stores as the same value as what was asked for', () => {
    expect(sameValue('time', '22:15:00', '22:15')).toBe(true);
    expect(sameValue('number', '5.0', '5')).toBe(true);
    expect(sameValue('range', '50', '45')).toBe(false);
    expect(sameValue('date', '', '2012-10-16')).toBe(false);
  });
});

describe('heldAsWritten', () => {
  it('accepts the same text, a mask of it, or the same number', () => {
    expect(heldAsWritten('Alba', 'Alba')).toBe(true);
    expect(heldAsWritten(' Alba ', 'Alba')).toBe(true);
    expect(heldAsWritten('(555) 123-4567', '5551234567')).toBe(true);
    expect(heldAsWritten('3', '3.0')).toBe(true);
    expect(heldAsWritten('-4', '-4')).toBe(true);
  });

  it('refuses a value the page changed or did not take', () => {
    expect(heldAsWritten('0', '-4')).toBe(false);
    expect(heldAsWritten('4', '-4')).toBe(false);
    expect(heldAsWritten('Alb', 'Alba')).toBe(false);
    expect(heldAsWritten('', 'x')).toBe(false);
    expect(heldAsWritten('12/01/2020', '12/02/2020')).toBe(false);
  });
});
