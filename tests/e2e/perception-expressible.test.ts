import { expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { openTab } from './support/open-tab';
import { call, lastMessage } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';
import { untilTaskEnds } from './support/task-harness';

// Issue 26, items 1 and 2, on generated pages: every kind of element a page makes clickable only through script
// listeners (a span, a div cell, an SVG shape, a key-listening element) gets a number the model can click, while a
// container that delegates its clicks (the document, a list around listened-to items) does not; SVG links are
// numbered; and long text is not cut mid-sentence: it is shortened past several lines at a sentence's end, with a
// marker saying how much is left, and `find` reads it whole.

const SENTENCE = 'The quick brown fox jumps over the lazy dog near the riverbank at dawn.';
const LONG = Array.from({ length: 12 }, (_, i) => SENTENCE.replace('fox', `fox number ${i + 1}`)).join(' ');
const INSTRUCTION = 'Click on the swatch whose colour matches the one named in the note at the very end of this long instruction line, please.';

/** A matrix of script-only controls: tag x event type, each with a visible label, and noise that must stay unnumbered. */
const KINDS = ['span', 'div', 'b', 'p'] as const;
const EVENTS = ['click', 'mousedown', 'pointerup', 'keydown'] as const;
const cells = KINDS.flatMap((tag) => EVENTS.map((type) => ({ tag, type, label: `${tag}-${type}` })));

const PAGE = `<!doctype html><html><head><title>Listeners</title>
<style>body{font:14px sans-serif} .cell{display:inline-block;margin:2px;padding:2px} p,b{display:inline-block}</style></head><body>
<p id="instruction">${INSTRUCTION}</p>
<div id="grid">${cells.map((c) => `<${c.tag} class="cell" id="${c.label}">${c.label}</${c.tag}>`).join('')}</div>
<ul id="menu"><li class="opt">Alpha</li><li class="opt">Beta</li></ul>
<svg width="200" height="60"><circle id="dot" cx="30" cy="30" r="20" fill="red"><title>Red dot</title></circle>
<a href="#svg-link"><text x="80" y="35">Chart link</text></a></svg>
<p id="long">${LONG}</p>
<p id="log"></p>
<script>
  const log = (what) => { document.getElementById('log').textContent += what + ';'; };
  ${JSON.stringify(cells)}.forEach((c) => document.getElementById(c.label).addEventListener(c.type, () => log(c.label)));
  // Delegation noise: the document and the list listen for what happens inside them.
  document.addEventListener('click', () => {});
  document.getElementById('menu').addEventListener('click', () => {});
  document.querySelectorAll('.opt').forEach((li) => li.addEventListener('click', () => log(li.textContent)));
  document.getElementById('dot').addEventListener('click', () => log('dot'));
</script></body></html>`;

/**
 * Issue 26 item 1, the rule for controls a person tells apart: a matrix of icon-only controls (how the icon is drawn x
 * what holds them). Each icon listens itself; the holder is either an area that only has a pointer cursor (a mail's
 * Reply/Forward bar) or a row that listens itself (a mail row with star and bin). Each icon gets its own number with
 * the icon it shows; the cursor-only area gives way, the listening row keeps its number. Dialogs and title bars are
 * named by their own words, never after the button they hold. The rows sit in a box that scrolls on its own, 80 pixels
 * high: a click on a control scrolled out of it scrolls the box first (it would land on the box and do nothing).
 */
const DRAWN = ['content', 'background', 'img', 'sprite', 'font'] as const;
const HOLDERS = ['bar', 'row'] as const;
const iconCases = DRAWN.flatMap((drawn) => HOLDERS.map((holder) => ({ drawn, holder, id: `${drawn}-${holder}` })));
function iconHtml(drawn: (typeof DRAWN)[number], name: string): string {
  const box = 'display:inline-block;width:16px;height:16px;cursor:pointer';
  switch (drawn) {
    case 'content':
      return `<span class="ic" data-icon="${name}" style="${box};content:url(/img/${name}.png)"></span>`;
    case 'background':
      return `<span class="ic" data-icon="${name}" style="${box};background-image:url('/img/${name}.png?v=2')"></span>`;
    case 'img':
      return `<span class="ic" data-icon="${name}" style="${box}"><img src="/img/${name}.png" width="16" height="16"></span>`;
    case 'sprite':
      return `<span class="ic" data-icon="${name}" style="${box}"><svg width="16" height="16"><use href="#${name}"></use></svg></span>`;
    case 'font':
      return `<span class="ic" data-icon="${name}" style="${box}"><i class="fa fa-fw fa-${name}" style="display:inline-block;width:16px;height:16px"></i></span>`;
  }
}
const ICON_PAGE = `<!doctype html><html><head><title>Icons</title></head><body>
<div id="scroller" style="height:80px;overflow:auto;border:1px solid">
<svg style="display:none">${iconCases.flatMap((c) => [`<symbol id="${c.id}-reply" viewBox="0 0 4 4"><rect width="4" height="4"/></symbol>`, `<symbol id="${c.id}-trash" viewBox="0 0 4 4"><rect width="4" height="4"/></symbol>`]).join('')}</svg>
${iconCases
  .map((c) =>
    c.holder === 'bar'
      ? `<div class="bar" style="cursor:pointer;padding:2px">${iconHtml(c.drawn, `${c.id}-reply`)} ${iconHtml(c.drawn, `${c.id}-trash`)}</div>`
      : `<div class="row" id="row-${c.id}" style="cursor:pointer;padding:2px">Mail ${c.id} ${iconHtml(c.drawn, `${c.id}-reply`)} ${iconHtml(c.drawn, `${c.id}-trash`)}</div>`,
  )
  .join('\n')}
</div>
<div role="dialog" style="border:1px solid">
  <div class="titlebar" style="cursor:move">Preferences <button title="Close">Close</button></div>
  <div class="titlebar" style="cursor:move"><button title="Close">Close</button></div>
  <h2>Settings</h2><p>Dialog body.</p>
</div>
<p id="log"></p>
<script>
  const log = (what) => { document.getElementById('log').textContent += what + ';'; };
  document.querySelectorAll('.ic').forEach((el) => el.addEventListener('click', (event) => { event.stopPropagation(); log(el.dataset.icon); }));
  document.querySelectorAll('.row').forEach((el) => el.addEventListener('click', () => log(el.id)));
</script></body></html>`;

const e2e = useE2e({ model: 'act', stepBudget: 40, routes: { '/listeners': PAGE, '/icons': ICON_PAGE } });

function refOf(view: string, role: string, name: string): number {
  const match = new RegExp(`\\[(\\d+)\\] ${role} "${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).exec(view);
  if (!match) throw new Error(`No ${role} "${name}" in what the model was sent:\n${view}`);
  return Number(match[1]);
}

it('numbers script-listened elements and SVG targets, leaves delegation out, and keeps long text whole to a sentence', async () => {
  const helper = await e2e.helper();
  const { page, tabId } = await openTab(e2e.ext, helper, e2e.site.url('/listeners', 'shop.test'));
  const views: string[] = [];
  const clickAll = (request: RecordedRequest) => {
    const view = lastMessage(request);
    views.push(view);
    // Every one is numbered; those that listen for the pointer are clicked (a key listener is numbered, not clicked).
    const numbered = cells.map((c) => ({ ...c, ref: refOf(view, 'clickable', c.label) }));
    return [...numbered.filter((c) => c.type !== 'keydown').map((c) => c.ref), refOf(view, 'clickable', 'Alpha'), refOf(view, 'clickable', 'Beta')];
  };
  let plan: number[] = [];
  e2e.fake.enqueue((request) => {
    plan = clickAll(request);
    const first = plan.shift();
    return call('click', { ref: first });
  });
  for (let i = 0; i < cells.length - KINDS.length + 1; i += 1) e2e.fake.enqueue(() => call('click', { ref: plan.shift() }));
  e2e.fake.enqueue((request) => {
    views.push(lastMessage(request));
    return call('find', { text: 'fox number 12' });
  });
  e2e.fake.enqueue((request) => {
    // The find's result is the tool message the model reads.
    const messages = (request.json as { messages?: { role: string; content?: unknown }[] }).messages ?? [];
    const content = messages.filter((m) => m.role === 'tool').at(-1)?.content;
    views.push(typeof content === 'string' ? content : JSON.stringify(content ?? ''));
    return call('done', { success: true, summary: 'Clicked every control.' });
  });
  const started = await uiCall(helper, 'task.start', { tabId, text: 'Click every control on this page.', mode: 'act', flow: 'task' });
  await untilTaskEnds(helper, started.id, 90_000);

  const first = views[0] ?? '';
  // Script-only controls of every tag and event type are numbered, each on its own; the SVG link and shape too.
  expect(first).toMatch(/\[\d+\] link "Chart link"/);
  expect(first).toMatch(/\[\d+\] clickable "(Red dot|#dot)"/);
  // The list that only delegates to its items is not numbered, nor named after them.
  expect(first).not.toMatch(/\[\d+\] clickable "Alpha ?Beta"/);
  // Every click reached its element through the number the model was given.
  const log = await page.$eval('#log', (el) => el.textContent ?? '');
  for (const c of cells.filter((cell) => cell.type !== 'keydown')) expect(log).toContain(`${c.label};`);
  expect(log).toContain('Alpha;');
  expect(log).toContain('Beta;');
  // The instruction (longer than a line) is whole; the long paragraph ends at a sentence with the marker.
  expect(first).toContain(INSTRUCTION);
  expect(first).toMatch(/at dawn\. … \(\+\d+ chars\)/);
  expect(first).not.toContain('fox number 12');
  // find reads the paragraph whole.
  expect(views.at(-1)).toContain('fox number 12 jumps over the lazy dog near the riverbank at dawn.');
  await page.close();
});

it('tells icon-only controls apart under a shared pointer cursor or a listening row, and names no container after its button', async () => {
  const helper = await e2e.helper();
  const { page, tabId } = await openTab(e2e.ext, helper, e2e.site.url('/icons', 'shop.test'));
  const views: string[] = [];
  const iconRef = (view: string, icon: string): number => {
    const match = new RegExp(`\\[(\\d+)\\] clickable unnamed, icon "${icon}"`).exec(view);
    if (!match) throw new Error(`No icon "${icon}" in what the model was sent:\n${view}`);
    return Number(match[1]);
  };
  let plan: number[] = [];
  e2e.fake.enqueue((request) => {
    const view = lastMessage(request);
    views.push(view);
    plan = [
      ...iconCases.flatMap((c) => [iconRef(view, `${c.id}-reply`), iconRef(view, `${c.id}-trash`)]),
      ...iconCases.filter((c) => c.holder === 'row').map((c) => refOf(view, 'clickable', `Mail ${c.id}`)),
    ];
    return call('click', { ref: plan.shift() });
  });
  const clicks = iconCases.length * 2 + iconCases.filter((c) => c.holder === 'row').length;
  for (let i = 1; i < clicks; i += 1) e2e.fake.enqueue(() => call('click', { ref: plan.shift() }));
  e2e.fake.enqueue(() => call('done', { success: true, summary: 'Clicked every icon.' }));
  const started = await uiCall(helper, 'task.start', { tabId, text: 'Click every icon on this page.', mode: 'act', flow: 'task' });
  await untilTaskEnds(helper, started.id, 90_000);
  const first = views[0] ?? '';
  // The cursor-only bars are not a control of their own: no clickable line is left for them besides their icons.
  const unnamedPlain = [...first.matchAll(/\[\d+\] clickable unnamed(?!, icon)/g)];
  expect(unnamedPlain).toHaveLength(0);
  // Dialogs and title bars are named by their own words.
  expect(first).toContain('dialog "Settings":');
  expect(first).toMatch(/\[\d+\] draggable "Preferences"/);
  expect(first).not.toMatch(/draggable "Close"/);
  const log = await page.$eval('#log', (el) => el.textContent ?? '');
  for (const c of iconCases) {
    expect(log).toContain(`${c.id}-reply;`);
    expect(log).toContain(`${c.id}-trash;`);
    if (c.holder === 'row') expect(log).toContain(`row-${c.id};`);
  }
  await page.close();
});
