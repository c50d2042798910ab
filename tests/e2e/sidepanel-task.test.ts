import type { Page } from 'puppeteer-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe-check';
import { openPanel, screenshotBothSchemes, tabIdOf, texts } from './support/panel-harness';
import { call, playSteps, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

/** A page whose two buttons each need approval; what they did shows in the status line. */
const ORDERS = `<!doctype html><title>Orders</title><h1>Your order</h1>
  <button onclick="document.getElementById('s').textContent = 'Order placed'">Place order</button>
  <button onclick="document.getElementById('s').textContent = 'Account deleted'">Delete my account</button>
  <p id="s" role="status">Nothing done yet</p>`;

const e2e = useE2e({
  demo: true,
  model: true,
  routes: (url) => ({
    '/': ORDERS,
    '/away': `<!doctype html><title>Help</title><h1>Help</h1><a href="${url('/docs', 'docs.test')}">Read the docs</a>
      <form method="post" action="${url('/collect', 'evil.test')}"><label>Message <input name="message"></label><button>Send a message</button></form>`,
    '/docs': '<!doctype html><title>Docs</title><h1>Docs</h1>',
    '/collect': '<!doctype html><title>Sent</title><h1>Sent</h1>',
  }),
});
let target: Page;
let panel: Page;
let tabId: number;

async function openOn(url: string): Promise<void> {
  target = await e2e.ext.browser.newPage();
  await target.goto(url, { waitUntil: 'load' });
  const helper = await e2e.ext.openExtensionPage('extension/sidepanel/index.html');
  tabId = await tabIdOf(helper, url);
  await uiCall(helper, 'settings.set', { provider: { preset: 'custom', baseUrl: e2e.fake.openaiBaseUrl, model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 }, defaultMode: 'act' });
  await helper.close();
  panel = await openPanel(e2e.ext, tabId);
  await panel.waitForSelector('[data-testid=task-input]');
}

/** Types the task in the panel's box and presses Enter, the way a user runs it. */
async function runInPanel(text: string): Promise<void> {
  await panel.click('[data-testid=task-input]');
  await panel.keyboard.type(text);
  await panel.keyboard.press('Enter');
  await panel.waitForSelector('[data-testid=task-progress]');
}

/** Waits until the card (an approval or a plan) on screen is another one than `id`: the next question for the user. */
function waitForNextCard(page: Page, card: 'approval-card' | 'plan-approval-card', id: string | null): Promise<unknown> {
  return page.waitForFunction(
    (selector, previous) => {
      const shown = document.querySelector(`[data-testid=${selector}]`);
      return shown !== null && shown.getAttribute('data-approval-id') !== previous;
    },
    { timeout: 60_000 },
    card,
    id,
  );
}

function waitForStatus(page: Page, status: string): Promise<unknown> {
  return page.waitForSelector(`[data-testid=task-progress][data-status=${status}]`, { timeout: 60_000 });
}

beforeEach(() => {
  expect(e2e.fake.remaining()).toBe(0);
});
afterEach(async () => {
  await panel?.close().catch(() => undefined);
  await target?.close().catch(() => undefined);
});

describe('the side panel runs a task given in it', () => {
  it('runs to completion with the plan and each step shown in order, and Shift+Enter makes a new line', async () => {
    await openOn(e2e.shop.url);
    await panel.click('[data-testid=task-input]');
    await panel.keyboard.type('Add the Pocket Buds');
    await panel.keyboard.down('Shift');
    await panel.keyboard.press('Enter');
    await panel.keyboard.up('Shift');
    expect(await panel.$eval('[data-testid=task-input]', (box) => (box as HTMLTextAreaElement).value)).toBe('Add the Pocket Buds\n');
    expect(await panel.$('[data-testid=task-progress]')).toBeNull();
    e2e.fake.enqueue(
      call('update_plan', { explanation: 'Two steps.', steps: [{ step: 'Add the Pocket Buds to the cart', status: 'in_progress' }, { step: 'Open the cart', status: 'pending' }] }),
      (r) => call('click', { ref: refIn(r, 'button', /^Add Pocket Buds/) }),
      (r) => call('click', { ref: refIn(r, 'link', /^Cart/) }),
      call('update_plan', { explanation: 'Done.', steps: [{ step: 'Add the Pocket Buds to the cart', status: 'completed' }, { step: 'Open the cart', status: 'completed' }] }),
      call('done', { success: true, summary: 'The Pocket Buds are in the cart, and the cart is open.' }),
    );
    await panel.keyboard.type('then open the cart');
    await panel.keyboard.press('Enter');
    // From the moment the plan and the first step are on screen, nothing above a step moves it while the rest stream in.
    await panel.waitForSelector('[data-testid=plan] li + li');
    await panel.waitForSelector('[data-testid=step]');
    const firstStepTop = (): Promise<number> => panel.$eval('[data-testid=step]', (element) => element.getBoundingClientRect().top + window.scrollY);
    const top = await firstStepTop();
    const tops: number[] = [];
    const sampling = (async () => {
      while ((await panel.$('[data-testid=task-progress][data-status=completed]')) === null) tops.push(await firstStepTop());
    })();
    await waitForStatus(panel, 'completed');
    await sampling;
    tops.push(await firstStepTop());
    expect(new Set(tops)).toEqual(new Set([top]));

    const steps = await texts(panel, '[data-testid=step-text]');
    expect(steps).toHaveLength(5);
    expect(steps[0]).toMatch(/^Updated the plan/);
    expect(steps[1]).toMatch(/^Clicked button "Add Pocket Buds/);
    expect(steps[2]).toMatch(/^Clicked link "Cart/);
    // The element numbers written for the model wait behind "details".
    expect(await panel.$$eval('[data-testid=step-details]', (items) => items.map((item) => (item as HTMLDetailsElement).open))).toEqual([false, false, false, false, false]);
    expect((await texts(panel, '[data-testid=step-details] pre'))[1]).toMatch(/As the model saw it: Clicked \[\d+\] button "Add Pocket Buds/);
    expect(steps[3]).toMatch(/^Updated the plan \(2\/2 done\)/);
    expect(steps[4]).toBe('Finished the task');
    expect(await panel.$$eval('[data-testid=step]', (items) => items.map((item) => item.getAttribute('data-state')))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(await panel.$eval('[data-testid=plan]', (plan) => Array.from(plan.children).map((item) => item.getAttribute('data-status')))).toEqual(['completed', 'completed']);
    expect(await panel.$eval('[data-testid=task-outcome]', (element) => element.textContent)).toBe('The Pocket Buds are in the cart, and the cart is open.');
    expect(await panel.$eval('[data-testid=task-status]', (element) => element.textContent)).toBe('Done');
    expect(await panel.$eval('[data-testid=task-usage]', (element) => element.textContent)).toMatch(/\d+ in · \d+ out/);
    // The effect on the page, not just the panel's word for it.
    expect(await target.evaluate(() => localStorage.getItem('cart'))).toBe(JSON.stringify([{ id: 'pocket-buds', qty: 1 }]));
    expect(target.url()).toMatch(/\/cart\.html$/);
    expect(await screenshotBothSchemes(panel, 'panel-task-completed')).toEqual([]);
  });

  it('follows the task down the page as it streams in, and stays where the user scrolled up to read', async () => {
    await openOn(e2e.shop.url);
    await panel.setViewport({ width: 360, height: 360 });
    const inView = (selector: string): Promise<boolean> =>
      panel.$eval(selector, (element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
    const steps = Array.from({ length: 4 }, (_, index) => call('update_plan', { explanation: `Look ${index + 1}.`, steps: [{ step: `Look at part ${index + 1} of the shop`, status: 'in_progress' }] }));
    e2e.fake.enqueue(...steps, call('done', { success: true, summary: 'Looked around.' }));
    await runInPanel('Look around the shop');
    // However it ends (a run of steps that change nothing ends it early), its outcome is the last thing written.
    await panel.waitForSelector('[data-testid=task-outcome]', { timeout: 60_000 });
    // The outcome landed below the fold, and the panel came down to it.
    await panel.waitForFunction(() => {
      const box = document.querySelector('[data-testid=task-outcome]')?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(await panel.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // The task has ended; a reply it ended before asking for is not wanted any more.
    e2e.fake.drop();

    // Scrolled up to read while the next task runs: the panel stays where the user is, even when the task changes.
    e2e.fake.enqueue(...steps.slice(0, 3), { hang: true });
    await panel.click('[data-testid=new-task]');
    await runInPanel('Look again');
    await panel.waitForFunction(() => document.querySelectorAll('[data-testid=step]').length >= 3 && window.scrollY > 0, { timeout: 60_000 });
    await panel.evaluate(() => window.scrollTo({ top: 0 }));
    await panel.waitForFunction(() => window.scrollY === 0);
    await uiCall(panel, 'task.stop', { taskId: (await panel.$eval('[data-testid=task-progress]', (element) => element.getAttribute('data-task-id'))) ?? '' });
    await waitForStatus(panel, 'stopped');
    // Stopped before or while it asked for its fourth step: the held reply is not wanted any more either way.
    e2e.fake.drop();
    expect(await panel.evaluate(() => window.scrollY)).toBe(0);
    expect(await inView('[data-testid=task-input]')).toBe(true);
  });

  it('continues an ended task with a follow-up typed at the bottom: same task, same tab, the model keeps the earlier turns', async () => {
    await openOn(e2e.shop.url);
    e2e.fake.enqueue(
      (r) => ({ text: 'Adding the Pocket Buds first.', ...call('click', { ref: refIn(r, 'button', /^Add Pocket Buds/) }) }),
      call('done', { success: true, summary: 'The Pocket Buds are in the cart.' }),
    );
    await runInPanel('Add the Pocket Buds');
    await waitForStatus(panel, 'completed');
    const taskId = await panel.$eval('[data-testid=task-progress]', (element) => element.getAttribute('data-task-id'));
    // The model's words are in the thread as it said them, not folded away.
    expect(await texts(panel, '[data-testid=thread-words] .bubble__text')).toEqual(['Adding the Pocket Buds first.']);
    expect(await panel.$('[data-testid=task-progress] details:not([data-testid=step-details])')).toBeNull();
    // The box is the last thing in the view, below the thread, and it now continues the task.
    expect(await panel.$eval('[data-testid=task-flow]', (flow) => flow.lastElementChild?.getAttribute('data-testid'))).toBe('composer-task');
    expect(await panel.$eval('[data-testid=composer-task]', (box) => [box.getAttribute('data-mode'), box.querySelector('label')?.textContent])).toEqual(['follow-up', 'Follow up on this task']);

    const asked = e2e.fake.requests.length;
    e2e.fake.enqueue((r) => call('click', { ref: refIn(r, 'link', /^Cart/) }), call('done', { success: true, summary: 'The cart is open with the Pocket Buds in it.' }));
    await runInPanel('Now open the cart');
    await panel.waitForFunction(() => document.querySelector('[data-testid=task-outcome]')?.textContent === 'The cart is open with the Pocket Buds in it.', { timeout: 60_000 });
    // The same task in the same tab: the cart opened where the Pocket Buds were added.
    expect(await panel.$eval('[data-testid=task-progress]', (element) => element.getAttribute('data-task-id'))).toBe(taskId);
    expect(target.url()).toMatch(/\/cart\.html$/);
    const listed = await uiCall(panel, 'task.list', { tabId });
    expect(listed.map((record) => [record.id, record.status, record.agent?.followUps?.map((f) => f.text)])).toEqual([[taskId, 'completed', ['Now open the cart']]]);
    // The model was sent the whole conversation: the first task, its words and actions, its outcome, then the follow-up.
    const first = e2e.fake.requests[asked]?.text ?? '';
    for (const said of ['Add the Pocket Buds', 'Adding the Pocket Buds first.', 'The Pocket Buds are in the cart.', 'Now open the cart']) expect(first).toContain(said);
    expect(first.indexOf('The Pocket Buds are in the cart.')).toBeLessThan(first.indexOf('Now open the cart'));
    // The thread reads as one conversation, and a panel opened again shows all of it.
    const thread = async (page: Page): Promise<string[]> => page.$$eval('[data-testid=steps] > li', (items) => items.map((item) => `${item.getAttribute('data-testid')}: ${item.querySelector('.bubble__text, [data-testid=step-text]')?.textContent ?? ''}`));
    const expected = [
      'thread-user: Add the Pocket Buds',
      'thread-words: Adding the Pocket Buds first.',
      expect.stringMatching(/^step: Clicked button "Add Pocket Buds/),
      'step: Finished the task',
      'thread-words: The Pocket Buds are in the cart.',
      'thread-user: Now open the cart',
      expect.stringMatching(/^step: Clicked link "Cart/),
      'step: Finished the task',
    ];
    expect(await thread(panel)).toEqual(expected);
    await panel.close();
    panel = await openPanel(e2e.ext, tabId);
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]');
    expect(await thread(panel)).toEqual(expected);
    expect(await screenshotBothSchemes(panel, 'panel-task-follow-up')).toEqual([]);
    expect(await seriousViolations(panel, 'follow-up thread')).toEqual([]);
    // The history entry is the whole thread too.
    await panel.click('[data-testid=flow-history]');
    const item = `[data-testid=history-item][data-task-id="${taskId ?? ''}"]`;
    await panel.waitForSelector(item);
    await panel.click(item);
    await panel.waitForSelector('[data-testid=history-detail] [data-testid=task-progress]');
    expect(await thread(panel)).toEqual(expected);
    await panel.click('[data-testid=flow-task]');

    // New task sets the ended one aside: the examples come back and the box starts a task of its own.
    await panel.click('[data-testid=new-task]');
    await panel.waitForSelector('[data-testid=examples]');
    expect(await panel.$eval('[data-testid=composer-task]', (box) => box.getAttribute('data-mode'))).toBe('new');
  });

  it('weights approvals by risk: Reject is the default, Approve names the consequence, and Enter never approves a payment', async () => {
    await openOn(e2e.site.url('/'));
    e2e.fake.enqueue(
      (r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }),
      (r) => call('click', { ref: refIn(r, 'button', /^Delete my account$/) }),
      call('done', { success: true, summary: 'Placed the order; the account was kept.' }),
    );
    await runInPanel('Place my order, then delete my account');

    await panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
    const host = new URL(e2e.site.url('/')).host;
    expect(await panel.$eval('[data-testid=approval-intent]', (element) => element.textContent)).toBe('Click button "Place order"');
    expect(await panel.$eval('[data-testid=approval-where]', (element) => element.textContent)).toBe(host);
    // One reason, said once: the reason names the money, so no chip repeats it.
    expect(await panel.$eval('[data-testid=approval-reason]', (element) => element.textContent)).toMatch(/spends money/);
    expect(await texts(panel, '[data-testid=approval-class]')).not.toContain('spends money');
    // Approve says what it does, in Deputy's words; Reject comes first and is the neutral default.
    expect(await texts(panel, '[data-testid=approval-card] .button-row button')).toEqual(['Reject', `Pay on ${host}`]);
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Nothing done yet');
    // The button the approval is about is outlined on the page while the card waits.
    await target.waitForSelector('button[data-deputy-highlight]', { timeout: 60_000 });
    expect(await target.$eval('button[data-deputy-highlight]', (element) => element.textContent)).toBe('Place order');
    expect(await panel.$('[data-testid=approval-show]')).not.toBeNull();
    expect(await screenshotBothSchemes(panel, 'panel-approval')).toEqual([]);
    // A payment is approved once or not at all: no "Approve for site" on its card.
    expect(await panel.$('[data-testid=approve-site]')).toBeNull();
    await panel.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'reject');
    // Enter on Approve does nothing: the task still waits on the same card and the page is untouched.
    const firstId = await panel.$eval('[data-testid=approval-card]', (element) => element.getAttribute('data-approval-id'));
    await panel.keyboard.press('Tab');
    expect(await panel.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('approve');
    await panel.keyboard.press('Enter');
    await panel.keyboard.press('Enter');
    const still = await uiCall(panel, 'task.list', { tabId, limit: 1 });
    expect(still[0]).toMatchObject({ status: 'awaiting_approval', approval: { id: firstId } });
    expect(await panel.$eval('[data-testid=approval-card]', (element) => element.getAttribute('data-approval-id'))).toBe(firstId);
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Nothing done yet');
    // Space on Approve is a deliberate answer: it approves.
    await panel.keyboard.press('Space');

    await waitForNextCard(panel, 'approval-card', firstId);
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Order placed');
    expect(await panel.$eval('[data-testid=approval-intent]', (element) => element.textContent)).toBe('Click button "Delete my account"');
    const why = `${(await texts(panel, '[data-testid=approval-class]')).join(' ')} ${await panel.$eval('[data-testid=approval-reason]', (element) => element.textContent ?? '')}`;
    expect(why).toMatch(/account/);
    expect(why).toMatch(/undone/);
    expect(await panel.$eval('[data-testid=approve]', (element) => element.textContent)).toBe(`Change your account on ${host} (cannot be undone)`);
    // The focus is on Reject again: Enter rejects.
    await panel.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'reject');
    await panel.keyboard.press('Enter');

    await waitForStatus(panel, 'completed');
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Order placed');
    expect(await panel.$$eval('[data-testid=step]', (items) => items.map((item) => item.getAttribute('data-state')))).toEqual(['ok', 'refused', 'ok']);
    expect(await panel.$('[data-testid=approval-card]')).toBeNull();
  });

  it('asks first with a plan card: Edit steps sends the user\'s own steps to the model, Start runs them, Cancel stops', async () => {
    await openOn(e2e.shop.url);
    await panel.click('[data-testid=mode-ask]');
    e2e.fake.enqueue(
      call('update_plan', { explanation: 'My plan.', steps: [{ step: 'Add the Pocket Buds to the cart', status: 'in_progress' }, { step: 'Check out', status: 'pending' }] }),
      (r) =>
        r.text.includes('wrote their own') && r.text.includes('2. Open the cart')
          ? call('update_plan', { explanation: 'Your plan.', steps: [{ step: 'Add the Pocket Buds to the cart', status: 'in_progress' }, { step: 'Open the cart', status: 'pending' }] })
          : call('done', { success: false, summary: 'The edited plan never reached me.' }),
      call('done', { success: true, summary: 'Following your plan.' }),
    );
    await runInPanel('Buy the Pocket Buds');
    await panel.waitForSelector('[data-testid=plan-approval-card]', { timeout: 60_000 });
    expect(await panel.$('[data-testid=approval-card]')).toBeNull();
    expect(await texts(panel, '[data-testid=plan-approval-steps] li')).toEqual(['Add the Pocket Buds to the cart', 'Check out']);
    await panel.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'plan-start');
    expect(await screenshotBothSchemes(panel, 'panel-plan-approval')).toEqual([]);
    await panel.click('[data-testid=plan-edit]');
    // The box takes the focus once it is drawn.
    await panel.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'plan-edit-input');
    await panel.$eval('[data-testid=plan-edit-input]', (box) => (box as HTMLTextAreaElement).select());
    await panel.keyboard.type('Add the Pocket Buds to the cart');
    await panel.keyboard.down('Shift');
    await panel.keyboard.press('Enter');
    await panel.keyboard.up('Shift');
    await panel.keyboard.type('Open the cart');
    const firstId = await panel.$eval('[data-testid=plan-approval-card]', (element) => element.getAttribute('data-approval-id'));
    await panel.click('[data-testid=plan-send-edit]');
    // The model takes the user's steps as its new plan, which gets its own card.
    await waitForNextCard(panel, 'plan-approval-card', firstId);
    expect(await texts(panel, '[data-testid=plan-approval-steps] li')).toEqual(['Add the Pocket Buds to the cart', 'Open the cart']);
    expect((await texts(panel, '[data-testid=step-check]'))[0]).toBe('you wrote your own steps instead');
    await panel.click('[data-testid=plan-start]');
    await waitForStatus(panel, 'completed');
    expect(await panel.$eval('[data-testid=task-outcome]', (element) => element.textContent)).toBe('Following your plan.');

    // Cancel on a plan stops the task: nothing more is asked of the model.
    const cart = await target.evaluate(() => localStorage.getItem('cart'));
    e2e.fake.enqueue(call('update_plan', { explanation: 'Plan.', steps: [{ step: 'Add the Pocket Buds to the cart', status: 'in_progress' }] }));
    await runInPanel('Add the Pocket Buds');
    await panel.waitForSelector('[data-testid=plan-approval-card]', { timeout: 60_000 });
    const sent = e2e.fake.requests.length;
    await panel.click('[data-testid=plan-cancel]');
    await waitForStatus(panel, 'stopped');
    expect(e2e.fake.requests.length).toBe(sent);
    expect(await target.evaluate(() => localStorage.getItem('cart'))).toBe(cart);
  });

  it('words each step by what happened: blocked by a rule, refused by you, gave up, each with its own mark and words', async () => {
    await openOn(e2e.site.url('/'));
    // Sites are compared with their port: the test's server is not on the default one.
    await uiCall(panel, 'settings.set', { deniedSites: [new URL(e2e.site.url('/', 'blocked.test')).host] });
    try {
      e2e.fake.enqueue(
        () => call('navigate', { url: e2e.site.url('/docs', 'blocked.test') }),
        (r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }),
        call('done', { success: false, summary: 'The docs are on a blocked site, and you declined the order.' }),
      );
      await runInPanel('Read the docs, then place my order');
      await panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
      await panel.click('[data-testid=reject]');
      await waitForStatus(panel, 'failed');
      expect(await panel.$$eval('[data-testid=step]', (items) => items.map((item) => item.getAttribute('data-state')))).toEqual(['blocked', 'refused', 'gave_up']);
      // Nothing that did not happen reads as done: the words say it, not only the colour.
      expect(await texts(panel, '[data-testid=step-text]')).toEqual([
        `Blocked by a rule: Open ${e2e.site.url('/docs', 'blocked.test')}`,
        'Refused by you: Click button "Place order"',
        'Gave up on the task',
      ]);
      const checks = await texts(panel, '[data-testid=step-check]');
      expect(checks[0]).toMatch(/^not done: Not allowed: .*blocked\.test.* is on the list of sites Deputy must not open/);
      expect(checks[1]).toBe('you rejected it, so it was not done');
      const marks = await texts(panel, '[data-testid=step] .step__mark');
      expect(new Set(marks).size).toBe(3);
      expect(marks).not.toContain('✓');
      expect(await panel.$eval('[data-testid=task-status]', (element) => element.textContent)).toBe('Gave up');
      expect(await target.$eval('#s', (element) => element.textContent)).toBe('Nothing done yet');
      expect(target.url()).toBe(e2e.site.url('/'));
      expect(await screenshotBothSchemes(panel, 'panel-task-honest-steps')).toEqual([]);
    } finally {
      await uiCall(panel, 'settings.set', { deniedSites: [] });
    }
  });

  it('names where a step takes the user or sends their data, and offers Approve for site only for a low-risk step', async () => {
    await openOn(e2e.site.url('/away', 'shop.test'));
    const script = playSteps([
      (r) => call('click', { ref: refIn(r, 'link', /^Read the docs$/) }),
      () => call('navigate', { url: e2e.site.url('/away', 'shop.test') }),
      (r) => call('click', { ref: refIn(r, 'button', /^Send a message$/) }),
      () => call('done', { success: true, summary: 'Read the docs; nothing sent.' }),
    ]);
    for (let turn = 0; turn < 8; turn += 1) e2e.fake.enqueue(script);
    await runInPanel('Read the help');
    await panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
    const docs = new URL(e2e.site.url('/', 'docs.test')).host;
    expect(await panel.$eval('[data-testid=approval-destination]', (element) => element.textContent)).toBe(docs);
    expect(await panel.$eval('[data-testid=approve-site]', (element) => element.textContent)).toBe(`Approve for ${docs}`);
    expect(await panel.$eval('[data-testid=approval-consequence]', (element) => element.textContent)).toBe(`It takes you to http://${docs}.`);
    const firstId = await panel.$eval('[data-testid=approval-card]', (element) => element.getAttribute('data-approval-id'));
    await panel.click('[data-testid=approve-site]');
    // The form posts to another site: the card says where and which fields, and offers no "for site".
    await waitForNextCard(panel, 'approval-card', firstId);
    const evil = new URL(e2e.site.url('/', 'evil.test')).host;
    expect(await panel.$eval('[data-testid=approval-destination]', (element) => element.textContent)).toBe(`${evil} (POST: message)`);
    expect(await panel.$('[data-testid=approve-site]')).toBeNull();
    expect(await screenshotBothSchemes(panel, 'panel-approval-destination')).toEqual([]);
    await panel.click('[data-testid=reject]');
    await waitForStatus(panel, 'completed');
    expect(target.url()).toBe(e2e.site.url('/away', 'shop.test'));
    e2e.fake.drop();
  });

  it("takes an answer to the agent's question and passes it to the model", async () => {
    await openOn(e2e.shop.url);
    e2e.fake.enqueue(call('ask_user', { question: 'Which colour do you want?' }), (r) =>
      r.text.includes('The user answered: Midnight blue') ? call('done', { success: true, summary: 'Noted: midnight blue.' }) : call('done', { success: false, summary: 'No answer reached me.' }),
    );
    await runInPanel('Pick a colour for me');
    await panel.waitForSelector('[data-testid=question-card]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=question-text]', (element) => element.textContent)).toBe('Which colour do you want?');
    expect(await panel.$eval('[data-testid=task-status]', (element) => element.textContent)).toBe('Waiting for your answer');
    expect(await screenshotBothSchemes(panel, 'panel-question')).toEqual([]);
    // The answer box has the focus.
    await panel.keyboard.type('Midnight blue');
    await panel.keyboard.press('Enter');
    await waitForStatus(panel, 'completed');
    expect(await panel.$eval('[data-testid=task-outcome]', (element) => element.textContent)).toBe('Noted: midnight blue.');
  });

  it('stops a task during a step: nothing more happens on the page or on the wire', async () => {
    await openOn(e2e.shop.url);
    const cartBefore = await target.evaluate(() => localStorage.getItem('cart'));
    const sent = e2e.fake.requests.length + 1;
    e2e.fake.enqueue({ hang: true });
    await runInPanel('Add the Pocket Buds to the cart');
    await panel.waitForSelector('[data-testid=stop-task]', { timeout: 60_000 });
    // Wait until the model has the request: the task is inside its first step.
    while (e2e.fake.requests.length < sent) await new Promise((resolve) => setTimeout(resolve, 50));
    await panel.click('[data-testid=stop-task]');
    await waitForStatus(panel, 'stopped');
    expect(await panel.$eval('[data-testid=task-status]', (element) => element.textContent)).toBe('Stopped');
    expect(await panel.$('[data-testid=stop-task]')).toBeNull();
    expect(e2e.fake.requests.length).toBe(sent);
    expect(await target.evaluate(() => localStorage.getItem('cart'))).toBe(cartBefore);
    // The box is free for the next task.
    expect(await panel.$eval('[data-testid=run-task]', (button) => (button as HTMLButtonElement).disabled)).toBe(false);
  });

  it('shows the same state in a panel closed and reopened mid-task, and the reopened one can approve', async () => {
    await openOn(e2e.site.url('/'));
    e2e.fake.enqueue(
      call('update_plan', { explanation: 'One step.', steps: [{ step: 'Place the order', status: 'in_progress' }] }),
      (r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }),
      call('done', { success: true, summary: 'Order placed.' }),
    );
    await runInPanel('Place my order');
    await panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
    const before = {
      steps: await texts(panel, '[data-testid=step-text]'),
      intent: await panel.$eval('[data-testid=approval-intent]', (element) => element.textContent),
      id: await panel.$eval('[data-testid=approval-card]', (element) => element.getAttribute('data-approval-id')),
      plan: await texts(panel, '[data-testid=plan] li'),
    };
    await panel.close();

    panel = await openPanel(e2e.ext, tabId);
    await panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
    expect(await texts(panel, '[data-testid=step-text]')).toEqual(before.steps);
    expect(await panel.$eval('[data-testid=approval-intent]', (element) => element.textContent)).toBe(before.intent);
    expect(await panel.$eval('[data-testid=approval-card]', (element) => element.getAttribute('data-approval-id'))).toBe(before.id);
    expect(await texts(panel, '[data-testid=plan] li')).toEqual(before.plan);
    expect(await panel.$eval('[data-testid=task-status]', (element) => element.textContent)).toBe('Waiting for your approval');
    await panel.click('[data-testid=approve]');
    await waitForStatus(panel, 'completed');
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Order placed');
  });
});
