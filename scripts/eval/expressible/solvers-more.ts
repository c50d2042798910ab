import { exactly, find, findAll, said, type SolverKit, Unsolvable } from './solver-kit';
import { submit, type Solver } from './solvers-forms';

/** More families, each read off the snapshot the model is sent and done through Deputy's tools. */

const click = (k: SolverKit, ref: number) => k.act({ kind: 'click', ref });
const type = (k: SolverKit, ref: number, text: string) => k.act({ kind: 'type', ref, text, clear: true, submit: false });

/** The numbered element right after a line of text (an unlabelled field under its caption). */
function after(text: string, caption: string, role: RegExp): number {
  const at = text.search(new RegExp(`(^|\\s)${caption.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\n`, 'm'));
  if (at < 0) throw new Unsolvable(`no caption "${caption}" on the page`);
  const hit = findAll(text.slice(at), role)[0];
  if (!hit) throw new Unsolvable(`no field after "${caption}"`);
  return hit.ref;
}

export const MORE_SOLVERS: Record<string, Solver> = {
  'ascending-numbers': async (k) => {
    // The numbers hide once 1 is clicked, as they do for a person: where each stood is remembered, in the order the
    // snapshot listed them, and the covered boxes that replace them are listed in that same order.
    const shown = findAll(k.text, 'clickable', /^\d+$/).map((line) => Number(line.name));
    if (shown.length === 0) throw new Unsolvable('no numbers are numbered');
    await click(k, find(k.text, 'clickable', /^1$/).ref);
    const rest = shown.filter((n) => n !== 1);
    const boxes = findAll((await k.look()).text, 'clickable');
    if (boxes.length !== rest.length) throw new Unsolvable(`${rest.length} numbers were hidden, but ${boxes.length} boxes are numbered`);
    for (let n = 2; n <= shown.length; n += 1) await click(k, boxes[rest.indexOf(n)]?.ref ?? 0);
  },
  'find-greatest': async (k) => {
    const cards = findAll(k.text, 'clickable', /^\d+$/);
    const best = cards.reduce((a, b) => (Number(b.name) > Number(a.name) ? b : a), cards[0] ?? { ref: 0, name: '', role: '', rest: '' });
    if (!best.name) throw new Unsolvable('the cards show no numbers');
    await click(k, best.ref);
    await submit(k);
  },
  'generate-number': async (k) => {
    const [rule = ''] = said(k.text, /Generate (?:an? )?(.+?), then press submit/i);
    const fits = (n: number): boolean => {
      if (/^odd number/.test(rule)) return n % 2 === 1;
      if (/^even number/.test(rule)) return n % 2 === 0;
      const bound = /number (greater|less|bigger|smaller|larger) than (\d+)/.exec(rule);
      if (bound) return /greater|bigger|larger/.test(bound[1] ?? '') ? n > Number(bound[2]) : n < Number(bound[2]);
      throw new Unsolvable(`a rule the script does not know: "${rule}"`);
    };
    for (let turn = 0; turn < 30; turn += 1) {
      await click(k, find((await k.look()).text, 'button', /^Generate$/).ref);
      const shown = /press submit\.\s*(-?\d+)/i.exec((await k.look()).text);
      if (shown && fits(Number(shown[1]))) return submit(k);
    }
    throw new Unsolvable('no fitting number in 30 tries');
  },
  'form-sequence': async (k) => {
    const [value = '', nth = ''] = said(k.text, /Select (-?\d+) with the slider, click the (\d+)\w\w checkbox/);
    const handle = find(k.text, /^(slider|focusable)$/).ref;
    const set = await k.tryAct({ kind: 'set_value', ref: handle, value });
    if (!set.ok) {
      const now = Number(said(k.text, new RegExp(`\\[${handle}\\][^\\n]*\\n(-?\\d+)`))[0]);
      const wanted = Number(value);
      if (now !== wanted) await k.act({ kind: 'press', ref: handle, key: wanted > now ? 'ArrowRight' : 'ArrowLeft', times: Math.min(100, Math.abs(wanted - now)) });
    }
    const box = findAll((await k.look()).text, 'checkbox')[Number(nth) - 1];
    if (!box) throw new Unsolvable(`no checkbox ${nth}`);
    await k.act({ kind: 'check', ref: box.ref, checked: true });
    await submit(k);
  },
  'multi-layouts': async (k) => {
    const query = said(k.text, /Search for (.+?)\.\s/)[0] ?? '';
    const m = /^(\w[\w ]*?) movies directed by (.+?) from year (\d{4})$/.exec(query);
    if (!m) throw new Unsolvable(`a search the script cannot read: "${query}"`);
    const fields: Record<string, string> = { Genre: m[1] ?? '', Director: m[2] ?? '', Year: m[3] ?? '' };
    for (const [caption, value] of Object.entries(fields)) {
      const named = findAll(k.text, /^(textbox|searchbox)$/, new RegExp(`^${caption}`, 'i'))[0];
      await type(k, named?.ref ?? after(k.text, caption, /^(textbox|searchbox)$/), value);
    }
    await click(k, find((await k.look()).text, /^(button|clickable)$/, /^Submit$/i).ref);
  },
  'order-food': async (k) => {
    // Either items by name ("Order one of each item: A, B") or a count of a kind ("Order 3 items that are vegan").
    const byName = /Order one of each item: (.+)\n/.exec(k.text)?.[1];
    const byKind = /Order (\d+) items that are (\S+)\n/.exec(k.text);
    if (!byName && !byKind) throw new Unsolvable('the instruction asks for neither named items nor a count of a kind');
    const items = byName
      ? byName.split(/,\s*/).map((s) => s.trim()).filter(Boolean)
      : // Each dish's line is followed by its kinds' pictures (img "vegan"); the first dish of the kind takes the whole count.
        Array.from({ length: Number(byKind?.[1]) }, () => {
          const lines = k.text.split('\n');
          const at = lines.findIndex((line, i) => i > 0 && line.includes(`img "${byKind?.[2]}"`));
          const dish = lines.slice(0, at).reverse().find((line) => !line.startsWith('[') && line.trim() !== '');
          if (at < 0 || !dish) throw new Unsolvable(`no dish shows the ${byKind?.[2]} picture`);
          return dish.trim();
        });
    for (const item of items) {
      const text = (await k.look()).text;
      const at = text.indexOf(`\n${item}\n`);
      if (at < 0) throw new Unsolvable(`no item "${item}" on the menu`);
      const plus = await k.act({ kind: 'click', ref: find(text.slice(at), 'clickable', /^\+$/).ref });
      // The step says what the + changed (the count that appeared); "no visible effect" means the press was lost.
      if (/no visible effect/.test(plus.message)) throw new Unsolvable(`the + of "${item}" changed nothing: ${plus.message}`);
    }
    await click(k, find((await k.look()).text, /^(button|clickable)$/, /^Order!?$/i).ref);
  },
  'read-table-2': async (k) => {
    // The table's rows, one line each or run together in one line: everything between the instruction and the form.
    const table = (said(k.text, /submit when done\.\n([^[]+)\n\[/)[0] ?? '').replace(/\s+/g, ' ');
    for (const box of findAll(k.text, 'textbox')) {
      const label = box.name.replace(/:$/, '');
      const value = new RegExp(`(?:^|\\s)${label} (\\S+)`).exec(table)?.[1];
      if (!value) throw new Unsolvable(`the table has no ${label}`);
      await type(k, box.ref, value);
    }
    await submit(k);
  },
  'sign-agreement': async (k) => {
    const [name = '', button = ''] = said(k.text, /enter the name "(.+?)" then press "(.+?)"/);
    for (let turn = 0; turn < 6 && /\] textbox "Name"[^\n]*disabled/.test(k.text); turn += 1) {
      await k.act({ kind: 'scroll', ref: find(k.text, 'textbox').ref, direction: 'down', pages: 10 });
      await k.look();
    }
    await type(k, find((await k.look()).text, 'textbox', /^Name$/).ref, name);
    await click(k, find((await k.look()).text, 'button', exactly(button)).ref);
  },
  terminal: async (k) => {
    const [ext = ''] = said(k.text, /delete a file ending with the extension (\.\w+)/);
    const prompt = find(k.text, 'textbox').ref;
    await k.act({ kind: 'type', ref: prompt, text: 'ls', clear: true, submit: true });
    const listed = (await k.look()).text;
    const file = new RegExp(`(\\S+${ext.replace('.', '\\.')})(?:\\s|$)`).exec(listed.slice(listed.indexOf('user$ ls')))?.[1];
    if (!file) throw new Unsolvable(`ls showed no file ending in ${ext}`);
    await k.act({ kind: 'type', ref: find(listed, 'textbox').ref, text: `rm ${file}`, clear: true, submit: true });
  },
};
