import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../shared/protocol';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import { launchTestBrowser } from './support/test-hosts';
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider/fake-provider-server';
import { openPanel, PANEL, POPUP, tabIdOf, texts } from './support/panel-harness';
import { requireBuild } from './support/register-host';
import { call, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';

/** A checkout whose order button posts a form: the server counts the orders, so a repeated click cannot hide. */
const CHECKOUT = `<!doctype html><title>Checkout</title><h1>Checkout</h1>
  <p>1 × Pocket Buds, $49.00</p>
  <form method="post" action="/order"><button>Place order</button></form>`;
const PLACED = `<!doctype html><title>Order placed</title><h1>Thank you</h1><p role="status">Order placed</p>`;

interface Shop {
  url: string;
  orders: () => number;
  resetOrders(): void;
  close(): Promise<void>;
}

async function serveShop(): Promise<Shop> {
  let orders = 0;
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/order' && request.method === 'POST') {
      orders += 1;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PLACED);
      return;
    }
    if (path === '/checkout') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(CHECKOUT);
      return;
    }
    response.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/checkout`,
    orders: () => orders,
    resetOrders: () => {
      orders = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let fake: FakeProvider;
let shop: Shop;
let profile: string;
let browsers: ExtensionBrowser[];

beforeAll(async () => {
  requireBuild();
  shop = await serveShop();
});
afterAll(async () => {
  await shop?.close();
});
beforeEach(async () => {
  shop.resetOrders();
  fake = await startFakeProvider();
  profile = await mkdtemp(join(tmpdir(), 'deputy-restart-profile-'));
  browsers = [];
});
afterEach(async () => {
  for (const browser of browsers) await browser.close();
  await fake.close();
  await rm(profile, { recursive: true, force: true });
});

/** Chromium with the built extension on the test's own profile, kept between launches like a user's. */
async function launch(): Promise<ExtensionBrowser> {
  const ext = await launchTestBrowser({ userDataDir: profile });
  browsers.push(ext);
  await ext.worker();
  return ext;
}

async function until<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (holds(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}; last seen: ${JSON.stringify(last)?.slice(0, 2000)}`);
}

/** First browser session: the task clicks "Place order", which stops for the user's approval. Then the browser quits. */
async function waitingTaskThenQuit(): Promise<{ before: TaskRecord; oldTabId: number }> {
  const ext = await launch();
  const target = await ext.browser.newPage();
  await target.goto(shop.url, { waitUntil: 'load' });
  const helper = await ext.openExtensionPage(PANEL);
  const oldTabId = await tabIdOf(helper, shop.url);
  await uiCall(helper, 'settings.set', {
    provider: { preset: 'custom', baseUrl: fake.openaiBaseUrl, model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 },
    defaultMode: 'act',
  });
  const started = await uiCall(helper, 'task.start', { tabId: oldTabId, text: 'Place my order', mode: 'act', flow: 'task' });
  const before = await until(
    () => uiCall(helper, 'task.get', { taskId: started.id }),
    (record) => record?.status === 'awaiting_approval' && record.approval !== null,
    'the approval before the restart',
  );
  if (!before) throw new Error('The task is gone');
  expect(before.approval?.intent).toMatch(/^Click \[\d+\] button "Place order"$/);
  expect(shop.orders()).toBe(0);
  // Quit the whole browser, the way a user does: every tab, the worker and the session go.
  await ext.close();
  return { before, oldTabId };
}

/** Second browser session on the same profile: the task is found waiting, in a tab showing its page. */
async function afterRestart(before: TaskRecord, page: string): Promise<{ ext: ExtensionBrowser; panel: Page; record: TaskRecord; target: Page }> {
  const ext = await launch();
  const helper = await ext.openExtensionPage(PANEL);
  const record = await until(
    () => uiCall(helper, 'task.get', { taskId: before.id }),
    (r) => r !== null && r.tabSession !== before.tabSession && r.notes !== undefined && r.notes.length > 0,
    'the task to move to a tab of the new browser session',
  );
  if (!record) throw new Error('The task is gone after the restart');
  const tabs = await helper.evaluate(() => chrome.tabs.query({}));
  expect(tabs.find((tab) => tab.id === record.tabId)?.url).toBe(shop.url);
  await helper.close();
  const targetTarget = await ext.browser.waitForTarget((t) => t.url() === shop.url, { timeout: 30_000 });
  const target = await targetTarget.page();
  if (!target) throw new Error('The reopened tab has no page');
  const panel = await openPanel(ext, record.tabId, page);
  return { ext, panel, record, target };
}

describe('a task waiting for approval survives a browser restart', () => {
  it('shows the same card after the restart; approving places the order once, on the reopened page, and the task finishes', async () => {
    fake.enqueue(
      (r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }),
      (r) => (r.text.includes('Order placed') ? call('done', { success: true, summary: 'The order is placed.' }) : call('done', { success: false, summary: 'No confirmation.' })),
    );
    const { before } = await waitingTaskThenQuit();
    const { panel, record, target } = await afterRestart(before, PANEL);

    expect(record.status).toBe('awaiting_approval');
    expect(record.approval).toEqual(before.approval);
    expect(record.notes?.[0]?.text).toBe(`The browser restarted; its tab was gone, so Deputy reopened ${shop.url} in a new tab and continued there.`);
    // The side panel of the new tab shows the task with the card the user saw before, and the note among its steps.
    await panel.waitForSelector(`[data-testid=approval-card][data-approval-id="${before.approval?.id}"]`, { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=approval-intent]', (element) => element.textContent)).toBe(before.approval?.intent.replace(/ \[\d+\]/, ''));
    expect(await panel.$eval('[data-testid=task-status]', (element) => element.textContent)).toBe('Waiting for your approval');
    expect(await texts(panel, '[data-testid=step][data-state=note] [data-testid=step-text]')).toEqual([record.notes?.[0]?.text]);
    expect(shop.orders()).toBe(0);

    await panel.click('[data-testid=approve]');
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(shop.orders()).toBe(1);
    expect(await target.$eval('[role=status]', (element) => element.textContent)).toBe('Order placed');
    expect(await panel.$eval('[data-testid=task-outcome]', (element) => element.textContent)).toBe('The order is placed.');
    const helper = await (browsers.at(-1) as ExtensionBrowser).openExtensionPage(PANEL);
    const done = await uiCall(helper, 'task.get', { taskId: before.id });
    const calls = done?.agent?.steps.flatMap((step) => step.calls) ?? [];
    expect(calls.filter((c) => c.name === 'click').map((c) => [c.status, c.result?.ok])).toEqual([['finished', true]]);
    expect(done?.tabId).toBe(record.tabId);
  });

  it('keeps the same card when only the service worker stops while waiting, and approving acts once in the same tab', async () => {
    fake.enqueue(
      (r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }),
      (r) => (r.text.includes('Order placed') ? call('done', { success: true, summary: 'The order is placed.' }) : call('done', { success: false, summary: 'No confirmation.' })),
    );
    const ext = await launch();
    const target = await ext.browser.newPage();
    await target.goto(shop.url, { waitUntil: 'load' });
    const helper = await ext.openExtensionPage(PANEL);
    const tabId = await tabIdOf(helper, shop.url);
    await uiCall(helper, 'settings.set', {
      provider: { preset: 'custom', baseUrl: fake.openaiBaseUrl, model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 },
      defaultMode: 'act',
    });
    const started = await uiCall(helper, 'task.start', { tabId, text: 'Place my order', mode: 'act', flow: 'task' });
    const before = await until(() => uiCall(helper, 'task.get', { taskId: started.id }), (r) => r?.status === 'awaiting_approval', 'the approval');
    await helper.close();
    // Stop the worker: the runner's memory (the pending answer, the page's element numbers) goes; storage stays.
    const worker = await ext.worker();
    await worker.evaluate('globalThis.deputyTestMarker = 1');
    await worker.close();
    const panel = await openPanel(ext, tabId);
    await panel.waitForSelector(`[data-testid=approval-card][data-approval-id="${before?.approval?.id}"]`, { timeout: 60_000 });
    // A new worker answers the panel: the marker set in the old one is gone.
    expect(await (await ext.worker()).evaluate('typeof globalThis.deputyTestMarker')).toBe('undefined');
    await panel.click('[data-testid=approve]');
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(shop.orders()).toBe(1);
    expect(await target.$eval('[role=status]', (element) => element.textContent)).toBe('Order placed');
    const check = await ext.openExtensionPage(PANEL);
    const done = await uiCall(check, 'task.get', { taskId: started.id });
    // The same browser session: no note, the same tab.
    expect(done?.notes ?? []).toEqual([]);
    expect(done?.tabId).toBe(tabId);
  });

  it('takes a rejection given in the popup after the restart: nothing is ordered and the task ends', async () => {
    fake.enqueue(
      (r) => call('click', { ref: refIn(r, 'button', /^Place order$/) }),
      (r) => (r.text.includes('did not approve') ? call('done', { success: false, summary: 'You declined the order.' }) : call('done', { success: true, summary: 'Unexpected.' })),
    );
    const { before } = await waitingTaskThenQuit();
    const { panel: popup } = await afterRestart(before, POPUP);
    await popup.waitForSelector(`[data-testid=approval-card][data-approval-id="${before.approval?.id}"]`, { timeout: 60_000 });
    await popup.click('[data-testid=reject]');
    await popup.waitForSelector('[data-testid=task-progress][data-status=completed], [data-testid=task-progress][data-status=failed]', { timeout: 60_000 });
    expect(await popup.$eval('[data-testid=task-outcome]', (element) => element.textContent)).toBe('You declined the order.');
    expect(shop.orders()).toBe(0);
  });
});
