import { expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { openTab } from './support/open-tab';
import { call, lastMessage } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';
import { waitUntil } from './support/wait-until';

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

const e2e = useE2e({ model: 'act', stepBudget: 40, routes: { '/listeners': PAGE } });

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
  await waitUntil(
    'the task to end',
    async () => {
      const record = await uiCall(helper, 'task.get', { taskId: started.id });
      return record !== null && ['completed', 'failed', 'stopped', 'handed_to_user'].includes(record.status);
    },
    { timeoutMs: 90_000 },
  );

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
