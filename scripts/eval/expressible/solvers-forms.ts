import { exactly, find, findAll, lines, said, type SolverKit, SUBMIT, Unsolvable } from './solver-kit';

/** A scripted solution of one task family: reads what the model is sent, acts through Deputy's tools. */
export type Solver = (k: SolverKit) => Promise<unknown>;

const click = (k: SolverKit, ref: number) => k.act({ kind: 'click', ref });
const type = (k: SolverKit, ref: number, text: string) => k.act({ kind: 'type', ref, text, clear: true, submit: false });
export const submit = async (k: SolverKit, name: RegExp = SUBMIT): Promise<void> => {
  await click(k, find((await k.look()).text, 'button', name).ref);
};
const textboxes = (text: string) => findAll(text, /^(textbox|spinbutton|searchbox)$/);
const ORDINAL = /(\d+)(?:st|nd|rd|th)/;

/** Clicks the named control, whatever element role the snapshot gives it. */
async function clickNamed(k: SolverKit, name: string, roles = /^(button|link|clickable|menuitem|tab|option|treeitem|radio|checkbox)$/): Promise<unknown> {
  return click(k, find(k.text, roles, exactly(name)).ref);
}

export const FORM_SOLVERS: Record<string, Solver> = {
  'click-button': async (k) => clickNamed(k, said(k.text, /Click on the "(.+?)" button/)[0] ?? ''),
  'unicode-test': async (k) => clickNamed(k, said(k.text, /Click on the "(.+?)" button/)[0] ?? ''),
  'click-test': async (k) => click(k, find(k.text, 'button').ref),
  'click-test-2': async (k) => clickNamed(k, said(k.text, /Click button (\w+)/)[0] ?? ''),
  'click-test-transfer': async (k) => clickNamed(k, said(k.text, /Click button (\w+)/)[0] ?? ''),
  'click-button-sequence': async (k) => {
    await clickNamed(k, 'ONE');
    await k.look();
    await clickNamed(k, 'TWO');
  },
  'button-delay': async (k) => {
    await clickNamed(k, 'ONE');
    await k.act({ kind: 'wait', seconds: 2.2 });
    await k.look();
    await clickNamed(k, 'TWO');
  },
  'click-checkboxes': checkboxes,
  'click-checkboxes-large': checkboxes,
  'click-checkboxes-transfer': checkboxes,
  'click-option': async (k) => {
    await clickNamed(k, said(k.text, /Select (.+?) and click Submit/)[0] ?? '', /^radio$/);
    await submit(k);
  },
  'choose-list': async (k) => {
    await k.act({ kind: 'select', ref: find(k.text, 'combobox').ref, values: [said(k.text, /Select (.+?) from the list/)[0] ?? ''] });
    await submit(k);
  },
  'enter-text': enterQuoted,
  'enter-text-dynamic': enterQuoted,
  'enter-text-2': async (k) => {
    const [word = '', casing = ''] = said(k.text, /Type "(.+?)" in all (upper|lower) case/);
    await type(k, textboxes(k.text)[0]?.ref ?? 0, casing === 'upper' ? word.toUpperCase() : word.toLowerCase());
    await submit(k);
  },
  'text-transform': async (k) => {
    const [word = ''] = said(k.text, /press Submit\.\s+(\S+)/);
    await type(k, textboxes(k.text)[0]?.ref ?? 0, word);
    await submit(k);
  },
  'enter-password': async (k) => {
    const [password = ''] = said(k.text, /password "(.+?)"/);
    for (const box of textboxes(k.text)) await type(k, box.ref, password);
    await submit(k);
  },
  'login-user': login,
  'login-user-popup': login,
  'focus-text': async (k) => click(k, textboxes(k.text)[0]?.ref ?? 0),
  'focus-text-2': async (k) => {
    const n = Number(said(k.text, ORDINAL)[0]);
    await click(k, textboxes(k.text)[n - 1]?.ref ?? 0);
  },
  'form-sequence-2': async (k) => {
    const [radio = '', value = '', box = ''] = said(k.text, /Check the (\d+)\w\w radio button and enter the number "(.+?)" into the (\d+)\w\w textbox/);
    await click(k, findAll(k.text, 'radio')[Number(radio) - 1]?.ref ?? 0);
    await type(k, textboxes(k.text)[Number(box) - 1]?.ref ?? 0, value);
    await submit(k);
  },
  'enter-date': async (k) => {
    await k.act({ kind: 'type', ref: find(k.text, /^(date|textbox)$/).ref, text: said(k.text, /Enter (\S+) as the date/)[0], clear: true, submit: false });
    await submit(k);
  },
  'enter-time': async (k) => {
    await k.act({ kind: 'type', ref: find(k.text, /^(time|textbox)$/).ref, text: said(k.text, /Enter (.+?) as the time/)[0], clear: true, submit: false });
    await submit(k);
  },
  'find-word': async (k) => {
    const n = Number(said(k.text, /Find the (\d+)\w\w word in the paragraph/)[0]);
    const para = said(k.text, /press "Submit"\.\s+([^[]+?)\n\*?\[/)[0] ?? '';
    const word = para.split(/\s+/)[n - 1]?.replace(/[^\p{L}\p{N}]/gu, '') ?? '';
    await type(k, textboxes(k.text)[0]?.ref ?? 0, word);
    await submit(k);
  },
  'read-table': async (k) => {
    const [label = ''] = said(k.text, /Enter the value of (.+?) into the text field/);
    const table = said(k.text, /press Submit\.\s+([^[]+?)\n\*?\[/)[0] ?? '';
    const labels = ['Year of Birth', 'Gender', 'Last name', 'First name', 'Language', 'Color', 'Country', 'Religion'];
    const rest = table.slice(table.indexOf(label) + label.length).trim();
    const next = labels.map((l) => rest.indexOf(` ${l} `)).filter((i) => i >= 0);
    const value = (next.length ? rest.slice(0, Math.min(...next)) : rest).trim();
    await type(k, textboxes(k.text)[0]?.ref ?? 0, value);
    await submit(k);
  },
  'simple-arithmetic': async (k) => {
    const [a = '', op = '', b = ''] = said(k.text, /\n(-?\d+) ([+x\-/*]) (-?\d+) =/);
    const x = Number(a);
    const y = Number(b);
    const answer = op === '+' ? x + y : op === '-' ? x - y : op === 'x' || op === '*' ? x * y : x / y;
    await type(k, textboxes(k.text)[0]?.ref ?? 0, String(answer));
    await submit(k);
  },
  'simple-algebra': async (k) => {
    const [lhs = '', rhs = ''] = said(k.text, /\n(.+?) = (-?\d+)\s+x =/);
    const m = /^(?:(-?\d+) ([+-]) x|x ([+-]) (-?\d+))$/.exec(lhs.trim());
    if (!m) throw new Unsolvable(`cannot read the equation "${lhs}"`);
    const r = Number(rhs);
    const x = m[1] !== undefined ? (m[2] === '+' ? r - Number(m[1]) : Number(m[1]) - r) : m[3] === '+' ? r - Number(m[4]) : r + Number(m[4]);
    await type(k, textboxes(k.text)[0]?.ref ?? 0, String(x));
    await submit(k);
  },
  'guess-number': async (k) => {
    let low = 0;
    let high = 9;
    for (let guess = 0; guess < 8; guess += 1) {
      const mid = Math.floor((low + high) / 2);
      const box = find(k.text, /^(spinbutton|textbox)$/).ref;
      await type(k, box, String(mid));
      await submit(k);
      const text = (await k.look()).text;
      if (/higher/i.test(text)) low = mid + 1;
      else if (/lower/i.test(text)) high = mid - 1;
      else return;
    }
  },
  'odd-or-even': async (k) => {
    const ls = k.text.split('\n');
    for (let i = 0; i < ls.length; i += 1) {
      if (!/\] button "Odd"/.test(ls[i] ?? '')) continue;
      const n = Number((ls[i + 1] ?? '').trim());
      const odd = lines(ls[i] ?? '')[0];
      const even = lines(ls[i + 2] ?? '')[0];
      if (!odd || !even || Number.isNaN(n)) throw new Unsolvable(`cannot pair a number with its buttons near "${ls[i + 1]}"`);
      await click(k, Math.abs(n) % 2 === 1 ? odd.ref : even.ref);
    }
    await submit(k);
  },
  'click-widget': async (k) => {
    const [kind = ''] = said(k.text, /Click on a "(.+?)" widget/);
    const role = { button: /^button$/, checkbox: /^checkbox$/, radio: /^radio$/, text: /^textbox$/, textarea: /^textbox$/ }[kind];
    if (!role) throw new Unsolvable(`the snapshot gives no role for a "${kind}" widget`);
    await click(k, find(k.text, role).ref);
  },
  'search-engine': async (k) => {
    const [query = '', nth = ''] = said(k.text, /enter "(.+?)" and press "Search", then find and click the (\d+)\w\w/);
    await type(k, textboxes(k.text)[0]?.ref ?? 0, query);
    await submit(k, /^search$/i);
    let n = Number(nth);
    for (let page = 0; page < 4; page += 1) {
      const results = findAll((await k.look()).text, /^(link|clickable)$/).filter((l) => !/^(\d+|[<>]|Prev|Next)$/.test(l.name) && !l.rest.includes('#'));
      if (n <= results.length) return click(k, results[n - 1]?.ref ?? 0);
      n -= results.length;
      await click(k, find(k.text, /^(link|clickable)$/, /^(>|Next)$/).ref);
    }
  },
};

async function checkboxes(k: SolverKit): Promise<void> {
  const [list = ''] = said(k.text, /Select (.*?) and click Submit/);
  const names = list === 'nothing' ? [] : list.split(/, /);
  for (const name of names) await k.act({ kind: 'check', ref: find(k.text, 'checkbox', exactly(name)).ref, checked: true });
  await submit(k);
}

async function enterQuoted(k: SolverKit): Promise<void> {
  await type(k, textboxes(k.text)[0]?.ref ?? 0, said(k.text, /Enter "(.+?)" into the text field/)[0] ?? '');
  await submit(k);
}

async function login(k: SolverKit): Promise<void> {
  const [user = '', password = ''] = said(k.text, /username "(.+?)" and the password "(.+?)"/);
  // A popup may open over the form at any moment: closed the way a person would close it, before each step.
  const clearPopup = async (): Promise<void> => {
    if (!/dialog|popup/i.test(k.text)) return;
    const close = findAll(k.text, 'button', /^(Cancel|No|Close|Dismiss|×|x)$/i)[0];
    if (close) await click(k, close.ref);
  };
  await clearPopup();
  await type(k, textboxes(k.text)[0]?.ref ?? 0, user);
  await clearPopup();
  await type(k, textboxes(k.text)[1]?.ref ?? 0, password);
  await clearPopup();
  await submit(k, /^(login|log in)$/i);
}
