import { expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { openTab } from './support/open-tab';
import { call, lastMessage } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';
import { untilTaskEnds } from './support/task-harness';

// Issue 26, "drag and click land where the tool says" and "values that are true", on generated pages:
// - A control whose hover changes its own box for a moment (an image swapped in by a :hover rule has no width while it
//   loads, a control that slides in on hover) is clicked where it is once the pointer has arrived, not where it was:
//   every case of collapse-or-shift x how long it lasts is clicked exactly once, and controls without a hover effect
//   are clicked exactly once too.
// - A scroll without a ref moves the box that hides the rest when the page itself cannot move that way (a list in a
//   fixed frame: "N more elements above; scroll up"), and the page when it can.

const EFFECTS = ['collapse', 'shift'] as const;
const LASTS_MS = [30, 90, 180] as const;
const cases = [
  ...EFFECTS.flatMap((effect) => LASTS_MS.map((ms) => ({ id: `${effect}-${ms}`, effect, ms }))),
  { id: 'still-a', effect: 'none', ms: 0 },
  { id: 'still-b', effect: 'none', ms: 0 },
] as const;

const ARRIVAL_PAGE = `<!doctype html><html><head><title>Hover effects</title>
<style>body{font:14px sans-serif} .row{margin:6px 0} .ctl{display:inline-block;height:18px;width:90px;background:#cde;cursor:pointer;overflow:hidden;white-space:nowrap}</style></head><body>
${cases.map((c) => `<div class="row" data-row="${c.id}"><span class="ctl" id="${c.id}" role="button" aria-label="Do ${c.id}"></span></div>`).join('\n')}
<p id="log"></p>
<script>
  const log = (what) => { document.getElementById('log').textContent += what + ';'; };
  ${JSON.stringify(cases)}.forEach((c) => {
    const el = document.getElementById(c.id);
    el.addEventListener('click', () => log(c.id));
    // What was under the pointer instead: a press there is a click lost.
    el.parentElement.addEventListener('click', (event) => { if (event.target === el.parentElement) log('missed-' + c.id); });
    if (c.effect === 'none') return;
    el.addEventListener('mouseenter', () => {
      // A swapped-in image with no width until it has loaded (once), or a control that slides right on the first hover:
      // the old place is not the control for a while.
      if (c.effect === 'collapse') el.style.width = '0px';
      else el.style.marginLeft = '200px';
      setTimeout(() => { el.style.width = ''; el.style.marginLeft = c.effect === 'shift' ? '120px' : ''; }, c.ms);
    }, { once: true });
  });
</script></body></html>`;

const ITEMS = Array.from({ length: 40 }, (_, i) => `Item ${i + 1}`);
/** A page that never scrolls itself; its list scrolls in a frame of its own, opened in the middle. */
const FRAMED_PAGE = `<!doctype html><html><head><title>Framed list</title>
<style>html,body{height:100%;margin:0;overflow:hidden} #list{height:300px;width:300px;overflow-y:auto;border:1px solid #888} #list p{margin:0;padding:8px}</style></head><body>
<div id="list">${ITEMS.map((item) => `<p><button>${item}</button></p>`).join('')}</div>
<script>document.getElementById('list').scrollTop = 500;</script></body></html>`;
/** A page that scrolls itself, with a small scrolling box in it: a scroll without a ref is the page's. */
const LONG_PAGE = `<!doctype html><html><head><title>Long page</title>
<style>body{margin:0} #box{height:100px;overflow-y:auto} #box p{margin:0;padding:8px}</style></head><body>
<div id="box">${ITEMS.slice(0, 10).map((item) => `<p>${item}</p>`).join('')}</div>
${ITEMS.map((item) => `<p style="height:80px">Section ${item}</p>`).join('')}</body></html>`;

/** Text to select, as a person would, in every kind of place text sits: each case's words and where they are. */
const SELECT_CASES = [
  { id: 'plain', html: '<p>Lorem ipsum dolor sit amet consectetur.</p>', select: 'ipsum dolor sit' },
  { id: 'inline', html: '<p>Pack the <b>red</b> and <i>blue</i> boxes today.</p>', select: 'the red and blue boxes' },
  { id: 'wrapped', html: `<p style="width:160px">${'alpha beta gamma delta epsilon zeta eta theta iota kappa'}</p>`, select: 'gamma delta epsilon zeta eta theta' },
  { id: 'editable', html: '<div contenteditable="true">Tempor bibendum purus nulla.</div>', select: 'bibendum purus' },
  { id: 'field', html: '<textarea id="area" aria-label="Notes">Copy this sentence exactly</textarea>', select: 'this sentence' },
] as const;
const SELECT_PAGE = `<!doctype html><html><head><title>Select text</title></head><body>
${SELECT_CASES.map((c) => `<section>${c.html}</section>`).join('\n')}
<script>
  window.selections = [];
  const squash = (t) => t.replace(/\\s+/g, ' ').trim();
  document.addEventListener('selectionchange', () => { const t = squash(String(getSelection())); if (t) window.selections.push(t); });
  document.getElementById('area').addEventListener('select', (e) => window.selections.push(e.target.value.slice(e.target.selectionStart, e.target.selectionEnd)));
</script></body></html>`;

const e2e = useE2e({ model: 'act', stepBudget: 40, routes: { '/arrival': ARRIVAL_PAGE, '/framed': FRAMED_PAGE, '/long': LONG_PAGE, '/select': SELECT_PAGE } });

async function runTask(tabId: number, text: string): Promise<void> {
  const helper = await e2e.helper();
  const started = await uiCall(helper, 'task.start', { tabId, text, mode: 'act', flow: 'task' });
  await untilTaskEnds(helper, started.id, 90_000);
}

function refOf(view: string, name: string): number {
  const match = new RegExp(`\\[(\\d+)\\] button "${name}"`).exec(view);
  if (!match) throw new Error(`No button "${name}" in what the model was sent:\n${view}`);
  return Number(match[1]);
}

it('clicks a control whose hover changes its box where it is once the pointer has arrived, once each', async () => {
  const helper = await e2e.helper();
  const { page, tabId } = await openTab(e2e.ext, helper, e2e.site.url('/arrival', 'shop.test'));
  let plan: number[] = [];
  e2e.fake.enqueue((request: RecordedRequest) => {
    const view = lastMessage(request);
    plan = cases.map((c) => refOf(view, `Do ${c.id}`));
    return call('click', { ref: plan.shift() });
  });
  for (let i = 1; i < cases.length; i += 1) e2e.fake.enqueue(() => call('click', { ref: plan.shift() }));
  e2e.fake.enqueue(call('done', { success: true, summary: 'Clicked every control.' }));
  await runTask(tabId, 'Click every control on this page.');
  const log = (await page.$eval('#log', (el) => el.textContent ?? '')).split(';').filter(Boolean);
  // Each control took its click, once; no press landed on what was behind one.
  expect(log.filter((entry) => entry.startsWith('missed-'))).toEqual([]);
  for (const c of cases) expect(log.filter((entry) => entry === c.id), c.id).toHaveLength(1);
  await page.close();
});

it('scrolls the box that hides the rest when the page cannot move, and the page when it can', async () => {
  const helper = await e2e.helper();
  const framed = await openTab(e2e.ext, helper, e2e.site.url('/framed', 'shop.test'));
  const views: string[] = [];
  e2e.fake.enqueue((request: RecordedRequest) => {
    views.push(lastMessage(request));
    return call('scroll', { direction: 'up', pages: 5 });
  });
  e2e.fake.enqueue((request: RecordedRequest) => {
    views.push(lastMessage(request));
    return call('scroll', { direction: 'down', pages: 1 });
  });
  e2e.fake.enqueue((request: RecordedRequest) => {
    views.push(lastMessage(request));
    return call('done', { success: true, summary: 'Scrolled.' });
  });
  const middle = await framed.page.$eval('#list', (el) => el.scrollTop);
  await runTask(framed.tabId, 'Scroll the list to its top, then a page down.');
  // The page said there was more above, and the scroll up reached the list's top (then a page down moved it again).
  expect(views[0]).toMatch(/more elements above; scroll up/);
  expect(views[1]).toMatch(/\[\d+\] button "Item 1"/);
  const after = await framed.page.$eval('#list', (el) => el.scrollTop);
  expect(middle).toBe(500);
  expect(after).toBeGreaterThan(0);
  expect(after).toBeLessThan(500);
  await framed.page.close();

  const long = await openTab(e2e.ext, helper, e2e.site.url('/long', 'shop.test'));
  e2e.fake.enqueue(call('scroll', { direction: 'down', pages: 1 }));
  e2e.fake.enqueue(call('done', { success: true, summary: 'Scrolled.' }));
  await runTask(long.tabId, 'Scroll down a page.');
  // The page itself moved; the small box in it did not.
  expect(await long.page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  expect(await long.page.$eval('#box', (el) => el.scrollTop)).toBe(0);
  await long.page.close();
});

it('selects text as a person does, wherever it sits, reads it back, and says so when the text is not there', async () => {
  const helper = await e2e.helper();
  const { page, tabId } = await openTab(e2e.ext, helper, e2e.site.url('/select', 'shop.test'));
  const results: string[] = [];
  const lastTool = (request: RecordedRequest): string => {
    const messages = (request.json as { messages?: { role: string; content?: unknown }[] }).messages ?? [];
    const content = messages.filter((m) => m.role === 'tool').at(-1)?.content;
    return typeof content === 'string' ? content : JSON.stringify(content ?? '');
  };
  const steps = [
    ...SELECT_CASES.map((c) => (view: string) => {
      if (c.id !== 'field') return call('select_text', { text: c.select });
      const ref = /\[(\d+)\] textbox "Notes"/.exec(view)?.[1];
      return call('select_text', { text: c.select, ref: Number(ref) });
    }),
    () => call('select_text', { text: 'words nowhere on the page' }),
  ];
  for (const [i, step] of steps.entries()) {
    e2e.fake.enqueue((request: RecordedRequest) => {
      if (i > 0) results.push(lastTool(request));
      return step(lastMessage(request));
    });
  }
  e2e.fake.enqueue((request: RecordedRequest) => {
    results.push(lastTool(request));
    return call('done', { success: true, summary: 'Selected.' });
  });
  await runTask(tabId, 'Select each piece of text.');
  const selections = await page.evaluate(() => (window as unknown as { selections: string[] }).selections);
  for (const [i, c] of SELECT_CASES.entries()) {
    // The page saw the selection, and the step said what it selected.
    expect(selections, c.id).toContain(c.select);
    expect(results[i]?.toLowerCase(), c.id).toContain(`selected "${c.select}"`);
    // Page text is selected with the pointer, as a person does (a text field's own selection is set directly).
    if (c.id !== 'field') expect(results[i], c.id).toContain('with the mouse');
  }
  expect(results.at(-1)).toMatch(/^Error: .*no "words nowhere on the page"/);
  await page.close();
});
