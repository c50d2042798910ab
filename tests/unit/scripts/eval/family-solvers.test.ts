import { describe, expect, it } from 'vitest';
import { durationMinutes, gridTarget, tickets } from '../../../../scripts/eval/expressible/solvers-families';
import { Unsolvable } from '../../../../scripts/eval/expressible/solver-kit';

// The pure readers behind the expressible eval's family solutions: durations and ticket buttons as the snapshot writes
// them, and the places a 3×3 grid instruction names, for every item and every wording the page can pose.

describe('durationMinutes', () => {
  it.each([
    ['7h 6m', 426],
    ['0h 26m', 26],
    ['17h 5m', 1025],
    ['12h', 720],
    ['45m', 45],
  ])('%s is %i minutes', (text, minutes) => expect(durationMinutes(text)).toBe(minutes));
});

describe('tickets', () => {
  it('pairs each Book button with the duration written above it, in both wordings', () => {
    for (const word of ['Book for', 'Book flight for']) {
      const rows = [[2, 1009, '7h 6m'], [4, 725, '17h 5m'], [6, 1025, '9h 8m']] as const;
      const text = ['Page: x', 'Buy the ticket with the cheapest cost.', ...rows.flatMap(([ref, price, duration]) => [`*[${ref - 1}] label "Duration:"`, duration, `[${ref}] button "${word} $${price}"`])].join('\n');
      expect(tickets(text)).toEqual(rows.map(([ref, price, duration]) => ({ ref, price, minutes: durationMinutes(duration) })));
    }
  });

  it('says which button has no duration above it', () => {
    expect(() => tickets('[2] button "Book for $10"')).toThrow(Unsolvable);
  });
});

describe('gridTarget', () => {
  const names = ['top left', 'top center', 'top right', 'center left', 'center', 'center right', 'bottom left', 'bottom center', 'bottom right'];
  it('finds every named place from every item', () => {
    for (let from = 0; from < 9; from += 1) names.forEach((name, place) => expect(gridTarget(from, `to the ${name}`)).toBe(place));
  });

  it('moves by one in each direction the page offers from each item', () => {
    for (let from = 0; from < 9; from += 1) {
      const [row, col] = [Math.floor(from / 3), from % 3];
      if (row > 0) expect(gridTarget(from, 'up by one')).toBe(from - 3);
      if (row < 2) expect(gridTarget(from, 'down by one')).toBe(from + 3);
      if (col > 0) expect(gridTarget(from, 'left by one')).toBe(from - 1);
      if (col < 2) expect(gridTarget(from, 'right by one')).toBe(from + 1);
    }
  });

  it('refuses a wording it cannot read', () => {
    expect(() => gridTarget(0, 'somewhere nice')).toThrow(/cannot read/);
  });
});
