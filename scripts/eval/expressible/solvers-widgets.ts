import { escape, exactly, find, findAll, said, type SolverKit, SUBMIT, Unsolvable } from './solver-kit';
import { submit, type Solver } from './solvers-forms';

const click = (k: SolverKit, ref: number) => k.act({ kind: 'click', ref });
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Opens each section or tab in turn until an element with this name shows, and clicks it. */
async function revealAndClick(k: SolverKit, name: string, opener: RegExp): Promise<unknown> {
  const openers = findAll(k.text, 'tab', opener).map((line) => line.name);
  for (const title of ['', ...openers]) {
    if (title) await click(k, find((await k.look()).text, 'tab', exactly(title)).ref);
    const text = title ? (await k.look()).text : k.text;
    const hit = findAll(text, /^(link|clickable)$/, exactly(name)).find((line) => !line.rest.includes('#tabs'));
    if (hit) return click(k, hit.ref);
  }
  throw new Unsolvable(`no "${name}" after opening every section`);
}

async function chooseDate(k: SolverKit): Promise<void> {
  const [mm = '', dd = '', yyyy = ''] = said(k.text, /Select (\d\d)\/(\d\d)\/(\d{4}) as the date/);
  const field = find(k.text, /^(textbox|date)$/).ref;
  await click(k, field);
  for (let turn = 0; turn < 6; turn += 1) {
    const text = (await k.look()).text;
    const shown = new RegExp(`(${MONTHS.join('|')}) (\\d{4})`).exec(text);
    if (!shown) throw new Unsolvable('the calendar does not show its month');
    const months = Number(yyyy) * 12 + Number(mm) - 1 - (Number(shown[2]) * 12 + MONTHS.indexOf(shown[1] ?? ''));
    if (months === 0) {
      await click(k, find(text, /^(link|clickable|button|gridcell)$/, exactly(String(Number(dd)))).ref);
      return submit(k);
    }
    const arrow = findAll(text, /^(link|clickable|button)$/, months < 0 ? /^(Prev|Previous|<)/i : /^(Next|>)/i)[0];
    if (arrow) for (let i = 0; i < Math.min(Math.abs(months), 12); i += 1) await click(k, find((await k.look()).text, /^(link|clickable|button)$/, months < 0 ? /^(Prev|Previous|<)/i : /^(Next|>)/i).ref);
    else await k.act({ kind: 'press', ref: field, key: months < 0 ? 'PageUp' : 'PageDown', times: Math.abs(months) });
  }
  throw new Unsolvable('the calendar never reached the month');
}

/** What a mail task asks, read from its instruction in any of the families' wordings (templated or written by people). */
export function readMailTask(instruction: string, senders: string[]): { sender: string; action: 'reply' | 'forward' | 'delete' | 'important'; dest: string; reply: string } {
  // A name may be written possessive without its apostrophe ("Jocelins last email").
  const at = (name: string) => instruction.search(new RegExp(`${escape(name)}(?:s)?(?![a-z])`));
  const named = senders.filter((name) => at(name) >= 0).sort((a, b) => at(a) - at(b));
  // Where both the sender and the one to forward to have mail in the box, the sender is the one the mail is "from"
  // or "by", else the one whose mail it is ("X's email", "X sent"), else the one named first and not sent "to".
  const score = (name: string) => {
    const n = escape(name);
    if (new RegExp(`(?:by|from) ${n}\\b`).test(instruction)) return 3;
    if (new RegExp(`${n}(?:'s|s\\b| sent| wants his)`).test(instruction)) return 2;
    if (new RegExp(`(?:[Ff]ind|[Gg]et|the|[Aa]nswer) ${n}\\b|${n} email`).test(instruction)) return 1;
    return new RegExp(`to ${n}\\b`).test(instruction) ? -1 : 0;
  };
  const sender = named.reduce((best, name) => (score(name) > score(best) ? name : best), named[0] ?? '');
  // The reply is the longest run between two quote marks (people wrote some templates with doubled quotes).
  const parts = instruction.split('"');
  const quoted = parts.length < 3 ? undefined : parts.slice(1, -1).sort((a, b) => b.trim().length - a.trim().length)[0];
  if (quoted !== undefined) return { sender, action: 'reply', dest: '', reply: quoted };
  if (/\b(delete|trash|bin|remove|discard|erase|get rid|throw|don't want|out of my inbox)/i.test(instruction)) return { sender, action: 'delete', dest: '', reply: '' };
  if (/\b(star|important|flag|mark|priority)/i.test(instruction)) return { sender, action: 'important', dest: '', reply: '' };
  const starts = new Set([...instruction.matchAll(/(?:^|[.!?,]\s+)([A-Z]\w*)/g)].map((m) => m[1]));
  const capitalised = [...instruction.matchAll(/\b([A-Z][a-z]+)\b/g)].map((m) => m[1] as string).filter((word) => word !== sender);
  const dest =
    /\bto ([A-Z][a-z]+)\b/.exec(instruction.replaceAll(`to ${sender} `, ''))?.[1] ??
    capitalised.find((word) => !starts.has(word)) ??
    capitalised.find((word) => !/^(Find|Forward|Send|Please|Can|Could|Go|Get|Give|Locate|Look|Navigate|Search|Copy|Automatically|Ask|Email|I|The|Open|Pass|Share|Take)$/i.test(word)) ??
    '';
  return { sender, action: 'forward', dest: dest === sender ? '' : dest, reply: '' };
}

async function email(k: SolverKit): Promise<void> {
  const text = k.text;
  // The instruction runs to the first heading or control; a quoted reply may hold a line break of its own.
  const instruction = said(text, /\nPage: [^\n]*\n([\s\S]*?)\n(?:#|\*?\[\d+\])/)[0] ?? '';
  const rows = findAll(text, /^(clickable|link|button|listitem|row)$/).filter((line) => /^\w+ \S/.test(line.name));
  const task = readMailTask(instruction, rows.map((line) => line.name.split(' ')[0] as string));
  if (process.env.EXPRESSIBLE_DEBUG) process.stderr.write(`mail task: ${instruction} => ${JSON.stringify(task)}\n`);
  if (!task.sender) throw new Unsolvable('the instruction names no sender the script can read');
  const row = find(text, /^(clickable|link|button|listitem|row)$/, new RegExp(`^${escape(task.sender)}\\b`));
  await click(k, row.ref);
  const open = (await k.look()).text;
  if (process.env.EXPRESSIBLE_DEBUG) process.stderr.write(`first view:\n${text}\nopened:\n${open}\n`);
  // The opened mail's bin, star and send are icons without words: the snapshot says which picture each shows.
  const icon = (view: string, pattern: RegExp, what: string) => {
    const hit = findAll(view, /^(button|clickable)$/).find((line) => pattern.test(line.name) || pattern.test(/icon "([^"]*)"/.exec(line.rest)?.[1] ?? ''));
    if (!hit) throw new Unsolvable(`no ${what} control where the mail is open`);
    return hit.ref;
  };
  if (task.action === 'delete') return click(k, icon(open, /trash|delete|bin/i, 'bin')).then(() => undefined);
  if (task.action === 'important' || /star/i.test(instruction)) {
    await click(k, icon(open, /star|important/i, 'star'));
    if (task.action === 'important') return;
  }
  if (task.action === 'forward') {
    await click(k, find(open, /^(button|clickable|link)$/, /^forward$/i).ref);
    const form = (await k.look()).text;
    await k.act({ kind: 'type', ref: find(form, 'textbox').ref, text: task.dest, clear: true, submit: false });
  } else {
    await click(k, find(open, /^(button|clickable|link)$/, /^reply$/i).ref);
    const form = (await k.look()).text;
    const boxes = findAll(form, 'textbox');
    await k.act({ kind: 'type', ref: boxes.at(-1)?.ref ?? 0, text: task.reply, clear: true, submit: false });
  }
  await click(k, icon((await k.look()).text, /^send$/i, 'send'));
}

export const WIDGET_SOLVERS: Record<string, Solver> = {
  'click-link': async (k) => click(k, find(k.text, /^(link|clickable)$/, exactly(said(k.text, /Click on the link "(.+?)"/)[0] ?? '')).ref).then(() => undefined),
  'click-tab': async (k) => click(k, find(k.text, 'tab', exactly(said(k.text, /Click on (Tab #\d+)/)[0] ?? '')).ref).then(() => undefined),
  'click-tab-2': async (k) => revealAndClick(k, said(k.text, /click on the link "(.+?)"/)[0] ?? '', /^Tab/),
  'click-tab-2-easy': async (k) => revealAndClick(k, said(k.text, /click on the link "(.+?)"/)[0] ?? '', /^Tab/),
  'click-tab-2-medium': async (k) => revealAndClick(k, said(k.text, /click on the link "(.+?)"/)[0] ?? '', /^Tab/),
  'click-tab-2-hard': async (k) => revealAndClick(k, said(k.text, /click on the link "(.+?)"/)[0] ?? '', /^Tab/),
  'click-collapsible-2': async (k) => revealAndClick(k, said(k.text, /click on the link "(.+?)"/)[0] ?? '', /^Section/),
  'click-collapsible-2-nodelay': async (k) => revealAndClick(k, said(k.text, /click on the link "(.+?)"/)[0] ?? '', /^Section/),
  'click-collapsible': collapsible,
  'click-collapsible-nodelay': collapsible,
  'click-menu': async (k) => {
    const path = (said(k.text, /Select (.+)\n/)[0] ?? '').split('>').map((part) => part.trim());
    for (const step of path) {
      const item = find((await k.look()).text, 'menuitem', exactly(step));
      await k.act({ kind: 'hover', ref: item.ref });
      await click(k, item.ref);
    }
  },
  'navigate-tree': async (k) => {
    const [name = ''] = said(k.text, /named "(.+?)"/);
    for (let turn = 0; turn < 12; turn += 1) {
      const text = (await k.look()).text;
      const hit = findAll(text, /^(clickable|treeitem|link)$/, exactly(name)).find((line) => !line.rest.includes('expanded'));
      if (hit) return click(k, hit.ref).then(() => undefined);
      const closed = findAll(text, /^(clickable|treeitem)$/).find((line) => line.rest.includes('collapsed'));
      if (!closed) break;
      await click(k, closed.ref);
    }
    throw new Unsolvable(`"${name}" never showed in the tree (its name may be cut short in the instruction)`);
  },
  'phone-book': async (k) => {
    const [name = ''] = said(k.text, /Find (.+?) in the contact book/);
    for (let page = 0; page < 12; page += 1) {
      const text = (await k.look()).text;
      const at = text.indexOf(`## ${name}\n`);
      if (at >= 0) return click(k, find(text.slice(at), /^(clickable|link)$/).ref).then(() => undefined);
      await click(k, find(text, /^(link|clickable)$/, /^>$/).ref);
    }
    throw new Unsolvable(`no contact ${name}`);
  },
  'choose-date': chooseDate,
  'choose-date-easy': chooseDate,
  'choose-date-medium': chooseDate,
  'choose-date-nodelay': chooseDate,
  'use-slider': async (k) => {
    const wanted = Number(said(k.text, /Select (-?\d+) with the slider/)[0]);
    const handle = find(k.text, /^(slider|focusable)$/).ref;
    const set = await k.tryAct({ kind: 'set_value', ref: handle, value: String(wanted) });
    if (!set.ok) {
      // A slider without a value to set moves with its arrow keys, as a person would move it; its value shows beside it.
      const now = Number(said(k.text, new RegExp(`\\[${handle}\\][^\\n]*\\n(-?\\d+)`))[0]);
      if (now !== wanted) await k.act({ kind: 'press', ref: handle, key: wanted > now ? 'ArrowRight' : 'ArrowLeft', times: Math.min(100, Math.abs(wanted - now)) });
    }
    await submit(k);
  },
  'drag-box': async (k) => {
    await k.act({ kind: 'drag', ref: find(k.text, 'draggable', /^s$/).ref, toRef: find(k.text, 'draggable', /^L$/).ref });
    await submit(k);
  },
  'click-dialog': async (k) => click(k, find(k.text, 'button', /^Close$/).ref).then(() => undefined),
  'click-dialog-2': async (k) => {
    const [label = ''] = said(k.text, /Click the button in the dialog box labeled "(.+?)"/);
    // The "x" in a dialog's corner is its Close button.
    await click(k, find(k.text, 'button', label === 'x' ? /^(Close|x|×)$/ : exactly(label)).ref);
  },
  'click-scroll-list': async (k) => {
    await k.act({ kind: 'select', ref: find(k.text, 'listbox').ref, values: (said(k.text, /Select (.+?) from the scroll list/)[0] ?? '').split(', ') });
    await submit(k);
  },
  'scroll-text': async (k) => {
    const area = find(k.text, 'textbox', /text-area|^$/);
    await k.act({ kind: 'scroll', ref: area.ref, direction: 'down', pages: 10 });
    const text = (await k.look()).text;
    const tail = said(text, new RegExp(`\\[${area.ref}\\] textbox[^\\n]*value="…?([^"]*)"`))[0] ?? '';
    const word = tail.trim().split(/\s+/).at(-1)?.replace(/[^A-Za-z0-9]/g, '') ?? '';
    const boxes = findAll(text, 'textbox').filter((box) => box.ref !== area.ref);
    await k.act({ kind: 'type', ref: boxes[0]?.ref ?? 0, text: word, clear: true, submit: false });
    await submit(k);
  },
  'scroll-text-2': async (k) => {
    const [where = ''] = said(k.text, /Scroll the textarea to the (top|bottom)/);
    await k.act({ kind: 'scroll', ref: find(k.text, 'textbox').ref, direction: where === 'top' ? 'up' : 'down', pages: 10 });
    await submit(k);
  },
  'copy-paste': async (k) => {
    const boxes = findAll(k.text, 'textbox');
    const from = boxes[0]?.ref ?? 0;
    const to = boxes.at(-1)?.ref ?? 0;
    await click(k, from);
    await k.act({ kind: 'press', ref: from, key: 'Control+A' });
    await k.act({ kind: 'press', key: 'Control+C' });
    await click(k, to);
    await k.act({ kind: 'press', ref: to, key: 'Control+V' });
    await submit(k);
  },
  'copy-paste-2': async (k) => {
    const n = Number(said(k.text, /from the (\d+)\w\w text area/)[0]);
    const boxes = findAll(k.text, 'textbox');
    const to = boxes.find((box) => !/textarea|text-area/.test(box.name) && box.rest.indexOf('multiline') < 0) ?? boxes.at(-1);
    const areas = boxes.filter((box) => box !== to);
    const from = areas[n - 1]?.ref ?? 0;
    await click(k, from);
    await k.act({ kind: 'press', ref: from, key: 'Control+A' });
    await k.act({ kind: 'press', key: 'Control+C' });
    await click(k, to?.ref ?? 0);
    await k.act({ kind: 'press', ref: to?.ref ?? 0, key: 'Control+V' });
    await submit(k);
  },
  'email-inbox': email,
  'email-inbox-nl-turk': email,
  'email-inbox-noscroll': email,
  'email-inbox-reply': email,
  'email-inbox-star-reply': email,
  'email-inbox-delete': email,
  'email-inbox-important': email,
  'email-inbox-forward': email,
  'email-inbox-forward-nl': email,
  'email-inbox-forward-nl-turk': email,
  'click-shades': () => Promise.reject(new Unsolvable('the shades are only colours: a solution needs sight (not scripted)')),
  'tic-tac-toe': (k) => {
    const cells = findAll(k.text, /^(clickable|button|gridcell)$/);
    return Promise.reject(new Unsolvable(cells.length < 9 ? `the board's cells are not numbered (${cells.length} of 9)` : 'no scripted player'));
  },
};

async function collapsible(k: SolverKit): Promise<void> {
  await click(k, find(k.text, 'tab').ref);
  await submit(k, SUBMIT);
}
