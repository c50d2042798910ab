import { exactly, find, findAll, lines, said, type SolverKit, SUBMIT, Unsolvable } from './solver-kit';
import type { Solver } from './solvers-forms';
import { MORE_SOLVERS } from './solvers-more';

/**
 * DOM families (issue 26, second round): each reads only the snapshot the model is sent, acts through Deputy's tools,
 * and the page's own reward decides. These take the place of earlier solutions that read the page wrongly.
 */

const click = (k: SolverKit, ref: number) => k.act({ kind: 'click', ref });
const type = (k: SolverKit, ref: number, text: string) => k.act({ kind: 'type', ref, text, clear: true, submit: false });

/** The lines of text (not numbered) between two numbered elements, joined. */
function textBetween(text: string, from: number | null, to: number | null): string {
  const rows = text.split('\n');
  const at = (ref: number | null, fallback: number) => (ref === null ? fallback : rows.findIndex((row) => lines(row)[0]?.ref === ref));
  const start = at(from, -1);
  const end = at(to, rows.length);
  return rows
    .slice(start + 1, end)
    .filter((row) => lines(row).length === 0)
    .join(' ')
    .trim();
}

/** What a control shows: its name, else its icon (`unnamed, icon "x"`). */
const shows = (line: { name: string; rest: string }): string => line.name || (/icon "([^"]*)"/.exec(line.rest)?.[1] ?? '');

/** Tic-tac-toe: the best move for `me` on a board of 'x', 'o' and '' (minimax: a win soonest, a loss latest). */
export function bestMove(board: string[], me: string): number {
  const them = me === 'x' ? 'o' : 'x';
  const rows = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
  const won = (b: string[], who: string) => rows.some((r) => r.every((i) => b[i] === who));
  const score = (b: string[], turn: string, depth: number): number => {
    if (won(b, me)) return 10 - depth;
    if (won(b, them)) return depth - 10;
    const free = b.flatMap((cell, i) => (cell ? [] : [i]));
    if (free.length === 0) return 0;
    const results = free.map((i) => score(b.map((cell, j) => (j === i ? turn : cell)), turn === me ? them : me, depth + 1));
    return turn === me ? Math.max(...results) : Math.min(...results);
  };
  const free = board.flatMap((cell, i) => (cell ? [] : [i]));
  let best = free[0] ?? -1;
  let bestScore = -Infinity;
  for (const i of free) {
    const s = score(board.map((cell, j) => (j === i ? me : cell)), them, 1);
    if (s > bestScore) [best, bestScore] = [i, s];
  }
  return best;
}

/** The page's own text between the instruction and the page's footer (its "Last reward:" label), numbered lines left out. */
function bodyText(text: string, instruction: RegExp): string {
  const rows = text.split('\n');
  const start = rows.findIndex((row) => instruction.test(row));
  const end = rows.findIndex((row, i) => i > start && /label "Last reward:"/.test(row));
  // A short paragraph may share the instruction's line: what follows the instruction there is the page's too.
  const sameLine = (rows[start] ?? '').replace(instruction, '').trim();
  return [sameLine, ...rows.slice(start + 1, end < 0 ? undefined : end).filter((row) => lines(row).length === 0)]
    .join(' ')
    .trim();
}

export const DOM9_SOLVERS: Record<string, Solver> = {
  'highlight-text': async (k) => {
    // The paragraph is the page's only text besides its instruction: selected as a person selects it, then submitted.
    const paragraph = bodyText(k.text, /^Highlight the text in the paragraph below and click submit\./i);
    if (!paragraph) throw new Unsolvable('no paragraph in the snapshot');
    await k.act({ kind: 'select_text', text: paragraph });
    await click(k, find((await k.look()).text, 'button', SUBMIT).ref);
  },
  'click-menu': async (k) => {
    // A person opens each submenu by pointing at its item and clicks only the last: clicking a parent item chooses it.
    const path = (said(k.text, /Select (.+)\n/)[0] ?? '').split('>').map((part) => part.trim());
    for (const [i, step] of path.entries()) {
      // A submenu opens a moment after the pointer rests on its parent, as it does for a person.
      if (i > 0 && findAll(k.text, 'menuitem', exactly(step)).length === 0) await k.act({ kind: 'wait', seconds: 0.5 });
      const item = find((await k.look()).text, 'menuitem', exactly(step));
      await k.act({ kind: 'hover', ref: item.ref });
      if (i === path.length - 1) await click(k, item.ref);
    }
  },
  'click-tab-2-hard': async (k) => {
    const [word = ''] = said(k.text, /click on the link "(.+?)"/);
    const tabs = findAll(k.text, 'tab').map((tab) => tab.name);
    for (const name of tabs) {
      const tab = find((await k.look()).text, 'tab', exactly(name));
      if (!tab.rest.includes('selected')) await click(k, tab.ref);
      const hit = findAll((await k.look()).text, /^(clickable|link)$/, exactly(word))[0];
      if (hit) return click(k, hit.ref);
    }
    throw new Unsolvable(`no link "${word}" in any of ${tabs.length} tabs`);
  },
  'login-user-popup': async (k) => {
    const [user = '', password = ''] = said(k.text, /username "(.+?)" and the password "(.+?)"/);
    const form = () => {
      const boxes = findAll(k.text, /^(textbox|searchbox)$/);
      return { user: boxes.find((b) => /user/i.test(b.name)) ?? boxes[0], password: boxes.find((b) => /pass/i.test(b.name)) ?? boxes[1] };
    };
    // A popup may come up over the form at any step: a person reads it and cancels it, then goes on.
    const dismissPopup = async (): Promise<boolean> => {
      const cancel = findAll((await k.look()).text, 'button', /^cancel$/i)[0];
      if (cancel) await click(k, cancel.ref);
      return Boolean(cancel);
    };
    for (const [field, value] of [['user', user], ['password', password]] as const) {
      for (let tries = 0; tries < 3; tries += 1) {
        const box = form()[field];
        if (!box) throw new Unsolvable(`no ${field} field`);
        const typed = await k.tryAct({ kind: 'type', ref: box.ref, text: value, clear: true, submit: false });
        if (await dismissPopup()) continue;
        if (typed.ok) break;
      }
    }
    await dismissPopup();
    // The form's own button (the popup's "OK" is gone once cancelled): the last button before the page's footer.
    const buttons = findAll(k.text, 'button');
    const login = buttons.find((b) => /^(log ?in|ok|submit)$/i.test(b.name));
    if (!login) throw new Unsolvable('no button to log in with');
    await click(k, login.ref);
  },
  'multi-layouts': async (k) => {
    // The fields are captioned in many layouts (above, beside, in a table, after the box): each box takes the caption
    // on its side, the side being the one where the first box has a caption at all.
    const [genre = '', director = '', year = ''] = said(k.text, /Search for (.+?) movies directed by (.+?) from year (\d{4})\./);
    const body = k.text.slice(k.text.indexOf(`${year}.`) + year.length + 1);
    const boxes = findAll(body, /^(textbox|searchbox)$/);
    if (boxes.length !== 3) throw new Unsolvable(`${boxes.length} fields for genre, director and year`);
    const firstBefore = textBetween(body, null, boxes[0]?.ref ?? null);
    const captions = boxes.map((box, i) =>
      firstBefore ? textBetween(body, i === 0 ? null : (boxes[i - 1]?.ref ?? null), box.ref) : textBetween(body, box.ref, boxes[i + 1]?.ref ?? null).split(/\n/)[0] ?? '',
    );
    const wanted: [RegExp, string][] = [[/genre/i, genre], [/director|name/i, director], [/year|date/i, year]];
    for (const [pattern, value] of wanted) {
      const i = captions.findIndex((caption) => pattern.test(caption));
      if (i < 0) throw new Unsolvable(`no field captioned ${String(pattern)} (captions: ${captions.join(' | ')})`);
      await type(k, boxes[i]?.ref ?? 0, value);
    }
    const text = (await k.look()).text;
    await click(k, find(text, 'button', /^(submit|search|go!?)$/i).ref);
  },
  'order-food': async (k) => {
    const byName = /Order one of each item: (.+)\n/.exec(k.text)?.[1];
    // A count of a kind of dish: the earlier solution, which reads the dishes' pictures.
    if (!byName) return (MORE_SOLVERS['order-food'] as Solver)(k);
    const items = byName.split(/,\s*/).map((s) => s.trim()).filter(Boolean);
    for (const item of items) {
      // A long menu is read as a person reads it: scrolled to where the dish is (find brings its place into view).
      let text = (await k.look()).text;
      if (text.indexOf(`\n${item}\n`) < 0) {
        await k.act({ kind: 'scroll', direction: 'up', pages: 10 });
        for (let turn = 0; turn < 10 && (text = (await k.look()).text).indexOf(`\n${item}\n`) < 0; turn += 1) await k.act({ kind: 'scroll', direction: 'down', pages: 1 });
      }
      const at = text.indexOf(`\n${item}\n`);
      if (at < 0) throw new Unsolvable(`no item "${item}" on the menu`);
      await click(k, find(text.slice(at), 'clickable', /^\+$/).ref);
    }
    await click(k, find((await k.look()).text, /^(button|clickable)$/, /^Order!?$/i).ref);
  },
  'phone-book': async (k) => {
    const [name = '', what = ''] = said(k.text, /Find (.+?) in the contact book and click on their (\w+)/);
    for (let page = 0; page < 12; page += 1) {
      const text = (await k.look()).text;
      const at = text.indexOf(`## ${name}\n`);
      if (at >= 0) {
        const card = text.slice(at);
        const caption = card.search(new RegExp(`^${what}:?\\s*$`, 'im'));
        if (caption < 0) throw new Unsolvable(`the card of ${name} shows no ${what}`);
        return click(k, find(card.slice(caption), /^(clickable|link)$/).ref).then(() => undefined);
      }
      await click(k, find(text, /^(link|clickable)$/, /^>$/).ref);
    }
    throw new Unsolvable(`no contact ${name}`);
  },
  'copy-paste-2': async (k) => {
    const n = Number(said(k.text, /from the (\d+)\w\w text area/)[0]);
    const boxes = findAll(k.text, 'textbox');
    // The text areas come first; the text input is the one left empty, below them.
    const to = boxes.at(-1);
    const from = boxes[n - 1];
    if (!to || !from || from === to) throw new Unsolvable(`no ${n}th text area and a text input after it`);
    await click(k, from.ref);
    await k.act({ kind: 'press', ref: from.ref, key: 'Control+A' });
    await k.act({ kind: 'press', key: 'Control+C' });
    await click(k, to.ref);
    await k.act({ kind: 'press', ref: to.ref, key: 'Control+V' });
    await click(k, find((await k.look()).text, 'button', SUBMIT).ref);
  },
  'tic-tac-toe': async (k) => {
    const me = (said(k.text, /Playing as '(\w)'/)[0] ?? 'x').toLowerCase();
    for (let turn = 0; turn < 6; turn += 1) {
      const cells = findAll((await k.look()).text, 'clickable').slice(0, 9);
      if (cells.length < 9) return;
      const board = cells.map((cell) => shows(cell).toLowerCase().replace(/^mark-/, ''));
      if (board.every(Boolean)) return;
      const move = bestMove(board, me);
      await click(k, cells[move]?.ref ?? 0);
    }
  },
};
