import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../shared/protocol/chat-protocol';
import { dueFromText, extractPromises } from '../../../../shared/agent/support-promises';

// Wednesday 2026-11-25, 10:00 local time.
const NOW = new Date(2026, 10, 25, 10, 0, 0);
const day = (y: number, m: number, d: number): number => new Date(y, m - 1, d, 23, 59, 0, 0).getTime();
const them = (text: string, id = 'p1'): ChatMessage => ({ id, author: 'them', text, time: null, seenAt: NOW.getTime() });

describe('promise dates', () => {
  const cases: Array<[string, number]> = [
    ['in 5 days', day(2026, 11, 30)],
    ['within 5 business days', day(2026, 12, 2)],
    ['in five working days', day(2026, 12, 2)],
    ['within 3-5 business days', day(2026, 12, 2)],
    ['in 2 weeks', day(2026, 12, 9)],
    ['in a week', day(2026, 12, 2)],
    ['within 1 month', day(2026, 12, 25)],
    ['by Friday', day(2026, 11, 27)],
    ['by Wednesday', day(2026, 12, 2)],
    ['by next Monday', day(2026, 11, 30)],
    ['by 3 December', day(2026, 12, 3)],
    ['by the 3rd of December', day(2026, 12, 3)],
    ['by Dec 3', day(2026, 12, 3)],
    ['by January 10th', day(2027, 1, 10)],
    ['by 2026-12-14', day(2026, 12, 14)],
    ['tomorrow', day(2026, 11, 26)],
    ['by the end of the week', day(2026, 11, 27)],
  ];
  for (const [phrase, due] of cases) {
    it(`"${phrase}"`, () => {
      expect(dueFromText(`Your refund will be issued ${phrase}.`, NOW)?.dueAt).toBe(due);
    });
  }
  it('hours count from now', () => {
    expect(dueFromText('We will call you back within 48 hours', NOW)?.dueAt).toBe(NOW.getTime() + 48 * 3_600_000);
  });
});

describe('extractPromises', () => {
  const promises = [
    'Your refund will arrive in 5 business days.',
    "We'll send you a prepaid return label by Friday.",
    'A replacement should arrive within 3-5 working days.',
    'Our team will contact you by 3 December.',
    'The refund has been issued and you should see it within 10 days.',
  ];
  for (const text of promises) {
    it(`finds "${text}"`, () => {
      const found = extractPromises([them(`Thanks for waiting. ${text} Anything else?`)], NOW);
      expect(found).toHaveLength(1);
      expect(found[0]!.quote).toBe(text);
      expect(found[0]!.dueAt).toBeGreaterThan(NOW.getTime());
    });
  }

  const notPromises = [
    'Would you like a refund in 5 days?',
    'Returns are accepted within 30 days of delivery',
    'If we cannot fix it by Friday we will refund you.',
    'Our opening hours are Monday to Friday.',
    'I will look into this for you.',
  ];
  for (const text of notPromises) {
    it(`is not a dated promise: "${text}"`, () => {
      expect(extractPromises([them(text)], NOW)).toEqual([]);
    });
  }

  it('only takes the other side\'s words', () => {
    const ours: ChatMessage = { id: 'u1', author: 'us', text: 'You will refund me in 5 days, right?', time: null, seenAt: NOW.getTime() };
    expect(extractPromises([ours], NOW)).toEqual([]);
  });
});
