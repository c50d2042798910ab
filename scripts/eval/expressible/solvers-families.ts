import { exactly, find, findAll, lines, said, type SolverKit, SUBMIT, Unsolvable } from './solver-kit';
import { submit, type Solver } from './solvers-forms';
import { MORE_SOLVERS } from './solvers-more';

/**
 * Families whose controls the snapshot already numbers and names: each read off the text the model is sent (the
 * instruction, the numbered lines and the text between them) and done through Deputy's tools.
 */

const click = (k: SolverKit, ref: number) => k.act({ kind: 'click', ref });

/** "17h 5m" as minutes. */
export function durationMinutes(text: string): number {
  const m = /(?:(\d+)h)?\s*(?:(\d+)m)?/.exec(text.trim());
  return Number(m?.[1] ?? 0) * 60 + Number(m?.[2] ?? 0);
}

/** Each "Book for $N" (or "Book flight for $N") button with the duration written above it. */
export function tickets(text: string): { ref: number; price: number; minutes: number }[] {
  const out: { ref: number; price: number; minutes: number }[] = [];
  const rows = text.split('\n');
  rows.forEach((row, i) => {
    const button = /^\*?\[(\d+)\] button "Book (?:flight )?for \$(\d+(?:\.\d+)?)"/.exec(row);
    if (!button) return;
    const duration = rows
      .slice(0, i)
      .reverse()
      .find((line) => /^\d+h|^\d+m/.test(line.trim()));
    if (!duration) throw new Unsolvable(`no duration written above "${row}"`);
    out.push({ ref: Number(button[1]), price: Number(button[2]), minutes: durationMinutes(duration) });
  });
  return out;
}

/** The index (0-based) in a 3×3 grid a drag-items-grid instruction asks for, from the item's own index. */
export function gridTarget(from: number, where: string): number {
  const places: Record<string, number> = {
    'top left': 0, 'top center': 1, 'top right': 2, 'center left': 3, center: 4, 'center right': 5, 'bottom left': 6, 'bottom center': 7, 'bottom right': 8,
  };
  const place = /^to the (.+)$/.exec(where)?.[1];
  if (place !== undefined && places[place] !== undefined) return places[place];
  const moves: Record<string, number> = { up: -3, down: 3, left: -1, right: 1 };
  const move = /^(up|down|left|right) by one$/.exec(where)?.[1];
  if (move) return from + (moves[move] ?? 0);
  throw new Unsolvable(`a place in the grid the script cannot read: "${where}"`);
}

/** CSS's named colours (the basic keywords and the few extended ones pages use), as hex: what a person knows by name. */
export const CSS_COLOURS: Record<string, string> = {
  black: '000000', white: 'FFFFFF', aqua: '00FFFF', cyan: '00FFFF', blue: '0000FF', gray: '808080', grey: '808080', green: '008000', lime: '00FF00',
  maroon: '800000', navy: '000080', olive: '808000', purple: '800080', red: 'FF0000', silver: 'C0C0C0', teal: '008080', yellow: 'FFFF00',
  pink: 'FFC0CB', magenta: 'FF00FF', fuchsia: 'FF00FF', gold: 'FFD700', orange: 'FFA500',
};

export const FAMILY_SOLVERS: Record<string, Solver> = {
  'buy-ticket': async (k) => {
    const [wish = ''] = said(k.text, /Buy the ticket with the (cheapest cost|shortest duration|longest duration|most expensive cost)/);
    const all = tickets(k.text);
    if (all.length === 0) throw new Unsolvable('no ticket is numbered');
    const key = (t: { price: number; minutes: number }) => (wish === 'cheapest cost' ? t.price : wish === 'most expensive cost' ? -t.price : wish === 'shortest duration' ? t.minutes : -t.minutes);
    const best = all.reduce((a, b) => (key(b) < key(a) ? b : a));
    await click(k, best.ref);
  },
  'form-sequence-3': async (k) => {
    const [choice = '', label = ''] = said(k.text, /Choose (.+?) from the dropdown, then click the button labeled "(.+?)"/);
    await k.act({ kind: 'select', ref: find(k.text, 'combobox').ref, values: [choice] });
    // This dropdown's own list opens over the buttons: the choice in it is clicked, as a person would close it.
    const listed = findAll(k.text, 'clickable', exactly(choice))[0];
    if (listed) await click(k, listed.ref);
    await click(k, find((await k.look()).text, 'button', exactly(label)).ref);
  },
  'multi-orderings': (k) => (MORE_SOLVERS['multi-layouts'] as Solver)(k),
  'stock-market': async (k) => {
    const [symbol = '', bound = ''] = said(k.text, /Buy (\S+) stock when the price is less than \$(\d+(?:\.\d+)?)/);
    // The price moves by itself: watched as a person would watch it, step by step, and bought once it is low enough.
    // The price moves every tenth of a second by up to $1.50, and a step takes time: a price read now may have risen
    // by the time the click lands, so it is bought with a margin of about two spreads of the moves a step takes.
    let stepMs = 300;
    for (let turn = 0; turn < 200; turn += 1) {
      const shown = /Stock price:"\n\$(\d+(?:\.\d+)?)/.exec(k.text);
      const margin = 1.8 * Math.sqrt(Math.ceil(stepMs / 100));
      if (process.env.EXPRESSIBLE_DEBUG) process.stderr.write(`stock: ${shown?.[1]} bound ${bound} margin ${margin}\n`);
      if (shown && Number(shown[1]) <= Number(bound) - margin) return click(k, find(k.text, 'button', /^Buy$/).ref);
      const began = Date.now();
      await k.act({ kind: 'wait', seconds: 0.1 });
      stepMs = Date.now() - began;
    }
    throw new Unsolvable(`${symbol} never fell below $${bound}`);
  },
  'use-slider-2': async (k) => {
    const wanted = (said(k.text, /Set the sliders to the combination \[([-\d,\s]+)\]/)[0] ?? '').split(',').map((n) => Number(n.trim()));
    const handles = findAll(k.text, /^(slider|focusable)$/);
    if (handles.length !== wanted.length) throw new Unsolvable(`${wanted.length} values for ${handles.length} sliders`);
    for (const [i, handle] of handles.entries()) {
      const value = wanted[i] ?? 0;
      const set = await k.tryAct({ kind: 'set_value', ref: handle.ref, value: String(value) });
      if (set.ok) continue;
      // A slider without a value to set moves with its arrow keys; the value it shows is written under it.
      const now = Number(said(k.text, new RegExp(`\\[${handle.ref}\\][^\\n]*\\n(-?\\d+)`))[0]);
      if (now !== value) await k.act({ kind: 'press', ref: handle.ref, key: value > now ? 'ArrowRight' : 'ArrowLeft', times: Math.min(100, Math.abs(value - now)) });
      const after = Number(said((await k.look()).text, new RegExp(`\\[${handle.ref}\\][^\\n]*\\n(-?\\d+)`))[0]);
      if (after !== value) throw new Unsolvable(`slider ${i + 1} shows ${after} after the keys, not ${value}`);
    }
    await submit(k);
  },
  'drag-sort-numbers': async (k) => {
    // A selection sort by drags: the smallest of the unsorted rest is dragged before the first unsorted item.
    for (let place = 0; place < 12; place += 1) {
      const items = findAll((await k.look()).text, 'draggable', /^-?\d+$/);
      if (place >= items.length - 1) break;
      const rest = items.slice(place);
      const least = rest.reduce((a, b) => (Number(b.name) < Number(a.name) ? b : a));
      const first = rest[0];
      if (!first || least.ref === first.ref) continue;
      await k.act({ kind: 'drag', ref: least.ref, toRef: first.ref, position: 'before' });
    }
    const order = findAll((await k.look()).text, 'draggable', /^-?\d+$/).map((item) => Number(item.name));
    if (order.some((n, i) => i > 0 && n < (order[i - 1] ?? n))) throw new Unsolvable(`the list is ${order.join(', ')} after the drags`);
    await submit(k, SUBMIT);
  },
  'drag-single-shape': async (k) => {
    const [direction = ''] = said(k.text, /Drag the (?:item|circle) (up|down|left|right) then press Submit/);
    const step = 25;
    const [dx, dy] = { up: [0, -step], down: [0, step], left: [-step, 0], right: [step, 0] }[direction] ?? [0, 0];
    // The item is the one numbered thing besides the Submit button.
    const item = findAll(k.text, /^(clickable|draggable|img|graphics-symbol)$/)[0];
    if (!item) throw new Unsolvable('the item to drag has no number');
    await k.act({ kind: 'drag', ref: item.ref, dx, dy });
    await submit(k);
  },
  'book-flight': bookFlight,
  'book-flight-nodelay': bookFlight,
  'click-pie': pie,
  'click-pie-nodelay': pie,
  'grid-coordinate': async (k) => {
    const [x = '', y = ''] = said(k.text, /Click on the grid coordinate \((-?\d+),\s*(-?\d+)\)/);
    // The axes are written under the grid ("x -2 -1 1 2", "y 2 1 -1 -2"): x grows to the right, y upwards, and the
    // cells are numbered row by row from the top left, as they are read.
    const cells = findAll(k.text, /^(clickable|button|gridcell)$/);
    const side = Math.round(Math.sqrt(cells.length));
    if (side * side !== cells.length || side % 2 === 0) throw new Unsolvable(`${cells.length} cells do not make a square grid around (0,0)`);
    const half = (side - 1) / 2;
    const cell = cells[(half - Number(y)) * side + (Number(x) + half)];
    if (!cell) throw new Unsolvable(`no cell at (${x},${y})`);
    await click(k, cell.ref);
  },
  'click-shape': async (k) => {
    const [wanted = ''] = said(k.text, /Click on an? (.+)\n/);
    // A letter or digit has its character as its name; a shape of a colour or size has no words, only a picture.
    const symbol = /^(?:(?:large|small) )?(?:(?:red|green|blue|aqua|black|magenta|yellow) )?(?:(?:item|letter|digit) )?(\w)$/.exec(wanted.trim())?.[1];
    if (!symbol) throw new Unsolvable(`"${wanted}" is a shape known only by its look: a solution needs sight (not scripted)`);
    const hits = findAll(k.text, /^(clickable|button|img|graphics-symbol)$/, exactly(symbol));
    if (hits.length === 0) throw new Unsolvable(`no "${symbol}" is numbered`);
    if (hits.length > 1 && wanted.trim() !== symbol) throw new Unsolvable(`${hits.length} "${symbol}"s, told apart only by colour or size: a solution needs sight (not scripted)`);
    await click(k, hits[0]?.ref ?? 0);
  },
  'drag-circle': async (k) => (FAMILY_SOLVERS['drag-single-shape'] as Solver)(k),
  'drag-items-grid': async (k) => {
    const [name = '', where = ''] = said(k.text, /Drag (\S+) (.+?)\.\n/);
    const items = findAll(k.text, 'draggable');
    const from = items.findIndex((item) => item.name === name);
    if (from < 0) throw new Unsolvable(`no item named ${name}`);
    const to = gridTarget(from, where);
    const target = items[to];
    if (!target) throw new Unsolvable(`no item at place ${to + 1}`);
    const moved = await k.act({ kind: 'drag', ref: items[from]?.ref ?? 0, toRef: target.ref, position: Math.floor(to / 3) === Math.floor(from / 3) ? 'center' : to < from ? 'before' : 'after' });
    if (process.env.EXPRESSIBLE_DEBUG) process.stderr.write(`grid: ${name} ${where} ${from}->${to}: ${moved.message}\n${k.text}\n`);
  },
};

async function pie(k: SolverKit): Promise<void> {
  const [label = ''] = said(k.text, /click on the item labeled "(.+?)"/);
  // The menu opens from its centre button (the "+"), and its items are then named by their labels.
  const centre = findAll(k.text, /^(clickable|button)$/, /^\+$/)[0];
  if (centre) await click(k, centre.ref);
  const item = findAll((await k.look()).text, /^(clickable|button|menuitem)$/, exactly(label)).at(-1);
  if (!item) throw new Unsolvable(`no item labeled "${label}" after opening the menu`);
  await click(k, item.ref);
}

/** Types a place into an autocompleting field and picks the suggestion that is that place. */
async function place(k: SolverKit, field: number, name: string): Promise<void> {
  await k.act({ kind: 'type', ref: field, text: name, clear: true, submit: false });
  // A place is written by its name ("Erie, PA") or its airport's code ("RAP"); the suggestion shows both.
  const suggestions = findAll(k.text, /^(option|menuitem|clickable|listitem|link|focusable)$/);
  if (process.env.EXPRESSIBLE_DEBUG) process.stderr.write(`place ${name}: ${suggestions.map((line) => line.name).join(' | ')}\n`);
  // One suggestion is one place and code; a number whose name holds several (merged suggestions) is not clicked.
  const single = (text: string) => (text.match(/\(\w+\)/g) ?? []).length <= 1;
  const hit = suggestions.filter((line) => single(line.name)).find((line) => line.name === name || line.name.startsWith(`${name} (`) || line.name.endsWith(`(${name})`));
  if (hit) {
    await click(k, hit.ref);
    return;
  }
  // Suggestions that share one number are walked with the arrow keys, which write each into the field in turn.
  // (Past the last suggestion the field shows what was typed again, which is not a suggestion.)
  const fits = (value: string) => value.startsWith(`${name} (`) || value.endsWith(`(${name})`);
  for (let turn = 0; turn < 12; turn += 1) {
    await k.act({ kind: 'press', ref: field, key: 'ArrowDown' });
    const value = /value="([^"]*)"/.exec(lines(k.text).find((line) => line.ref === field)?.rest ?? '')?.[1] ?? '';
    if (process.env.EXPRESSIBLE_DEBUG) process.stderr.write(`arrow ${turn}: ${value}\n`);
    if (fits(value)) {
      await k.act({ kind: 'press', ref: field, key: 'Enter' });
      return;
    }
  }
  throw new Unsolvable(`no suggestion for "${name}"`);
}

async function bookFlight(k: SolverKit): Promise<void> {
  const [wish = '', from = '', to = '', date = ''] = said(k.text, /Book the (\w+) one-way flight from:\s+([\s\S]+?)\s+to:\s+([\s\S]+?)\s+on\s+(\d\d\/\d\d\/\d{4})/);
  await place(k, find(k.text, 'textbox', /^From/).ref, from);
  await place(k, find(k.text, 'textbox', /^To/).ref, to);
  const dateField = findAll(k.text, /^(textbox|date)$/).find((line) => !/^(From|To)/.test(line.name));
  if (!dateField) throw new Unsolvable('no date field');
  const set = await k.tryAct({ kind: 'set_value', ref: dateField.ref, value: date });
  if (!set.ok) await pickDate(k, dateField.ref, date);
  await click(k, find(k.text, 'button', /^Search$/).ref);
  const flights = tickets((await k.look()).text);
  if (flights.length === 0) throw new Unsolvable('the search shows no flight to book');
  if (process.env.EXPRESSIBLE_DEBUG) process.stderr.write(`flights (${wish}): ${JSON.stringify(flights)}\n${k.text}\n`);
  const key = (t: { price: number; minutes: number }) => (wish === 'cheapest' ? t.price : wish === 'shortest' ? t.minutes : NaN);
  if (Number.isNaN(key({ price: 0, minutes: 0 }))) throw new Unsolvable(`a wish the script does not know: "${wish}"`);
  await click(k, flights.reduce((a, b) => (key(b) < key(a) ? b : a)).ref);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Picks mm/dd/yyyy in the calendar a read-only date field opens: its month arrows, then the day. */
async function pickDate(k: SolverKit, field: number, date: string): Promise<void> {
  const [mm = 0, dd = 0, yyyy = 0] = date.split('/').map(Number);
  await click(k, field);
  for (let turn = 0; turn < 30; turn += 1) {
    const shown = new RegExp(`(${MONTHS.join('|')})\\s+(\\d{4})`).exec(k.text);
    if (!shown) throw new Unsolvable('the calendar does not show its month');
    const months = yyyy * 12 + mm - 1 - (Number(shown[2]) * 12 + MONTHS.indexOf(shown[1] ?? ''));
    if (months === 0) {
      await click(k, find(k.text, /^(link|clickable|button|gridcell)$/, exactly(String(dd))).ref);
      return;
    }
    await click(k, find(k.text, /^(link|clickable|button)$/, months < 0 ? /^(Prev|Previous|<)/i : /^(Next|>)/i).ref);
  }
  throw new Unsolvable('the calendar never reached the month');
}
