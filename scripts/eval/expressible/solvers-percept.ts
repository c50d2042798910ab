import { escape, exactly, find, findAll, lines, said, type SolverKit, Unsolvable } from './solver-kit';
import { submit, type Solver } from './solvers-forms';

/**
 * Scripted solutions for the families that became expressible through product changes to perception and the value
 * tools (issue 26): each reads only the snapshot the model is sent and acts through Deputy's tools.
 */

const click = (k: SolverKit, ref: number) => k.act({ kind: 'click', ref });

/** What a control says it is: its name, else the icon it shows (`unnamed, icon "reply"`). */
function says(line: { name: string; rest: string }): string {
  // The icon a control shows under the pointer is its own with "-hover" added.
  return line.name || (/icon "([^"]*)"/.exec(line.rest)?.[1] ?? '').replace(/-hover$/, '');
}

/** Each post's author and the numbered controls that follow its "@user 3h ago" line, in page order. */
function posts(text: string): { user: string; head: string; controls: { ref: number; says: string }[] }[] {
  const out: { user: string; head: string; controls: { ref: number; says: string }[] }[] = [];
  for (const row of text.split('\n')) {
    const numbered = lines(row)[0];
    if (numbered) {
      out.at(-1)?.controls.push({ ref: numbered.ref, says: says(numbered) });
      continue;
    }
    // The page's instruction names the user too, and may share the first post's line: it is no post.
    const rest = row.replace(/(For the user|Click the)\b.*?(button\.|Submit\.)/, '');
    const user = [...rest.matchAll(/@(\w+)/g)].at(-1)?.[1];
    const last = out.at(-1);
    if (user) out.push({ user, head: rest.trim(), controls: [] });
    // The post's own words, on the line under its author when the snapshot keeps them apart: they tell two posts of
    // one author apart.
    else if (last && last.controls.length === 0 && rest.trim()) last.head += ` ${rest.trim()}`;
  }
  return out;
}

async function social(k: SolverKit): Promise<void> {
  const [action = ''] = said(k.text, /click (?:on )?the "(.+?)" button/i);
  const [user = ''] = said(k.text, /(?:user|by) @?(\w+)/);
  const some = /on (\d+) posts?/.exec(k.text);
  let wanted = /on all posts/.test(k.text) ? Infinity : some ? Number(some[1]) : 1;
  const direct = /^(reply|retweet|like|share)$/i.test(action);
  // Posts are told apart by what they say, not by their numbers, which may change as the list scrolls.
  const done = new Set<string>();
  for (let screen = 0; screen < 12 && wanted > 0; screen += 1) {
    for (const post of posts(k.text).filter((p) => p.user === user)) {
      if (post.controls.length === 0 || done.has(post.head) || wanted <= 0) continue;
      if (direct) {
        // A post cut off at the edge of the list may show only some of its controls: it is done once its own shows.
        const control = post.controls.find((c) => c.says.toLowerCase() === action.toLowerCase());
        if (!control) continue;
        done.add(post.head);
        wanted -= 1;
        await click(k, control.ref);
      } else {
        done.add(post.head);
        wanted -= 1;
        await click(k, (post.controls.find((c) => /more/i.test(c.says)) ?? post.controls.at(-1))?.ref ?? 0);
        const menu = (await k.look()).text;
        await click(k, find(menu, /^(clickable|listitem|menuitem|link|button|focusable)$/, exactly(action, 'i')).ref);
      }
    }
    if (wanted <= 0) break;
    const before = k.text;
    await k.act({ kind: 'scroll', direction: 'down', pages: 1 });
    if ((await k.look()).text.replace(/\(step \d+\)/g, '') === before.replace(/\(step \d+\)/g, '')) break;
  }
  if (findAll(k.text, 'button', /^submit$/i).length > 0) await submit(k);
}

async function autocomplete(k: SolverKit): Promise<void> {
  const [start = '', end = ''] = said(k.text, /starts with "(.+?)"(?: and ends with "(.+?)")?\./);
  const box = find(k.text, /^(textbox|searchbox|combobox)$/).ref;
  await k.act({ kind: 'type', ref: box, text: start, clear: true, submit: false });
  // Each suggestion is its own number, whatever role the page gives it (jQuery UI's are plain focusable items).
  const fits = new RegExp(`^${escape(start)}.*${escape(end)}$`, 'i');
  const choice = findAll((await k.look()).text, /^(option|menuitem|clickable|listitem|focusable)$/, fits)[0];
  if (!choice) throw new Unsolvable('no suggestion that fits is numbered');
  await click(k, choice.ref);
  await submit(k);
}

export const PERCEPT_SOLVERS: Record<string, Solver> = {
  // set_value on jQuery UI's spinner: typing is refused by the page, so the tool steps with the arrow keys and reads back.
  'use-spinner': async (k) => {
    const wanted = said(k.text, /Select (-?\d+) with the spinner/)[0] ?? '';
    await k.act({ kind: 'set_value', ref: find(k.text, /^(spinbutton|textbox)$/).ref, value: wanted });
    await submit(k);
  },
  // A plain drag onto the item whose place is wanted: the tool lands it there, up or down.
  'drag-items': async (k) => {
    const [name = '', where = ''] = said(k.text, /Drag (\S+) (.+?)\.\n/);
    const items = findAll(k.text, 'draggable');
    const from = items.findIndex((item) => item.name === name);
    const ordinal = /to the (\d+)\w+ position/.exec(where);
    const to = where === 'to the top' ? 0 : where === 'to the bottom' ? items.length - 1 : where === 'up by one position' ? from - 1 : where === 'down by one position' ? from + 1 : Number(ordinal?.[1]) - 1;
    const source = items[from];
    const target = items[to];
    if (!source || !target) throw new Unsolvable(`the list does not show ${name} and its place`);
    await k.act({ kind: 'drag', ref: source.ref, toRef: target.ref });
  },
  'social-media': social,
  'social-media-all': social,
  'social-media-some': social,
  'use-autocomplete': autocomplete,
  'use-autocomplete-nodelay': autocomplete,
};
