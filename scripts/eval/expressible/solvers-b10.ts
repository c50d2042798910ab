import { find, findAll, lines, said, type SolverKit, Unsolvable } from './solver-kit';
import { submit, type Solver } from './solvers-forms';
import { sight, queryBar } from './solvers-sight';
import { blobs } from './solvers-sight9';

/**
 * Families solved through what the model is sent (issue 26, round 10): the snapshot after each step, and the
 * screenshot where the page shows a thing only as a picture. Each acts through Deputy's tools.
 */

const click = (k: SolverKit, ref: number) => k.act({ kind: 'click', ref });

/**
 * Words of like meaning, as a model knows them: a word is similar to another when both are in one group. A plural
 * is its singular's word.
 */
const THESAURUS: string[][] = [
  ['big', 'large', 'huge', 'enormous', 'gigantic', 'giant', 'vast'],
  ['small', 'tiny', 'little', 'mini', 'petite', 'minute'],
  ['red', 'scarlet', 'crimson', 'vermillion', 'vermilion', 'ruby'],
  ['happy', 'cheerful', 'joyful', 'gleeful', 'delighted', 'glad'],
  ['sad', 'unhappy', 'sorrowful', 'miserable', 'tragic', 'gloomy'],
  ['angry', 'mad', 'furious', 'irritated', 'irate'],
  ['evil', 'wicked', 'immoral', 'sinful', 'corrupt', 'depraved', 'vile'],
  ['wrong', 'incorrect', 'mistaken', 'erroneous', 'false'],
  ['real', 'genuine', 'actual', 'authentic'],
  ['strange', 'odd', 'peculiar', 'unusual', 'weird', 'bizarre'],
  ['stop', 'cease', 'halt', 'end', 'finish', 'quit'],
  ['scared', 'terrified', 'panicked', 'fearful', 'frightened', 'afraid'],
  ['quiet', 'calm', 'peaceful', 'serene', 'mild', 'tranquil'],
  ['old', 'aged', 'archaic', 'ancient'],
  ['love', 'like', 'adore', 'favor', 'favour', 'cherish'],
  ['kill', 'murder', 'assassinate', 'slay'],
  ['keep', 'retain', 'preserve', 'sustain', 'maintain'],
  ['hide', 'conceal', 'camouflage', 'cloak'],
  ['hate', 'despise', 'loathe', 'detest', 'dislike'],
  ['funny', 'humorous', 'amusing', 'comical', 'laughable', 'hilarious'],
  ['fat', 'fleshy', 'plump', 'chubby', 'stout'],
  ['stupid', 'dumb', 'dull', 'unwise', 'foolish'],
  ['delicious', 'savory', 'savoury', 'delectable', 'appetizing', 'tasty'],
  ['cut', 'slice', 'carve', 'chop'],
  ['brave', 'courageous', 'fearless', 'bold'],
  ['begin', 'start', 'initiate', 'launch', 'commence'],
  ['answer', 'reply', 'response', 'respond'],
  ['television', 'tv'],
  ['house', 'home', 'dwelling'],
  ['fire', 'flame', 'blaze'],
  ['pig', 'pork', 'swine', 'hog'],
  ['rabbit', 'bunny', 'hare'],
  ['car', 'automobile', 'vehicle', 'auto'],
  ['water'],
];

/** A word's group in the thesaurus (its plural too), or the word itself when it is in none. */
function meaning(word: string): string {
  const w = word.toLowerCase().trim();
  for (const form of [w, w.replace(/ies$/, 'y'), w.replace(/s$/, '')]) {
    const group = THESAURUS.find((g) => g.includes(form));
    if (group) return group[0] ?? form;
  }
  return w;
}

/** MiniWoB's example digits are 4 × 7 cells, white where a box is to be checked. */
const DIGIT_ROWS = 7;
const DIGIT_COLUMNS = 4;

type Half = { ref: number; hour: number; half: number; covered: boolean };

/** The calendar's half-hours: the two numbered cells after each hour's label ("8am"), in the snapshot's order. */
function halfHours(text: string): Half[] {
  const out: Half[] = [];
  let hour = -1;
  let seen = 0;
  for (const row of text.split('\n')) {
    const cell = lines(row)[0];
    if (cell) {
      if (hour >= 0 && cell.role === 'clickable' && seen < 2) out.push({ ref: cell.ref, hour, half: seen++, covered: /\bcovered\b/.test(cell.rest) });
      continue;
    }
    const label = /(\d{1,2})(am|pm)\s*$/i.exec(row);
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

/** The hot-cold page's answers, nearest first, and how far (in page pixels) each reaches. */
const BANDS: [string, number, number][] = [
  ['HOT', 0, 5],
  ['WARM', 5, 10],
  ['COLD', 10, 40],
  ['ICE COLD', 40, Infinity],
];

export const B10_SOLVERS: Record<string, Solver> = {
  'click-checkboxes-soft': async (k) => {
    const [list = ''] = said(k.text, /Select words similar to (.*?) and click Submit/);
    const wanted = new Set(list === 'nothing' ? [] : list.split(/,\s*/).map(meaning));
    for (const box of findAll(k.text, 'checkbox')) {
      if (wanted.has(meaning(box.name))) await k.act({ kind: 'check', ref: box.ref, checked: true });
    }
    await submit(k);
  },
  // The example is a picture of 4 × 7 cells beside the boxes: each white cell is a box to check, row by row.
  'number-checkboxes': async (k) => {
    const boxes = findAll(k.text, 'checkbox');
    if (boxes.length !== DIGIT_ROWS * DIGIT_COLUMNS) throw new Unsolvable(`${boxes.length} checkboxes, not a 4 × 7 grid`);
    const pixels = await sight(k);
    const bar = queryBar(pixels);
    const area = { x0: bar.x0, y0: bar.y1 + 1, x1: bar.x1, y1: Math.min(pixels.height, bar.y1 + (bar.x1 - bar.x0)) };
    const frame = blobs(pixels, area, ([r, g, b]) => r + g + b < 200).sort((a, b) => b.size - a.size)[0];
    if (!frame || frame.size < 200) throw new Unsolvable('the screenshot shows no example');
    const width = (frame.x1 - frame.x0) / DIGIT_COLUMNS;
    const height = (frame.y1 - frame.y0) / DIGIT_ROWS;
    for (let row = 0; row < DIGIT_ROWS; row += 1) {
      for (let column = 0; column < DIGIT_COLUMNS; column += 1) {
        const [r, g, b] = pixels.at(frame.x0 + (column + 0.5) * width, frame.y0 + (row + 0.5) * height);
        const box = boxes[row * DIGIT_COLUMNS + column];
        if (box && r + g + b > 600) await k.act({ kind: 'check', ref: box.ref, checked: true });
      }
    }
    await submit(k);
  },
  // An event is made by dragging over the half-hours it takes, then named in the form that opens.
  'daily-calendar': async (k) => {
    const [amount = '', unit = '', name = '', from = '', to = ''] = said(k.text, /Create an? ([\d.]+) (hours?|mins) event named "(.+?)", between (\w+) and (\w+)\./);
    const halves = Math.round(unit === 'mins' ? Number(amount) / 30 : Number(amount) * 2);
    let cells = halfHours(k.text);
    // The page's cells act through listeners, found at each look: looked at again when a look found none.
    for (let look = 0; look < 3 && cells.length === 0; look += 1) {
      await k.act({ kind: 'wait', seconds: 0.2 });
      cells = halfHours(k.text);
    }
    // The event goes where the pointer can reach every half-hour it takes: none covered by another event, nor the
    // one after, which an event drawn from there overlaps at its top. Only a half-hour in view can be seen to be
    // covered: each place is scrolled into view (to the half-hour after it) and looked at before it is taken.
    const end = hourOf(to) + (hourOf(to) <= hourOf(from) ? 24 : 0);
    const inside = (cell: Half | undefined) => cell !== undefined && cell.hour >= hourOf(from) && cell.hour < end;
    let first: Half | undefined;
    let last: Half | undefined;
    for (let i = cells.findIndex(inside); i >= 0 && inside(cells[i + halves - 1]) && !first; i += 1) {
      const after = cells[i + halves] ?? cells[i + halves - 1];
      if (after) await k.act({ kind: 'scroll', ref: after.ref });
      const seen = halfHours(k.text);
      if (process.env.EXPRESSIBLE_DEBUG) process.stderr.write(`calendar ${i}: ${seen.map((c) => `${c.ref}${c.covered ? "c" : ""}`).join(" ")}\n`);
      const place = seen.slice(i, i + halves + 1);
      if (place.length === halves + 1 && place.every((cell) => !cell.covered)) [first, last] = [place[0], place[halves - 1]];
    }
    if (!first || !last) throw new Unsolvable(`no ${halves} free half-hours between ${from} and ${to} in the calendar`);
    // Over one half-hour the pointer still moves, within it.
    if (first === last) await k.act({ kind: 'drag', ref: first.ref, dx: 10, dy: 0 });
    else await k.act({ kind: 'drag', ref: first.ref, toRef: last.ref });
    await k.act({ kind: 'type', ref: find((await k.look()).text, 'textbox').ref, text: name, clear: true, submit: false });
    await click(k, find(k.text, 'button', /^create$/i).ref);
  },
  // Warmer or colder, as the page says under the pointer: every place still possible is kept, and the pointer goes
  // where the answer would halve them best, until one place is hot.
  'hot-cold': async (k) => {
    const pixels = await sight(k);
    const bar = queryBar(pixels);
    // The task column is 160 page pixels wide: that gives the screenshot's scale, and the page's distances in it.
    const scale = (bar.x1 - bar.x0 + 1) / 160;
    const area = { x0: bar.x0, y0: bar.y1 + 1, x1: bar.x1, y1: bar.y1 + 1 + 160 * scale };
    let places: [number, number][] = [];
    for (let y = area.y0; y < area.y1; y += 1) for (let x = area.x0; x < area.x1; x += 1) places.push([x, y]);
    const band = (d: number) => BANDS.findIndex(([, low, high]) => d >= low * scale && d < high * scale);
    for (let turn = 0; turn < 14; turn += 1) {
      // The probe that leaves the fewest places in its worst answer, among a grid of candidates.
      let best = { x: 0, y: 0, worst: Infinity };
      const step = Math.max(2, Math.round(Math.sqrt(((area.x1 - area.x0) * (area.y1 - area.y0)) / 150)));
      const pool = places.length < 300 ? places : places.filter(([x, y]) => x % step === 0 && y % step === 0);
      for (const [x, y] of pool.length ? pool : places) {
        const counts = BANDS.map(() => 0);
        for (const [px, py] of places) {
          const seen = band(Math.hypot(px - x, py - y));
          counts[seen] = (counts[seen] ?? 0) + 1;
        }
        const worst = Math.max(...counts);
        if (worst < best.worst) best = { x, y, worst };
      }
      await k.act({ kind: 'hover_at', x: best.x, y: best.y });
      const answer = /^(?:\[\d+\] \w+ ")?(HOT|WARM|COLD|ICE COLD)"?$/m.exec(k.text)?.[1];
      if (!answer) throw new Unsolvable('the page said nothing under the pointer');
      if (answer === 'HOT') return k.act({ kind: 'click_at', x: best.x, y: best.y });
      const seen = BANDS.findIndex(([word]) => word === answer);
      places = places.filter(([px, py]) => band(Math.hypot(px - best.x, py - best.y)) === seen);
      if (places.length === 0) throw new Unsolvable('no place fits every answer');
    }
    throw new Unsolvable('fourteen probes found no hot place');
  },
};
