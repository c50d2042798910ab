import type { Page, WebWorker } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RecordedRequest, type Script, type ScriptedMessage } from '../fixtures/fake-provider/fake-provider-server';
import { PANEL, openPanel, tabIdOf } from './support/panel-harness';
import { call, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

const ORDERS = `<!doctype html><title>Orders</title><h1>Your order</h1>
  <button onclick="document.getElementById('s').textContent = 'Order placed'">Place order</button>
  <p id="s" role="status">Nothing done yet</p>`;

const e2e = useE2e({ routes: { '/': ORDERS }, model: true });
let target: Page;
let tabId: number;

beforeAll(async () => {
  target = await e2e.ext.browser.newPage();
  await target.goto(e2e.site.url('/', 'shop.test'), { waitUntil: 'load' });
  const helper = await e2e.ext.openExtensionPage(PANEL);
  tabId = await tabIdOf(helper, e2e.site.url('/', 'shop.test'));
  await uiCall(helper, 'settings.set', { provider: { preset: 'custom', baseUrl: e2e.fake.openaiBaseUrl, model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 }, defaultMode: 'act' });
  await helper.close();
});

type Notices = Record<string, boolean>;

/**
 * The ids of the extension's notifications on screen, asked from its worker. The getContexts call first queues behind
 * the one a notice decision makes, so a notice that decision was about to show is already there when getAll answers.
 */
async function notices(worker: WebWorker): Promise<Notices> {
  return (await worker.evaluate('chrome.runtime.getContexts({}).then(() => new Promise((resolve) => chrome.notifications.getAll(resolve)))')) as Notices;
}

/** The words of the notices shown, as the worker sent them to the browser (which hands back only ids). */
async function noticeWords(worker: WebWorker): Promise<{ id: string; title: string; message: string }[]> {
  return (await worker.evaluate('deputy.notices()')) as { id: string; title: string; message: string }[];
}

async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i += 1) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out waiting until ${what}`);
}

/** Starts a task from an extension page that is closed before the model answers: no Deputy page is open after. */
async function startUnattended(text: string, first: (request: RecordedRequest) => ScriptedMessage, ...rest: Script[]): Promise<{ taskId: string; answer: () => void }> {
  let answer: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (answer = resolve));
  e2e.fake.enqueue((r) => ({ ...first(r), holdUntil: held }), ...rest);
  const starter = await e2e.ext.openExtensionPage(PANEL);
  const record = await uiCall(starter, 'task.start', { tabId, text, flow: 'task' });
  await starter.close();
  const open = (await e2e.ext.browser.pages()).filter((page) => page.url().startsWith('chrome-extension://'));
  expect(open).toEqual([]);
  return { taskId: record.id, answer };
}

describe('desktop notifications for a task waiting on the user', () => {
  it('notifies of an approval while no Deputy page is open; a click opens the panel on the tab, which answers it', async () => {
    const worker = await e2e.ext.worker();
    const { answer } = await startUnattended('Place my order', (r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }), call('done', { success: true, summary: 'Order placed.' }));
    answer();
    const shown = await until(() => notices(worker), (found) => Object.keys(found).some((id) => id.startsWith('approval:')), 'an approval notice is shown');
    const id = Object.keys(shown).find((key) => key.startsWith('approval:')) ?? '';
    expect(id).toMatch(new RegExp(`^approval:${tabId}:`));
    const [notice] = await noticeWords(worker);
    expect(notice?.id).toBe(id);
    expect(notice?.title).toBe(`Deputy needs your approval on ${new URL(e2e.site.url('/', 'shop.test')).host}`);
    expect(notice?.message).toMatch(/^Click \[\d+\] button "Place order"$/);
    expect(await worker.evaluate('chrome.action.getBadgeText({})')).toBe('1');
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Nothing done yet');

    // A click on the notice (no gesture reaches the headless browser, so the panel's page opens in a tab instead).
    const opened = e2e.ext.browser.waitForTarget((candidate) => candidate.url().includes(`extension/sidepanel/index.html?tab=${tabId}`), { timeout: 30_000 });
    await worker.evaluate(`deputy.onNoticeClick(${JSON.stringify(id)})`);
    const panel = await (await opened).page();
    if (!panel) throw new Error('The panel opened from the notice is not a page');
    await panel.waitForSelector('[data-testid=approval-card]', { timeout: 30_000 });
    await until(() => notices(worker), (found) => Object.keys(found).length === 0, 'the clicked notice is cleared');
    // The panel scrolls the card into view above the docked input: what is under Approve's middle becomes Approve itself.
    await panel.waitForFunction(
      () => {
        const button = document.querySelector('[data-testid=approve]');
        if (!button) return false;
        const box = button.getBoundingClientRect();
        return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === button;
      },
      { timeout: 60_000 },
    );
    await panel.click('[data-testid=approve]');
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Order placed');
    await panel.close();
  });

  it('notifies of a question while no Deputy page is open, and clears the notice once it is answered', async () => {
    const worker = await e2e.ext.worker();
    const { taskId, answer } = await startUnattended('Pick a colour', () => call('ask_user', { question: 'Which colour do you want?' }), call('done', { success: true, summary: 'Blue it is.' }));
    answer();
    const shown = await until(() => notices(worker), (found) => Object.keys(found).some((id) => id.startsWith('question:')), 'a question notice is shown');
    expect(Object.keys(shown)).toEqual([expect.stringMatching(new RegExp(`^question:${tabId}:`))]);
    expect((await noticeWords(worker)).map((notice) => [notice.title, notice.message])).toEqual([[`Deputy has a question on ${new URL(e2e.site.url('/', 'shop.test')).host}`, 'Which colour do you want?']]);

    const answering = await e2e.ext.openExtensionPage(PANEL);
    const waiting = await uiCall(answering, 'task.get', { taskId });
    await uiCall(answering, 'task.answer', { taskId, questionId: waiting?.question?.id ?? '', answer: 'Blue' });
    await until(() => notices(worker), (found) => Object.keys(found).length === 0, 'the answered question has no notice left');
    expect(await noticeWords(worker)).toEqual([]);
    await until(() => uiCall(answering, 'task.get', { taskId }), (record) => record?.status === 'completed', 'the task completes');
    await answering.close();
  });

  it('shows no notice while the side panel is open: the panel shows the card itself', async () => {
    const worker = await e2e.ext.worker();
    const panel = await openPanel(e2e.ext, tabId);
    await target.reload({ waitUntil: 'load' });
    e2e.fake.enqueue((r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }), call('done', { success: false, summary: 'Not placed.' }));
    await panel.click('[data-testid=task-input]');
    await panel.keyboard.type('Place my order');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
    expect(await notices(worker)).toEqual({});
    await panel.click('[data-testid=reject]');
    await panel.waitForSelector('[data-testid=task-progress][data-status=failed]', { timeout: 60_000 });
    expect(await notices(worker)).toEqual({});
    expect(await target.$eval('#s', (element) => element.textContent)).toBe('Nothing done yet');
    await panel.close();
  });
});
