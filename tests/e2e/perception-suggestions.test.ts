import { expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { openTab } from './support/open-tab';
import { call, lastMessage, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';
import { untilTaskEnds } from './support/task-harness';

// Issue 26 item 1 (what a model can name): typing into a field that shows suggestions is answered by them a moment
// later, when the page has looked them up after a pause in the typing. The step's settle waits for that answer, so the
// page the model is sent next shows the suggestions to pick from. Two kinds of field, each answering half a second
// after the last key: an ARIA combobox that changes other things at once (it marks itself busy and closes its list,
// which ended the settle before), and a script autocomplete that says nothing about itself but turns the browser's own
// suggestions off and listens to the keys (jQuery UI's), whose list is drawn over the page.

const COUNTRIES = ['Sweden', 'Switzerland', 'Spain', 'Norway', 'Swaziland'];
const PAUSE_MS = 500;

const PAGE = `<!doctype html><html><head><title>Suggestions</title>
<style>body{font:14px sans-serif} .menu{position:absolute;list-style:none;margin:0;padding:2px;background:#fff;border:1px solid #888}
.menu li{cursor:pointer;padding:2px} [role=listbox]{list-style:none;margin:0;padding:0}</style></head><body>
<h1>Where to</h1>
<label for="a">Country A</label>
<div id="a-wrap"><input id="a" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="a-list"></div>
<ul id="a-list" role="listbox" hidden></ul>
<p><label for="b">Country B</label> <input id="b" autocomplete="off"></p>
<p id="chosen"></p>
<script>
  const COUNTRIES = ${JSON.stringify(COUNTRIES)};
  const matches = (term) => COUNTRIES.filter((c) => term && c.toLowerCase().startsWith(term.toLowerCase()));
  const chose = (what) => { document.getElementById('chosen').textContent += what + ';'; };

  // A: an ARIA combobox. Each key marks it busy and closes its list at once; the list comes after a pause.
  const a = document.getElementById('a');
  const list = document.getElementById('a-list');
  let aTimer;
  a.addEventListener('input', () => {
    a.setAttribute('aria-busy', 'true');
    document.getElementById('a-wrap').className = 'loading';
    list.hidden = true;
    a.setAttribute('aria-expanded', 'false');
    clearTimeout(aTimer);
    aTimer = setTimeout(() => {
      list.replaceChildren(...matches(a.value).map((c) => {
        const li = document.createElement('li');
        li.setAttribute('role', 'option');
        li.textContent = c;
        li.addEventListener('click', () => { a.value = c; list.hidden = true; a.setAttribute('aria-expanded', 'false'); chose('A:' + c); });
        return li;
      }));
      list.hidden = false;
      a.setAttribute('aria-expanded', 'true');
      a.removeAttribute('aria-busy');
      document.getElementById('a-wrap').className = '';
    }, ${PAUSE_MS});
  });

  // B: a script autocomplete, as jQuery UI's: browser suggestions off, its own keys listened to, a menu drawn over the
  // page under the field after a pause.
  const b = document.getElementById('b');
  const menu = document.createElement('ul');
  menu.className = 'menu';
  menu.style.display = 'none';
  document.body.appendChild(menu);
  let bTimer;
  const search = () => {
    clearTimeout(bTimer);
    bTimer = setTimeout(() => {
      const found = matches(b.value);
      menu.replaceChildren(...found.map((c) => {
        const li = document.createElement('li');
        li.textContent = c;
        li.addEventListener('mousedown', (event) => event.preventDefault());
        li.addEventListener('click', () => { b.value = c; menu.style.display = 'none'; chose('B:' + c); });
        return li;
      }));
      const box = b.getBoundingClientRect();
      menu.style.left = box.left + window.scrollX + 'px';
      menu.style.top = box.bottom + window.scrollY + 'px';
      menu.style.display = found.length ? 'block' : 'none';
    }, ${PAUSE_MS});
  };
  b.addEventListener('keydown', search);
  b.addEventListener('input', search);
</script></body></html>`;

const e2e = useE2e({ model: 'act', stepBudget: 20, routes: { '/suggestions': PAGE } });

/** The number of a suggestion in the view, by its words, whatever role the page gives it. */
function suggestion(view: string, name: string): number | undefined {
  const match = new RegExp(`\\[(\\d+)\\] (?:option|clickable|listitem|menuitem|focusable) "${name}"`).exec(view);
  return match ? Number(match[1]) : undefined;
}

it('waits after typing until the field\'s suggestions show, so the next view lists them to pick from', async () => {
  const helper = await e2e.helper();
  const { page, tabId } = await openTab(e2e.ext, helper, e2e.site.url('/suggestions', 'shop.test'));
  const views: string[] = [];
  const pick = (name: string) => (request: RecordedRequest) => {
    const view = lastMessage(request);
    views.push(view);
    const ref = suggestion(view, name);
    // No retry: the view right after the typing must already show the list.
    return ref === undefined ? call('done', { success: false, summary: `No suggestion "${name}" after typing` }) : call('click', { ref });
  };
  e2e.fake.enqueue((request) => call('type', { ref: refIn(request, 'combobox', /^Country A$/), text: 'Sw' }));
  e2e.fake.enqueue(pick('Switzerland'));
  e2e.fake.enqueue((request) => call('type', { ref: refIn(request, 'textbox', /^Country B$/), text: 'Sw' }));
  e2e.fake.enqueue(pick('Sweden'));
  e2e.fake.enqueue(call('done', { success: true, summary: 'Picked both.' }));
  const started = await uiCall(helper, 'task.start', { tabId, text: 'Pick Switzerland in A and Sweden in B from their suggestions.', mode: 'act', flow: 'task' });
  await untilTaskEnds(helper, started.id, 90_000);

  const [afterA = '', afterB = ''] = views;
  // Each view after the typing lists the suggestions for "Sw" and nothing else.
  for (const view of [afterA, afterB]) {
    for (const name of ['Sweden', 'Switzerland', 'Swaziland']) expect(suggestion(view, name), `${name} in:\n${view}`).toBeDefined();
    expect(suggestion(view, 'Norway')).toBeUndefined();
  }
  expect(await page.$eval('#chosen', (el) => el.textContent)).toBe('A:Switzerland;B:Sweden;');
  await page.close();
});
