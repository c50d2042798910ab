import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval, TaskRecord } from '../../shared/protocol';
import type { StoredRoutine } from '../../shared/routines/routine';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { useE2e } from './support/e2e-fixture';
import { openTab } from './support/open-tab';
import { call, lastMessage, refIn } from './support/snapshot-refs';
import { closedPort, siteUrl } from './support/test-hosts';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

// Routines end to end: a task done once with the (scripted) model is saved as a routine, then replayed with no model
// server at all, after the page changed (one model call repairs the step), from an edited file, and on a site that
// now redirects elsewhere (the egress guard asks). One browser for the file.

/** The label of the shop's add buttons: a test changes it to show a page that changed since the routine was saved. */
let addLabel = 'Add to cart';

const PRODUCTS = ['Red mug', 'Blue mug', 'Green mug'];

const store = `<!doctype html><title>Mug store</title><h1>Mug store</h1>
<label>Item <input id="item"></label> <button id="go">Search</button>
<div id="results"></div><p id="cart">Cart: empty</p><a href="/checkout">Checkout</a>
<script>
document.getElementById('go').onclick = () => {
  const results = document.getElementById('results');
  results.innerHTML = '';
  for (const name of ${JSON.stringify(PRODUCTS)}) {
    const box = document.createElement('section');
    box.innerHTML = '<h2></h2><button></button>';
    box.querySelector('h2').textContent = name;
    const button = box.querySelector('button');
    button.textContent = LABEL;
    button.onclick = () => { localStorage.setItem('cart', name); document.getElementById('cart').textContent = 'Cart: ' + name; };
    results.append(box);
  }
};
</script>`;

const checkout = `<!doctype html><title>Checkout</title><h1>Checkout</h1>
<label>Delivery date <input id="date"></label><button id="place">Place order</button><p id="result"></p>
<script>
document.getElementById('place').onclick = () => {
  document.getElementById('result').textContent = 'Order placed: ' + localStorage.getItem('cart') + ' on ' + document.getElementById('date').value;
};
</script>`;

const e2e = useE2e({
  model: 'act',
  stepBudget: 30,
  routes: (url) => ({
    '/store': { body: store.replace('LABEL', JSON.stringify(addLabel)), headers: { 'cache-control': 'no-store' } },
    '/checkout': checkout,
    // The site moved: its page now sends the visitor to another site.
    '/moved': `<!doctype html><title>Moved</title><p>Moved</p><script>location.href = ${JSON.stringify(url('/collect', 'evil.test'))};</script>`,
    '/collect': '<!doctype html><title>Elsewhere</title><p>Elsewhere</p>',
  }),
});
let helper: Page;
beforeAll(async () => {
  helper = await e2e.helper();
});
afterEach(() => e2e.fake.drop());

const shopUrl = (path: string): string => e2e.site.url(path, 'shop.test');
const FINISHED = ['completed', 'failed', 'stopped', 'handed_to_user'];

/** Waits for the task to end, approving what it asks (each approval is collected: a replay must ask again). */
async function finish(taskId: string, approvals: PendingApproval[] = [], decision: 'approve' | 'reject' = 'approve'): Promise<TaskRecord> {
  return waitUntil(`task ${taskId} to end`, async () => {
    const record = await uiCall(helper, 'task.get', { taskId });
    const approval = record?.approval;
    if (approval && !approvals.some((a) => a.id === approval.id)) {
      approvals.push(approval);
      await uiCall(helper, 'task.approve', { taskId, approvalId: approval.id, decision }).catch(() => undefined);
    }
    return record && FINISHED.includes(record.status) ? record : null;
  }, { timeoutMs: 90_000, everyMs: 100 });
}

/** The ref of the add button under a product, as a model reads it from the snapshot. */
function addUnder(request: RecordedRequest, product: string, label: string): number {
  const view = lastMessage(request);
  const match = new RegExp(`${product}[^\\n]*\\n[^\\n]*?\\[(\\d+)\\] button "${label}"`).exec(view);
  if (!match) throw new Error(`No ${label} under ${product}:\n${view.slice(0, 1500)}`);
  return Number(match[1]);
}

async function pageText(page: Page): Promise<string> {
  return page.evaluate(() => document.body.innerText);
}

let routine: StoredRoutine;
/** What the live run asked the user: a replay asks the same again (a routine never carries an approval). */
const liveApprovals: PendingApproval[] = [];

describe('routines', () => {
  it('records: a task done with the model is saved with its elements by identity and the user values as parameters', async () => {
    const { page, tabId } = await openTab(e2e.ext, helper, shopUrl('/store'));
    e2e.fake.enqueue(
      (r: RecordedRequest) => call('type', { ref: refIn(r, 'textbox', /^Item$/), text: 'blue mug' }),
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Search$/) }),
      (r: RecordedRequest) => call('click', { ref: addUnder(r, 'Blue mug', 'Add to cart') }),
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'link', /^Checkout$/) }),
      (r: RecordedRequest) => call('type', { ref: refIn(r, 'textbox', /^Delivery date$/), text: '2026-12-01' }),
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Place order$/) }),
      () => call('done', { success: true, summary: 'Ordered.' }),
    );
    const started = await uiCall(helper, 'task.start', { tabId, text: 'Order a blue mug for delivery on 2026-12-01', mode: 'act', flow: 'task' });
    const record = await finish(started.id, liveApprovals);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    expect(await pageText(page)).toContain('Order placed: Blue mug on 2026-12-01');
    expect(liveApprovals.map((a) => a.intent)).toEqual([expect.stringContaining('Place order')]);

    routine = await uiCall(helper, 'routine.save', { taskId: started.id, name: 'Mug order' });
    const saved = routine.routine;
    expect(saved.params).toEqual([
      { name: 'item', kind: 'text', example: 'blue mug' },
      { name: 'delivery_date', kind: 'date', example: '2026-12-01' },
    ]);
    expect(saved.task).toBe('Order a {{item}} for delivery on {{delivery_date}}');
    expect(saved.steps.map((s) => `${s.tool} ${s.target?.role ?? ''} ${s.target?.name ?? ''}`.trim())).toEqual([
      'type textbox Item',
      'click button Search',
      'click button Add to cart',
      'click link Checkout',
      'type textbox Delivery date',
      'click button Place order',
    ]);
    // The Add button is one of three: the product's name above it (the user's item) tells it apart.
    expect(saved.steps[2]?.target).toMatchObject({ near: '{{item}}', nth: 1, of: 3 });
    expect(JSON.stringify(saved.steps)).not.toMatch(/"ref"/);
    expect(saved.sites).toEqual([new URL(shopUrl('/')).origin]);
  });

  it('replays with no model server running at all: new values, the same checks, and approvals asked again', async () => {
    const down = await closedPort();
    await uiCall(helper, 'settings.set', { provider: { ...e2e.modelSettings().provider!, baseUrl: siteUrl(down, 'models.test', '/v1') } });
    const before = e2e.fake.requests.length;
    const { page, tabId } = await openTab(e2e.ext, helper);
    await expect(uiCall(helper, 'routine.run', { id: routine.id, tabId, params: { item: 'green mug', delivery_date: '2026-13-01' } })).rejects.toThrow(/YYYY-MM-DD/);
    const approvals: PendingApproval[] = [];
    const started = await uiCall(helper, 'routine.run', { id: routine.id, tabId, params: { item: 'green mug', delivery_date: '2027-01-05' } });
    const record = await finish(started.id, approvals);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    expect(await pageText(page)).toContain('Order placed: Green mug on 2027-01-05');
    expect(record.routine).toMatchObject({ done: 6, modelCalls: 0, repairs: [] });
    expect(e2e.fake.requests.length).toBe(before);
    expect(approvals.map((a) => a.intent)).toEqual([expect.stringContaining('Place order')]);
    expect(record.text).toBe('Routine "Mug order": Order a green mug for delivery on 2027-01-05');
    await uiCall(helper, 'settings.set', e2e.modelSettings());
  });

  it('replays after the page changed: exactly one model call repairs the step, and the repair updates the routine', async () => {
    addLabel = 'Add to basket';
    try {
      const before = e2e.fake.requests.length;
      const { page, tabId } = await openTab(e2e.ext, helper);
      e2e.fake.enqueue((r: RecordedRequest) => call('click', { ref: addUnder(r, 'Red mug', 'Add to basket') }));
      const started = await uiCall(helper, 'routine.run', { id: routine.id, tabId, params: { item: 'red mug', delivery_date: '2027-02-01' } });
      const record = await finish(started.id);
      expect(record.status, record.agent?.endReason ?? '').toBe('completed');
      expect(await pageText(page)).toContain('Order placed: Red mug on 2027-02-01');
      expect(e2e.fake.requests.length - before).toBe(1);
      // The model was told which step, and why.
      expect(lastMessage(e2e.fake.requests.at(-1)!)).toContain('No button "Add to cart" is on the page now');
      expect(record.routine?.modelCalls).toBe(1);
      expect(record.routine?.repairs).toHaveLength(1);

      const updated = await uiCall(helper, 'routine.update', { taskId: started.id });
      expect(updated.routine.steps[2]?.target).toMatchObject({ role: 'button', name: 'Add to basket', near: '{{item}}' });
      // With the routine updated, the changed page needs no model at all.
      const again = await openTab(e2e.ext, helper);
      const rerun = await finish((await uiCall(helper, 'routine.run', { id: routine.id, tabId: again.tabId, params: { item: 'blue mug', delivery_date: '2027-02-02' } })).id);
      expect(rerun.routine).toMatchObject({ done: 6, modelCalls: 0 });
      expect(await pageText(again.page)).toContain('Order placed: Blue mug on 2027-02-02');
    } finally {
      addLabel = 'Add to cart';
    }
  });

  it('imports a file: an edited one is shown as edited, and the sites it reaches are listed', async () => {
    const exported = await uiCall(helper, 'routine.export', { id: routine.id });
    expect(exported.fileName).toBe('mug-order.routine.json');
    expect(exported.text.indexOf('"sites"')).toBeLessThan(exported.text.indexOf('"steps"'));
    const clean = await uiCall(helper, 'routine.import', { text: exported.text });
    expect(clean.routine.edited).toBe(false);
    const edited = await uiCall(helper, 'routine.import', { text: exported.text.replace('"Mug order"', '"Mug order (mine)"') });
    expect(edited.routine.edited).toBe(true);
    expect(edited.note).toMatch(/changed after it was exported/);
    await expect(uiCall(helper, 'routine.import', { text: '{"hello": 1}' })).rejects.toThrow(/cannot be used/);
  });

  it('a routine whose site now redirects elsewhere: the egress guard asks, and refusing keeps the tab home', async () => {
    const exported = JSON.parse((await uiCall(helper, 'routine.export', { id: routine.id })).text) as { startUrl: string };
    exported.startUrl = shopUrl('/moved');
    const imported = await uiCall(helper, 'routine.import', { text: JSON.stringify(exported) });
    expect(imported.routine.edited).toBe(true);
    const { page, tabId } = await openTab(e2e.ext, helper);
    const approvals: PendingApproval[] = [];
    const started = await uiCall(helper, 'routine.run', { id: imported.routine.id, tabId, params: { item: 'red mug', delivery_date: '2027-03-01' } });
    e2e.fake.enqueue(() => call('done', { success: false, summary: 'The shop now sends visitors to another site.' }));
    const record = await finish(started.id, approvals, 'reject');
    expect(record.status).not.toBe('completed');
    expect(approvals.some((a) => (a.destination ?? `${a.intent} ${a.reason}`).includes('evil.test'))).toBe(true);
    expect(page.url()).not.toContain('evil.test');
  });
  it('in the side panel: Save as routine after a task, a parameter form that checks its values and runs, an edited file marked as edited', async () => {
    const { panel, tabId } = await e2e.panelOn(shopUrl('/store'));
    e2e.fake.enqueue(
      (r: RecordedRequest) => call('type', { ref: refIn(r, 'textbox', /^Item$/), text: 'red mug' }),
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Search$/) }),
      () => call('done', { success: true, summary: 'Searched.' }),
    );
    const started = await uiCall(panel, 'task.start', { tabId, text: 'Search the store for red mug', mode: 'act', flow: 'task' });
    expect((await finish(started.id)).status).toBe('completed');
    await panel.waitForSelector('[data-testid=routine-name]');
    await panel.type('[data-testid=routine-name]', 'Mug search');
    // The state the click needs: the name taken and the button enabled, and the button itself (not the docked input
    // over the page's end) under its middle, as the user sees it.
    await panel.waitForFunction(
      () => {
        const button = document.querySelector<HTMLButtonElement>('[data-testid=save-routine-button]');
        const name = document.querySelector<HTMLInputElement>('[data-testid=routine-name]');
        if (!button || button.disabled || name?.value !== 'Mug search') return false;
        const box = button.getBoundingClientRect();
        return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === button;
      },
      { timeout: 60_000, polling: 100 },
    );
    await panel.click('[data-testid=save-routine-button]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=routine-said]')?.textContent?.includes('asks for item'), { timeout: 60_000, polling: 100 });

    // A tab with no task shows the routines, each with a form for its parameters.
    const other = await e2e.panelOn(shopUrl('/store?tab=2'));
    await other.panel.waitForFunction(() => [...document.querySelectorAll('[data-testid=routine-title]')].some((e) => e.textContent === 'Mug search'), { timeout: 60_000, polling: 100 });
    const mine = await other.panel.$$('[data-testid=routine]');
    let form: (typeof mine)[number] | undefined;
    for (const element of mine) if ((await element.$eval('[data-testid=routine-title]', (e) => e.textContent)) === 'Mug search') form = element;
    expect(form).toBeDefined();
    const field = await form!.$('[data-testid=routine-param][data-param=item]');
    await field!.click({ count: 3 });
    await field!.press('Backspace');
    await (await form!.$('[data-testid=run-routine]'))!.click();
    await other.panel.waitForFunction(() => [...document.querySelectorAll('[data-testid=routine-error]')].some((e) => e.textContent?.includes('needs a value for item')), { timeout: 60_000, polling: 100 });
    await field!.type('green mug');
    const before = e2e.fake.requests.length;
    await (await form!.$('[data-testid=run-routine]'))!.click();
    const run = await waitUntil('the routine to run on the tab', async () => {
      const tasks = await uiCall(other.panel, 'task.list', {});
      const found = tasks.find((t) => t.tabId === other.tabId && t.routine !== undefined);
      return found && FINISHED.includes(found.status) ? found : null;
    }, { timeoutMs: 60_000, everyMs: 200 });
    expect(run.status).toBe('completed');
    expect(run.routine).toMatchObject({ done: 2, modelCalls: 0 });
    expect(e2e.fake.requests.length).toBe(before);
    expect(await other.target.$eval('#item', (e) => (e as HTMLInputElement).value)).toBe('green mug');

    // An exported file changed by hand is imported, and shown as edited.
    const id = await form!.evaluate((e) => e.getAttribute('data-routine-id'));
    const exported = await uiCall(panel, 'routine.export', { id: id! });
    const path = join(e2e.profile, 'mug-search.routine.json');
    await writeFile(path, exported.text.replace('"Mug search"', '"Mug search (changed)"'));
    const third = await e2e.panelOn(shopUrl('/store?tab=3'));
    const input = await third.panel.waitForSelector('[data-testid=import-routine]');
    await (input as ElementHandle<HTMLInputElement>).uploadFile(path);
    await third.panel.waitForFunction(() => document.querySelector('[data-testid=import-note]')?.textContent?.includes('changed after it was exported'), { timeout: 60_000, polling: 100 });
    await third.panel.waitForSelector('[data-testid=routine][data-edited=true] [data-testid=routine-edited]');
  });
  it('on a schedule: the alarm starts the routine in a tab of its own, and a step that needs approval waits for the user', async () => {
    await expect(uiCall(helper, 'routine.schedule', { routineId: routine.id, every: 'weekly', time: '07:30' })).rejects.toThrow(/weekday/);
    // The routine was updated to the relabelled button above: on this page that one step is repaired by the model.
    e2e.fake.enqueue((r: RecordedRequest) => call('click', { ref: addUnder(r, 'Blue mug', 'Add to cart') }));
    const schedule = await uiCall(helper, 'routine.schedule', {
      routineId: routine.id,
      params: { item: 'blue mug', delivery_date: '2027-04-01' },
      every: 'once',
      at: Date.now() + 1500,
      costCapUsd: 0.05,
      runsPerDay: 1,
    });
    const waiting = await waitUntil('the scheduled run to wait for an approval', async () => {
      const found = (await uiCall(helper, 'task.list', {})).find((t) => t.schedule?.id === schedule.id);
      return found?.status === 'awaiting_approval' ? found : null;
    }, { timeoutMs: 60_000, everyMs: 200 });
    expect(waiting.approval?.intent).toContain('Place order');
    expect(waiting.schedule).toEqual({ id: schedule.id, costCapUsd: 0.05 });
    // Being scheduled approves nothing: it is still waiting a moment later, its order not placed.
    const again = await waitUntil('the run to be read again', async () => uiCall(helper, 'task.get', { taskId: waiting.id }));
    expect(again.status).toBe('awaiting_approval');
    const [done] = await uiCall(helper, 'routine.schedules', {});
    expect(done).toMatchObject({ id: schedule.id, nextAt: null, runs: { count: 1 }, lastTaskId: waiting.id });
    const ended = await finish(waiting.id, [], 'reject');
    expect(ended.status).not.toBe('completed');
    expect((await uiCall(helper, 'routine.unschedule', { id: schedule.id })).deleted).toBe(true);
  });

  it('in the side panel: a schedule form that says what is wrong with bad input, sets a weekly run with its next time, and clears it', async () => {
    const { panel } = await e2e.panelOn(shopUrl('/store?tab=schedule'));
    const card = await panel.waitForSelector(`[data-testid=routine][data-routine-id="${routine.id}"]`, { timeout: 60_000 });
    await (await card!.$('[data-testid=routine-schedule] summary'))!.click();
    const errorSays = (text: string) => panel.waitForFunction((id, want) => document.querySelector(`[data-routine-id="${id}"] [data-testid=schedule-error]`)?.textContent?.includes(want), { timeout: 60_000, polling: 100 }, routine.id, text);
    const submit = async (): Promise<void> => (await card!.$('[data-testid=schedule-routine]'))!.click();
    // Bad input: each says what to do.
    const cost = (await card!.$('[data-testid=schedule-cost]'))!;
    await cost.click({ count: 3 });
    await cost.type('lots');
    await submit();
    await errorSays('cost cap is an amount in US dollars');
    await cost.click({ count: 3 });
    await cost.type('0.20');
    await card!.$eval('[data-testid=schedule-every]', (e) => e.scrollIntoView());
    await (await card!.$('[data-testid=schedule-every]'))!.select('once');
    await submit();
    await errorSays('Pick the date and time it runs');
    // A value the routine cannot use is said when the schedule is set, not when it runs.
    const date = (await card!.$('[data-testid=routine-param][data-param=delivery_date]'))!;
    await date.click({ count: 3 });
    await date.type('next week');
    await (await card!.$('[data-testid=schedule-every]'))!.select('weekly');
    await (await card!.$('[data-testid=schedule-weekday]'))!.select('3');
    await submit();
    await errorSays('delivery_date');
    await date.click({ count: 3 });
    await date.type('2027-05-05');
    await submit();
    const item = await panel.waitForSelector(`[data-routine-id="${routine.id}"] [data-testid=schedule-item]`, { timeout: 60_000 });
    expect(await item!.$eval('[data-testid=schedule-when]', (e) => e.textContent)).toMatch(/^Every Wednesday at 08:00 · next /);
    expect(await item!.$eval('[data-testid=schedule-last]', (e) => e.textContent)).toBe('Last run: none yet');
    const [set] = (await uiCall(panel, 'routine.schedules', {})).filter((s) => s.routineId === routine.id);
    expect(set).toMatchObject({ every: 'weekly', weekday: 3, time: '08:00', costCapUsd: 0.2, runsPerDay: 1, params: { delivery_date: '2027-05-05' } });
    expect(new Date(set!.nextAt!).getDay()).toBe(3);
    await (await item!.$('[data-testid=clear-schedule]'))!.click();
    await panel.waitForFunction((id) => document.querySelector(`[data-routine-id="${id}"] [data-testid=schedule-said]`)?.textContent === 'Schedule cleared.' && !document.querySelector(`[data-routine-id="${id}"] [data-testid=schedule-item]`), { timeout: 60_000, polling: 100 }, routine.id);
    expect((await uiCall(panel, 'routine.schedules', {})).filter((s) => s.routineId === routine.id)).toEqual([]);
  });
});
