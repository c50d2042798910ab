import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDemoSite, type DemoSite } from '../../scripts/demo/serve-demo-site';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import { launchTestBrowser } from './support/test-hosts';
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider/fake-provider-server';
import { POPUP, openPanel, screenshotBothSchemes, tabIdOf, texts } from './support/panel-harness';
import { requireBuild } from './support/register-host';
import { call, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';

let ext: ExtensionBrowser;
let fake: FakeProvider;
let shop: DemoSite;

beforeAll(async () => {
  requireBuild();
  shop = await serveDemoSite();
  fake = await startFakeProvider();
  ext = await launchTestBrowser();
  await ext.worker();
});
afterAll(async () => {
  await ext?.close();
  await fake?.close();
  await shop?.close();
});

describe('the popup on its own', () => {
  it('starts a task for the current tab, follows it to the end, and lists it among recent tasks', async () => {
    const target = await ext.browser.newPage();
    await target.goto(shop.url, { waitUntil: 'load' });
    const helper = await ext.openExtensionPage(POPUP);
    const tabId = await tabIdOf(helper, shop.url);
    await uiCall(helper, 'settings.set', { provider: { preset: 'custom', baseUrl: fake.openaiBaseUrl, model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 }, defaultMode: 'ask' });
    await helper.close();

    // The popup's page pinned to the tab, as Brave shows it when the side panel cannot open.
    const popup = await openPanel(ext, tabId, POPUP);
    await popup.waitForSelector('[data-testid=popup] [data-testid=task-input]');
    expect(await popup.$eval('[data-testid=site]', (element) => element.textContent)).toBe(new URL(shop.url).host);
    expect(await screenshotBothSchemes(popup, 'popup-empty')).toEqual([]);
    fake.enqueue((r) => call('click', { ref: refIn(r, 'button', /^Add Pocket Buds/) }), call('done', { success: true, summary: 'Added.' }));
    // Ask mode is the saved default; switch to act in the popup's own switch.
    expect(await popup.$eval('[data-testid=mode-ask]', (input) => (input as HTMLInputElement).checked)).toBe(true);
    await popup.click('[data-testid=mode-act]');
    await popup.type('[data-testid=task-input]', 'Add the Pocket Buds to the cart');
    await popup.click('[data-testid=run-task]');
    await popup.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });

    const steps = await texts(popup, '[data-testid=step-text]');
    expect(steps[0]).toMatch(/^Clicked button "Add Pocket Buds/);
    expect(steps[1]).toBe('Finished the task');
    expect(await target.evaluate(() => localStorage.getItem('cart'))).toBe(JSON.stringify([{ id: 'pocket-buds', qty: 1 }]));
    const record = (await uiCall(popup, 'task.list', { tabId, limit: 1 }))[0];
    expect(record?.mode).toBe('act');
    await popup.waitForFunction(() => (document.querySelector('[data-testid=recent]')?.textContent ?? '').includes('Add the Pocket Buds to the cart'));
    expect(await screenshotBothSchemes(popup, 'popup-task')).toEqual([]);
  });
});
