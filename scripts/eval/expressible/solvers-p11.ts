import { find, lines, said, Unsolvable } from './solver-kit';
import type { Solver } from './solvers-forms';

/**
 * Families solved through what the model is sent (issue 26, round 11): a day that scrolls on its own, read by the
 * marks the snapshot gives its half-hours (covered by an event, offscreen in the day's box) after scrolling one into
 * view by its ref.
 */

type Half = { ref: number; hour: number; half: number; covered: boolean; offscreen: boolean };

/** The calendar's half-hours: the two numbered cells after each hour's label ("8am"), in the snapshot's order. */
function halfHours(text: string): Half[] {
  const out: Half[] = [];
  let hour = -1;
  let seen = 0;
  for (const row of text.split('\n')) {
    const cell = lines(row)[0];
    if (cell) {
      if (hour >= 0 && cell.role === 'clickable' && seen < 2) {
        out.push({ ref: cell.ref, hour, half: seen++, covered: /\bcovered\b/.test(cell.rest), offscreen: /\boffscreen\b/.test(cell.rest) });
      }
      continue;
    }
    // The day's labels are written in lower case ("8am"); the instruction's times are not ("8AM").
    const label = /\b(\d{1,2})(am|pm)\b/.exec(row);
    if (label) {
      hour = (Number(label[1]) % 12) + (label[2]?.toLowerCase() === 'pm' ? 12 : 0);
      seen = 0;
    }
  }
  return out;
}

/** A clock time of the instruction ("8AM", "12PM") as an hour of the day. */
function hourOf(time: string): number {
  const m = /(\d{1,2})\s*(AM|PM)/i.exec(time);
  if (!m) throw new Unsolvable(`not a time: ${time}`);
  return (Number(m[1]) % 12) + (m[2]?.toUpperCase() === 'PM' ? 12 : 0);
}

/** A half-hour's place in the day, in half-hours from midnight. */
const slot = (cell: Half): number => cell.hour * 2 + cell.half;

export const P11_SOLVERS: Record<string, Solver> = {
  // An event is made by dragging over the half-hours it takes, then named in the form that opens. The pointer must reach
  // every half-hour it passes: none covered by another event, nor the one after (an event drawn from there overlaps its
  // top). Only what shows in the day's box can be seen free: a place is scrolled into view by the ref of its last
  // half-hour, and the marks then say which places show free.
  'daily-calendar': async (k) => {
    const [amount = '', unit = '', name = '', from = '', to = ''] = said(k.text, /Create an? ([\d.]+) (hours?|mins) event named "(.+?)", between (\w+) and (\w+)\./);
    const halves = Math.round(unit === 'mins' ? Number(amount) / 30 : Number(amount) * 2);
    let cells = halfHours(k.text);
    // The page's cells act through listeners, found at each look: looked at again when a look found none.
    for (let look = 0; look < 3 && cells.length === 0; look += 1) {
      await k.act({ kind: 'wait', seconds: 0.2 });
      cells = halfHours(k.text);
    }
    const start = hourOf(from) * 2;
    const end = (hourOf(to) + (hourOf(to) <= hourOf(from) ? 24 : 0)) * 2;
    let place: Half[] | undefined;
    // Each look shows a few hours of the day: scrolled on by the last half-hour a place could end on, until one shows.
    for (let last = start + halves - 1; last < end && !place; last += 4) {
      const cell = cells.find((c) => slot(c) === Math.min(last + 2, end - 1));
      if (cell) await k.act({ kind: 'scroll', ref: cell.ref });
      const seen = halfHours(k.text);
      const at = new Map(seen.map((c) => [slot(c), c]));
      for (let first = start; first + halves <= end && !place; first += 1) {
        const run = Array.from({ length: halves + 1 }, (_, i) => at.get(first + i));
        if (run.every((c) => c && !c.covered && !c.offscreen)) place = run.slice(0, halves) as Half[];
      }
    }
    const [first, last] = [place?.[0], place?.at(-1)];
    if (!first || !last) throw new Unsolvable(`no ${halves} free half-hours between ${from} and ${to} show in the calendar`);
    // Over one half-hour the pointer still moves, within it.
    if (first === last) await k.act({ kind: 'drag', ref: first.ref, dx: 10, dy: 0 });
    else await k.act({ kind: 'drag', ref: first.ref, toRef: last.ref });
    await k.act({ kind: 'type', ref: find((await k.look()).text, 'textbox').ref, text: name, clear: true, submit: false });
    await k.act({ kind: 'click', ref: find(k.text, 'button', /^create$/i).ref });
  },
};
