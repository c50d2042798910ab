import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeModelSettings } from './support/panel-harness';
import type { RecordedRequest } from '../fixtures/fake-provider/scripted-reply';
import { call, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

/** A shop page with routine buttons, a payment, a link to the docs site and a way off to another e2e.site. */
const SHOP = `<!doctype html><title>Shop</title><h1>Mugs</h1>
  <label>Search <input id="q" name="q"></label>
  <button onclick="document.getElementById('s').textContent = 'Added ' + (Number(document.getElementById('s').dataset.n = (Number(document.getElementById('s').dataset.n || 0) + 1)))">Add to cart</button>
  <button onclick="document.getElementById('s').textContent = 'Order placed'">Place order</button>
  <p id="s" role="status">Nothing done yet</p>`;

const e2e = useE2e({ routes: { '/': SHOP, '/docs': '<!doctype html><title>Docs</title><h1>Mug care</h1><p>Hand wash only.</p>', '/away': '<!doctype html><title>Away</title><h1>Elsewhere</h1>' }, model: true });
let target: Page;
let panel: Page;
let tabId: number;

beforeEach(() => {
  expect(e2e.fake.remaining()).toBe(0);
});
afterEach(async () => {
  await panel?.close().catch(() => undefined);
  await target?.close().catch(() => undefined);
});

async function open(settings: Record<string, unknown> = {}): Promise<void> {
  ({ target, panel, tabId } = await e2e.panelOn(e2e.site.url('/', 'shop.test'), { ...fakeModelSettings(e2e.fake.openaiBaseUrl, 'ask'), ...settings }));
}

async function runInPanel(text: string): Promise<void> {
  await panel.click('[data-testid=task-input]');
  await panel.keyboard.type(text);
  await panel.keyboard.press('Enter');
  await panel.waitForSelector('[data-testid=task-progress]');
}

/** Answers every card the task shows until it ends, recording each one as the user saw it. */
async function answerCards(answer: (card: SeenCard) => 'approve' | 'reject'): Promise<SeenCard[]> {
  const seen: SeenCard[] = [];
  for (;;) {
    const handle = await panel.waitForFunction(
      (ids) => {
        const status = document.querySelector('[data-testid=task-progress]')?.getAttribute('data-status');
        if (status === 'completed' || status === 'failed' || status === 'stopped') return 'ended';
        const card = document.querySelector('[data-testid=approval-card], [data-testid=plan-approval-card]');
        const id = card?.getAttribute('data-approval-id');
        return card && id && !ids.includes(id) ? id : false;
      },
      { timeout: 60_000 },
      seen.map((c) => c.id),
    );
    const id = (await handle.jsonValue()) as string;
    if (id === 'ended') return seen;
    const card = await panel.$eval(`[data-approval-id="${id}"]`, (element) => ({
      id: element.getAttribute('data-approval-id') ?? '',
      plan: element.getAttribute('data-testid') === 'plan-approval-card',
      intent: element.querySelector('[data-testid=approval-intent]')?.textContent ?? '',
      chips: Array.from(element.querySelectorAll('[data-testid=approval-class]')).map((chip) => chip.textContent ?? ''),
      consequence: element.querySelector('[data-testid=approval-consequence]')?.textContent ?? '',
      reason: element.querySelector('[data-testid=approval-reason]')?.textContent ?? '',
      scope: element.querySelector('[data-testid=plan-approval-scope]')?.textContent ?? '',
    }));
    seen.push(card);
    const decision = answer(card);
    await panel.click(card.plan ? (decision === 'approve' ? '[data-testid=plan-start]' : '[data-testid=plan-cancel]') : decision === 'approve' ? '[data-testid=approve]' : '[data-testid=reject]');
  }
}

interface SeenCard {
  id: string;
  plan: boolean;
  intent: string;
  chips: string[];
  consequence: string;
  reason: string;
  scope: string;
}

const docsHost = (): string => new URL(e2e.site.url('/', 'docs.test')).host;

function script(): void {
  e2e.fake.enqueue(
    call('update_plan', { explanation: 'Search, add two mugs, read the care page, pay.', steps: [{ step: 'Search for mugs', status: 'in_progress' }, { step: 'Add two mugs', status: 'pending' }, { step: 'Read the care page', status: 'pending' }, { step: 'Pay', status: 'pending' }], sites: [docsHost()] }),
    (r) => call('type', { ref: refIn(r, 'textbox', /^Search/), text: 'mug', clear: true, submit: false }),
    (r) => call('click', { ref: refIn(r, 'button', /^Add to cart$/) }),
    (r) => call('click', { ref: refIn(r, 'button', /^Add to cart$/) }),
    (r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }),
    call('navigate', { url: e2e.site.url('/docs', 'docs.test') }),
    call('navigate', { url: e2e.site.url('/away', 'evil.test') }),
    call('update_plan', { explanation: 'Done.', steps: [{ step: 'Search for mugs', status: 'completed' }, { step: 'Add two mugs', status: 'completed' }, { step: 'Read the care page', status: 'completed' }, { step: 'Pay', status: 'completed' }], sites: [docsHost()] }),
    call('done', { success: true, summary: 'Ordered two mugs and read the care page.' }),
  );
}

describe('ask first', () => {
  it('asks once for the plan (naming its sites), then only for the payment and for a site the plan did not name, each with one reason', async () => {
    await open();
    script();
    await runInPanel('Order two mugs and check how to wash them');
    const cards = await answerCards((card) => (card.intent.includes('evil.test') ? 'reject' : 'approve'));
    // Six actions, three cards: the plan, the payment, the site the plan did not name.
    expect(cards.map((c) => (c.plan ? 'plan' : c.intent))).toEqual(['plan', 'Click button "Place order"', expect.stringMatching(/evil\.test/)]);
    expect(cards[0]?.scope).toContain(`shop.test:${e2e.site.port}`);
    expect(cards[0]?.scope).toContain(docsHost());
    const [, pay, away] = cards;
    expect(pay?.reason).toMatch(/spends money/);
    expect(away?.reason).toMatch(/evil\.test/);
    for (const card of [pay, away]) {
      // One reason, said once: no chip repeats the reason's words, and no sentence comes twice.
      for (const chip of card?.chips ?? []) expect(card?.reason.toLowerCase()).not.toContain(chip);
      const sentences = [card?.consequence, card?.reason].filter(Boolean);
      expect(new Set(sentences).size).toBe(sentences.length);
    }
    expect(await panel.$$eval('[data-testid=step]', (items) => items.map((item) => item.getAttribute('data-state')))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'refused', 'ok', 'ok']);
    expect(target.url()).toBe(e2e.site.url('/docs', 'docs.test'));
  });

  it('asks for every step as well when the user chose "Approve each step" in Settings', async () => {
    await open({ approveEachStep: true });
    script();
    await runInPanel('Order two mugs and check how to wash them');
    const cards = await answerCards((card) => (card.intent.includes('evil.test') ? 'reject' : 'approve'));
    expect(cards.filter((c) => c.plan)).toHaveLength(1);
    // Every action asks: typing, two clicks, the payment, the docs page, the other e2e.site.
    expect(cards.filter((c) => !c.plan)).toHaveLength(6);
    expect(cards[1]?.reason).toBe('You chose to approve each step.');
    // The setting is a box in Settings a user can see and change.
    await panel.click('[data-testid=flow-settings]');
    await panel.waitForSelector('[data-testid=approve-each-step]');
    expect(await panel.$eval('[data-testid=approve-each-step]', (box) => (box as HTMLInputElement).checked)).toBe(true);
    await panel.click('[data-testid=approve-each-step]');
    await panel.click('[data-testid=save-settings]');
    await expect.poll(async () => (await uiCall(panel, 'settings.get', {})).approveEachStep, { timeout: 60_000 }).toBe(false);
  });
});

/** Every trace of Deputy on the page: its attributes, its frame element, and any element drawn in its orange. */
function tracesOn(page: Page): Promise<{ attributes: string[]; frames: number; orange: string[] }> {
  return page.evaluate(() => {
    const all = Array.from(document.querySelectorAll('*'));
    return {
      attributes: all.flatMap((el) => el.getAttributeNames().filter((name) => name.startsWith('data-deputy')).map((name) => `${el.tagName.toLowerCase()}[${name}]`)),
      frames: document.querySelectorAll('deputy-tab-marker').length,
      orange: all.filter((el) => getComputedStyle(el).outlineColor === 'rgb(245, 158, 11)' && getComputedStyle(el).outlineStyle !== 'none').map((el) => el.textContent ?? el.tagName),
    };
  });
}

/** Waits until the page has no approval mark (the frame is left to `frames`), well before the marks' own 15 s timer. */
async function waitNoMarks(page: Page, frames: 0 | 1): Promise<void> {
  await page
    .waitForFunction(
      (wanted) =>
        document.querySelectorAll('[data-deputy-highlight], [data-deputy-outline-was]').length === 0 && document.querySelectorAll('deputy-tab-marker').length === wanted,
      { timeout: 60_000 },
      frames,
    )
    .catch(() => undefined);
  expect(await tracesOn(page)).toEqual({ attributes: [], frames, orange: [] });
}

/** Shows the card's element outlined on the page (twice, as a user pressing "Show it on the page" again would). */
async function cardOutlines(): Promise<void> {
  await panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
  await target.waitForSelector('[data-deputy-highlight]', { timeout: 60_000 });
  await panel.$eval('[data-testid=approval-show]', (button) => (button as HTMLButtonElement).click());
  await panel.$eval('[data-testid=approval-show]', (button) => (button as HTMLButtonElement).click());
  await target.waitForFunction(() => getComputedStyle(document.querySelector('[data-deputy-highlight]') ?? document.body).outlineColor === 'rgb(245, 158, 11)');
  expect((await tracesOn(target)).frames).toBe(1);
}

/** Pixels of a screenshot in Deputy's orange, and the share of its edge in the frame's blue, measured in a canvas. */
function marksInShot(page: Page, base64: string): Promise<{ orange: number; blueEdge: number }> {
  return page.evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/jpeg;base64,${data}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no canvas');
    ctx.drawImage(img, 0, 0);
    const { data: px, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let orange = 0;
    let edge = 0;
    let blue = 0;
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const i = (y * width + x) * 4;
        const [r, g, b] = [px[i] ?? 0, px[i + 1] ?? 0, px[i + 2] ?? 0];
        if (r > 200 && g > 120 && g < 190 && b < 90) orange += 1;
        if (x < 2 || y < 2 || x >= width - 2 || y >= height - 2) {
          edge += 1;
          if (b > 170 && b - r > 80) blue += 1;
        }
      }
    }
    return { orange, blueEdge: blue / edge };
  }, base64);
}

describe('no trace on the page', () => {
  it('takes back the card outline when the card is answered and every mark when the task ends, and none shows in a step screenshot', async () => {
    await open({ defaultMode: 'act' });
    await target.bringToFront();
    e2e.fake.enqueue(
      (r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }),
      (r) => call('click', { ref: refIn(r, 'button', /^Add to cart$/) }),
      call('done', { success: true, summary: 'Ordered.' }),
    );
    await panel.type('[data-testid=task-input]', 'Place my order');
    await panel.$eval('[data-testid=run-task]', (button) => (button as HTMLButtonElement).click());
    await cardOutlines();
    await panel.$eval('[data-testid=approve]', (button) => (button as HTMLButtonElement).click());
    // Answered: the outline is gone at once (the task still runs, so its frame stays).
    await waitNoMarks(target, 1);
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    await waitNoMarks(target, 0);
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Added 1');
    const taskId = (await panel.$eval('[data-testid=task-progress]', (element) => element.getAttribute('data-task-id'))) ?? '';
    const shots = await uiCall(panel, 'task.screenshots', { taskId });
    // A screenshot of each step, the one after the answered card included, with neither the outline nor the frame.
    expect(shots.length).toBeGreaterThanOrEqual(2);
    for (const shot of shots) expect(await marksInShot(panel, shot.base64)).toMatchObject({ orange: 0, blueEdge: expect.any(Number) as number });
    for (const shot of shots) expect((await marksInShot(panel, shot.base64)).blueEdge).toBeLessThan(0.05);
  });

  it('takes back every mark when the task is stopped while its card waits', async () => {
    await open({ defaultMode: 'act' });
    e2e.fake.enqueue((r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }));
    await panel.type('[data-testid=task-input]', 'Place my order');
    await panel.$eval('[data-testid=run-task]', (button) => (button as HTMLButtonElement).click());
    await cardOutlines();
    await panel.$eval('[data-testid=stop-task]', (button) => (button as HTMLButtonElement).click());
    await panel.waitForSelector('[data-testid=task-progress][data-status=stopped]', { timeout: 60_000 });
    await waitNoMarks(target, 0);
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Nothing done yet');
  });

  it('takes back the card outline when the worker restarts, and the task that goes on draws only its frame', async () => {
    await open({ defaultMode: 'act' });
    e2e.fake.enqueue((r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }), call('done', { success: true, summary: 'Ordered.' }));
    await panel.type('[data-testid=task-input]', 'Place my order');
    await panel.$eval('[data-testid=run-task]', (button) => (button as HTMLButtonElement).click());
    await cardOutlines();
    const worker = await e2e.ext.worker();
    await worker.close();
    await e2e.ext.worker();
    await waitNoMarks(target, 1);
    const task = (await uiCall(panel, 'task.list', { tabId, limit: 1 }))[0];
    expect(task?.status).toBe('awaiting_approval');
    await panel.waitForSelector('[data-testid=approve]');
    await panel.$eval('[data-testid=approve]', (button) => (button as HTMLButtonElement).click());
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    await waitNoMarks(target, 0);
  });
});

describe('steps that tell the truth', () => {
  it('closes the plan of a finished task (done steps checked, the rest not needed) in the panel, History and the report', async () => {
    const downloads = await mkdtemp(join(tmpdir(), 'deputy-report-'));
    try {
      const session = await e2e.ext.browser.target().createCDPSession();
      await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
      await open({ defaultMode: 'act' });
      e2e.fake.enqueue(
        call('update_plan', { explanation: 'Three steps.', steps: [{ step: 'Add a mug', status: 'completed' }, { step: 'Check the cart', status: 'in_progress' }, { step: 'Ask support about sizes', status: 'pending' }] }),
        (r) => call('click', { ref: refIn(r, 'button', /^Add to cart$/) }),
        call('done', { success: true, summary: 'A mug is in the cart.' }),
      );
      await runInPanel('Add a mug');
      await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
      const closed = ['completed', 'completed', 'not_needed'];
      expect(await panel.$eval('[data-testid=plan]', (plan) => Array.from(plan.children).map((item) => item.getAttribute('data-status')))).toEqual(closed);
      expect(await panel.$eval('[data-testid=plan]', (plan) => (plan as HTMLElement).innerText)).toContain('Ask support about sizes (not needed)');
      expect(await panel.$eval('[data-testid=plan]', (plan) => plan.textContent)).not.toMatch(/to do|in progress/);

      await panel.click('[data-testid=flow-history]');
      await panel.waitForSelector('[data-testid=history-item]');
      await panel.click('[data-testid=history-item]');
      await panel.waitForSelector('[data-testid=history-detail] [data-testid=plan]');
      expect(await panel.$eval('[data-testid=history-detail] [data-testid=plan]', (plan) => Array.from(plan.children).map((item) => item.getAttribute('data-status')))).toEqual(closed);
      await panel.click('[data-testid=export-report]');
      let report = '';
      for (let i = 0; i < 100 && !report; i += 1) {
        const name = (await readdir(downloads)).find((file) => file.endsWith('.md'));
        if (name) report = await readFile(join(downloads, name), 'utf8');
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(report).toContain('[x] 1. Add a mug\n[x] 2. Check the cart\n[-] 3. Ask support about sizes (not needed)');
    } finally {
      await rm(downloads, { recursive: true, force: true });
    }
  });

  it('records Esc on a plan card as stopped by you, not as steps the user wrote', async () => {
    await open();
    e2e.fake.enqueue(call('update_plan', { explanation: 'Plan.', steps: [{ step: 'Add a mug', status: 'in_progress' }] }));
    await runInPanel('Add a mug');
    await panel.waitForSelector('[data-testid=plan-approval-card]', { timeout: 60_000 });
    await panel.$eval('[data-testid=task-input]', (box) => (box as HTMLElement).blur());
    await panel.keyboard.press('Escape');
    await panel.waitForSelector('[data-testid=task-progress][data-status=stopped]', { timeout: 60_000 });
    await panel.waitForSelector('[data-testid=step]');
    expect(await panel.$$eval('[data-testid=step]', (items) => items.map((item) => item.getAttribute('data-state')))).toEqual(['stopped']);
    expect(await panel.$eval('[data-testid=step-text]', (element) => element.textContent)).toMatch(/^Stopped by you/);
    expect(await panel.$eval('[data-testid=step-check]', (element) => element.textContent)).toBe('you stopped the task while it waited for your approval, so it was not done');
    expect(await panel.$eval('[data-testid=task-status]', (element) => element.textContent)).toBe('Stopped');
    // The plan was never approved, so there is no plan to show as the task's.
    expect(await panel.$('[data-testid=plan]')).toBeNull();
  });
});

describe('costs known before they happen', () => {
  it('shows an estimate on the plan card whose range holds what the task then really cost', async () => {
    await open();
    // Each reply reports the tokens its request really carried (about four characters a token), as a provider does:
    // the prompt grows with the steps and the pages, as it would with a real model.
    const sized = (reply: ReturnType<typeof call>) => (r: RecordedRequest) => ({ ...reply, usage: { input: Math.ceil(r.text.length / 4), output: 60 } });
    const steps = [{ step: 'Search for mugs', status: 'in_progress' }, { step: 'Add two mugs', status: 'pending' }, { step: 'Read the care page', status: 'pending' }];
    e2e.fake.enqueue(
      sized(call('update_plan', { explanation: 'Three steps.', steps, sites: [docsHost()] })),
      (r) => sized(call('type', { ref: refIn(r, 'textbox', /^Search/), text: 'mug', clear: true, submit: false }))(r),
      (r) => sized(call('click', { ref: refIn(r, 'button', /^Add to cart$/) }))(r),
      (r) => sized(call('click', { ref: refIn(r, 'button', /^Add to cart$/) }))(r),
      sized(call('navigate', { url: e2e.site.url('/docs', 'docs.test') })),
      sized(call('done', { success: true, summary: 'Two mugs in the cart; hand wash only.' })),
    );
    await runInPanel('Add two mugs and check how to wash them');
    await panel.waitForSelector('[data-testid=plan-estimate]', { timeout: 60_000 });
    const text = await panel.$eval('[data-testid=plan-estimate]', (element) => element.textContent ?? '');
    const match = /About \$([\d.]+) to \$([\d.]+) \((\d+) to (\d+) model calls/.exec(text);
    expect(match, text).not.toBeNull();
    const [low, high] = [Number(match?.[1]), Number(match?.[2])];
    await panel.click('[data-testid=plan-start]');
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    const taskId = (await panel.$eval('[data-testid=task-progress]', (element) => element.getAttribute('data-task-id'))) ?? '';
    const real = (await uiCall(panel, 'task.get', { taskId }))?.agent?.usage.costUsd ?? -1;
    // gpt-4o-mini's price is known: the real cost lies inside the range the card showed before any action ran.
    expect(real).toBeGreaterThan(0);
    expect(real).toBeGreaterThanOrEqual(low * 0.999);
    expect(real).toBeLessThanOrEqual(high * 1.001);
  });
});

describe('a cost cap per task', () => {
  it('stops the task at the cap with its state saved and says so, and a follow-up under a new cap continues it', async () => {
    // Each reply costs 20k tokens in and 500 out at gpt-4o-mini's price: $0.0033; a cap of $0.005 allows two.
    const usage = { input: 20_000, output: 500 };
    await open({ defaultMode: 'act', maxCostUsd: 0.005 });
    e2e.fake.enqueue(
      (r) => ({ ...call('click', { ref: refIn(r, 'button', /^Add to cart$/) }), usage }),
      (r) => ({ ...call('click', { ref: refIn(r, 'button', /^Add to cart$/) }), usage }),
    );
    await runInPanel('Add three mugs');
    await panel.waitForSelector('[data-testid=task-progress][data-status=stopped]', { timeout: 60_000 });
    const stopped = await panel.$eval('[data-testid=task-progress]', (element) => element.textContent ?? '');
    expect(stopped).toMatch(/cost cap/);
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Added 2');
    expect(e2e.fake.remaining()).toBe(0);
    // A new cap, then "continue": the same task goes on from where it stopped.
    await uiCall(panel, 'settings.set', { maxCostUsd: 1 });
    e2e.fake.enqueue((r) => ({ ...call('click', { ref: refIn(r, 'button', /^Add to cart$/) }), usage }), { ...call('done', { success: true, summary: 'Three mugs.' }), usage });
    await panel.click('[data-testid=task-input]');
    await panel.keyboard.type('Continue');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Added 3');
  });
});
