import type { Pixels } from './png-pixels';
import { find, findAll, said, type SolverKit, Unsolvable } from './solver-kit';
import { CSS_COLOURS } from './solvers-families';
import { submit, type Solver } from './solvers-forms';
import { sight, queryBar } from './solvers-sight';
import { blobs, hue } from './solvers-sight9';

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

/** A colour picker opened by its field covers what is under it: Escape closes it, as it does for a person. */
async function closeAndSubmit(k: SolverKit, field: number): Promise<void> {
  const button = find(k.text, 'button', /^submit$/i);
  const tried = await k.tryAct({ kind: 'click', ref: button.ref });
  if (tried.ok) return;
  if (!/covered/.test(tried.message)) throw new Unsolvable(`Submit failed: ${tried.message}`);
  await k.act({ kind: 'press', ref: field, key: 'Escape' });
  if ((await k.tryAct({ kind: 'click', ref: button.ref })).ok) return;
  // Escape did not close it: a click on a blank part of the page does, as a person clicks beside a picker.
  const pixels = await sight(k);
  const blank = blankSpot(pixels);
  if (!blank) throw new Unsolvable('the screenshot shows no blank place to click beside the picker');
  await k.act({ kind: 'click_at', ...blank });
  await submit(k);
}

/** A point in the lower right of the screenshot with nothing drawn around it (a 20 × 20 patch of one colour). */
function blankSpot(pixels: Pixels): { x: number; y: number } | undefined {
  const plain = (x: number, y: number, at: number[]) => pixels.at(x, y).every((c, i) => Math.abs(c - (at[i] ?? 0)) < 12);
  for (let y = pixels.height - 15; y > pixels.height / 2; y -= 10) {
    for (let x = pixels.width - 15; x > pixels.width / 2; x -= 10) {
      let clear = true;
      const at = pixels.at(x, y);
      for (let dy = -10; dy <= 10 && clear; dy += 5) for (let dx = -10; dx <= 10 && clear; dx += 5) clear = plain(x + dx, y + dy, at);
      if (clear) return { x, y };
    }
  }
  return undefined;
}

/** The toolbar's unnamed button for bold, italic or underline, from how its glyph looks in the screenshot. */
async function styleButton(k: SolverKit, style: string): Promise<{ ref: number }> {
  const buttons = findAll(k.text, 'button', '');
  const pixels = await sight(k);
  const bar = queryBar(pixels);
  // The glyphs: dark marks in the row under the instruction, grouped by the gaps between them.
  const marks = blobs(pixels, { x0: bar.x0, y0: bar.y1 + 2, x1: bar.x1, y1: bar.y1 + 40 }, ([r, g, b]) => r + g + b < 300).filter((b) => b.size >= 4);
  if (process.env.EXPRESSIBLE_DEBUG) process.stderr.write(`toolbar marks: ${JSON.stringify(marks.map((b) => [b.x0, b.y0, b.x1, b.y1, b.size]))}\n`);
  throw new Unsolvable(`styles: ${buttons.length} buttons, ${marks.length} marks for ${style}`);
}

/** MiniWoB's example digits are 4 × 7 cells, white where a box is to be checked. */
const DIGIT_ROWS = 7;
const DIGIT_COLUMNS = 4;

/** The hot-cold page's answers, nearest first, and how far (in page pixels) each reaches. */
const BANDS: [string, number, number][] = [
  ['HOT', 0, 5],
  ['WARM', 5, 10],
  ['COLD', 10, 40],
  ['ICE COLD', 40, Infinity],
];

/** What a model reads an icon's name as: the words of the item that shows it ("seek-end" is the "Next" button). */
const ICON_WORDS: Record<string, string> = { disk: 'save', 'seek-start': 'prev', 'seek-end': 'next', 'seek-prev': 'prev', 'seek-next': 'next', zoomin: 'zoom in', zoomout: 'zoom out' };

const sameWords = (a: string, b: string) => a.toLowerCase().replace(/[\s-]/g, '') === b.toLowerCase().replace(/[\s-]/g, '');

/** A colour named in an instruction, as a model knows it: its hue in degrees (or null for none). */
const HUES: Record<string, number> = { red: 0, orange: 36, yellow: 60, green: 120, blue: 210, purple: 270 };

function hueOf(hex: string): { hue: number; chroma: number } {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return { hue: hue([r, g, b]), chroma: Math.max(r, g, b) - Math.min(r, g, b) };
}

export const B10_SOLVERS: Record<string, Solver> = {
  // The instruction shows the item's icon, written into its text as [icon "disk"]; the menu's items say their words.
  'click-menu-2': async (k) => {
    const label = /click on the item labeled "(.+?)"/.exec(k.text)?.[1];
    const icon = /with the \[icon "(.+?)"\]\s+icon/.exec(k.text)?.[1];
    if (!label && !icon) throw new Unsolvable('the instruction names no item and shows no icon');
    const fits = (name: string) => (label ? name === label : sameWords(name, ICON_WORDS[icon ?? ''] ?? icon ?? ''));
    await click(k, find(k.text, 'button', /^Menu$/).ref);
    for (let turn = 0; turn < 3; turn += 1) {
      const items = findAll((await k.look()).text, /^(menuitem|clickable|link|button)$/);
      const hit = items.find((item) => fits(item.name));
      if (hit) return click(k, hit.ref);
      // A submenu opens when the pointer rests on its parent: each item with a submenu is pointed at in turn.
      const parent = items.filter((item) => /collapsed|haspopup|submenu/.test(item.rest))[turn];
      if (!parent) break;
      await k.act({ kind: 'hover', ref: parent.ref });
      await k.act({ kind: 'wait', seconds: 0.3 });
    }
    throw new Unsolvable(`no menu item for ${label ? `"${label}"` : `the icon "${icon}"`}`);
  },
  // The picker opened by the field covers Submit: closed as a person closes it before Submit is clicked.
  'use-colorwheel': async (k) => {
    const [name = ''] = said(k.text, /Select (\w+) with the color picker/);
    const hex = CSS_COLOURS[name.toLowerCase()];
    if (!hex) throw new Unsolvable(`a colour name the script does not know: ${name}`);
    const field = find(k.text, 'textbox').ref;
    await k.act({ kind: 'type', ref: field, text: hex, clear: true, submit: false });
    await closeAndSubmit(k, field);
  },
  // The colour asked for is a sample in the instruction, written [colour "#3a5f00"]; the picker's field takes hex.
  'use-colorwheel-2': async (k) => {
    const [hex = ''] = said(k.text, /Select the following color \[colour "#([0-9a-f]{6})"\]/i);
    await k.act({ kind: 'type', ref: find(k.text, 'textbox').ref, text: hex.toUpperCase(), clear: true, submit: false });
    await closeAndSubmit(k, find(k.text, 'textbox').ref);
  },
  'text-editor': async (k) => {
    const m = /give (?:the text (.+?)|everything) the (style|color) (\w+)/.exec(k.text.replace(/\n/g, ' ')) ?? /make (everything) the (color) (\w+)/.exec(k.text);
    if (!m) throw new Unsolvable('the instruction asks for no style the script knows');
    const [, words, kind = '', value = ''] = m;
    const editor = find(k.text, 'textbox');
    const whole = /value="(.*?)"/.exec(editor.rest)?.[1] ?? '';
    await k.act({ kind: 'select_text', ref: editor.ref, text: words && words !== 'everything' ? words : whole });
    if (kind === 'style') {
      // The toolbar's bold, italic and underline buttons show only their glyphs: told apart in the screenshot.
      await click(k, (await styleButton(k, value)).ref);
    } else {
      const want = HUES[value.toLowerCase()];
      if (want === undefined) throw new Unsolvable(`a colour the script does not know: ${value}`);
      // The colour menu is the toolbar's first control; its swatches say their colours once it is open.
      await click(k, findAll(k.text, /^(clickable|button)$/, '')[0]?.ref ?? 0);
      const swatches = findAll((await k.look()).text, /^(clickable|button)$/, '').flatMap((line) => {
        const colour = /colour "(#[0-9a-f]{6})"/.exec(line.rest)?.[1];
        return colour ? [{ ref: line.ref, ...hueOf(colour) }] : [];
      });
      const gap = (h: number) => Math.min(Math.abs(h - want), 360 - Math.abs(h - want));
      const best = swatches.filter((s) => s.chroma > 80).sort((a, b) => gap(a.hue) - gap(b.hue))[0];
      if (!best) throw new Unsolvable('the colour menu shows no swatch with a colour');
      await click(k, best.ref);
    }
    if (findAll(k.text, 'button', /^submit$/i).length > 0) await submit(k);
  },
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
