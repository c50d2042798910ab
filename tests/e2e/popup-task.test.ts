import { describe, expect, it } from 'vitest';
import { POPUP, openPanel, screenshotBothSchemes, tabIdOf, texts } from './support/panel-harness';
import { call, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';
import { waitUntil } from './support/wait-until';

const e2e = useE2e({ demo: true, model: true });

describe('the popup on its own', () => {
  it('starts a task for the current tab, follows it to the end, and lists it among recent tasks', async () => {
    const target = await e2e.ext.browser.newPage();
    await target.goto(e2e.shop.url, { waitUntil: 'load' });
    const helper = await e2e.ext.openExtensionPage(POPUP);
    const tabId = await tabIdOf(helper, e2e.shop.url);
    await uiCall(helper, 'settings.set', e2e.modelSettings('ask'));
    await helper.close();

    // The popup's page pinned to the tab, as Brave shows it when the side panel cannot open.
    const popup = await openPanel(e2e.ext, tabId, POPUP);
    await popup.waitForSelector('[data-testid=popup] [data-testid=task-input]');
    expect(await popup.$eval('[data-testid=site]', (element) => element.textContent)).toBe(new URL(e2e.shop.url).host);
    expect(await screenshotBothSchemes(popup, 'popup-empty')).toEqual([]);
    e2e.fake.enqueue((r) => call('click', { ref: refIn(r, 'button', /^Add Pocket Buds/) }), call('done', { success: true, summary: 'Added.' }));
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

    // "Open side panel" stays within the popup's height (Chrome caps a popup at 600 px) however long the page grows.
    const button = await popup.$eval('[data-testid=open-panel]', (element) => element.getBoundingClientRect().bottom);
    expect(button).toBeLessThan(600);

    // A recent task opens in the side panel's History: the side panel itself, or where it cannot open, its page in a
    // tab for the same tab.
    const opened = e2e.ext.browser.waitForTarget((candidate) => candidate.url().includes('extension/sidepanel/index.html'), { timeout: 30_000 });
    await popup.$eval(`[data-testid=recent-item][data-task-id="${record?.id ?? ''}"]`, (item) => (item as HTMLButtonElement).click());
    const panel = await (await opened).asPage();
    await panel.waitForSelector(`[data-testid=history-detail][data-task-id="${record?.id ?? ''}"]`, { timeout: 30_000 });
    expect(await texts(panel, '[data-testid=history-detail] [data-testid=step-text]')).toEqual(steps);
    expect(await panel.$eval('[data-testid=flow-history]', (tab) => tab.getAttribute('aria-selected'))).toBe('true');
    // Taken once: the panel opened again later on that tab shows the task view, not this task again.
    await waitUntil('the launch to be taken', async () => (await uiCall(panel, 'launch.get', { tabId })) === null);
    expect(await uiCall(panel, 'launch.get', { tabId })).toBeNull();
  });
});
