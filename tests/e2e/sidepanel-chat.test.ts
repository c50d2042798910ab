import type { Page, WebWorker } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { vendorName } from '../../extension/sidepanel/chat-flow-view';
import { seriousViolations } from './support/axe-check';
import { PANEL, PANEL_WIDTH, screenshotBothSchemes, tabIdOf, texts } from './support/panel-harness';
import { call } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

const e2e = useE2e({ demo: true, routes: { '/': '<!doctype html><title>About us</title><h1>About us</h1><p>We make headphones.</p>' }, model: true });
let worker: WebWorker;

beforeAll(async () => {
  worker = await e2e.ext.worker();
});

/**
 * Right-click "Automate this chat" on a page: a headless browser has no context menu, so the registered handler is
 * called the way the menu calls it; without a user gesture the panel opens as a tab pinned to the page's tab.
 */
async function automateChat(url: string): Promise<{ panel: Page; tabId: number; target: Page }> {
  const target = await e2e.ext.browser.newPage();
  await target.goto(url, { waitUntil: 'load' });
  const helper = await e2e.ext.openExtensionPage(PANEL);
  const tabId = await tabIdOf(helper, url);
  await helper.close();
  const opened = e2e.ext.browser.waitForTarget((candidate) => candidate.url().includes(`${PANEL}?tab=${tabId}`), { timeout: 60_000 });
  await worker.evaluate(
    (id, pageUrl) =>
      (globalThis as unknown as { deputy: { onMenuClick: (click: object, tab: object) => Promise<unknown> } }).deputy.onMenuClick(
        { menuItemId: 'deputy-automate-chat', frameId: 0, pageUrl, frameUrl: undefined, selectionText: undefined },
        { id },
      ),
    tabId,
    url,
  );
  const panel = await (await opened).page();
  if (!panel) throw new Error('The panel tab has no page');
  await panel.setViewport({ width: PANEL_WIDTH, height: 800 });
  await panel.waitForSelector('[data-testid=chat-detection]:not([data-found=checking])', { timeout: 30_000 });
  return { panel, tabId, target };
}

describe('"Automate this chat" from the context menu', () => {
  it('opens the chat flow with the detected widget named, goal templates, and starts the goal as a chat task', async () => {
    const { panel, tabId, target } = await automateChat(e2e.shop.url);
    expect(await panel.$eval('main', (main) => main.getAttribute('data-flow'))).toBe('chat');
    // The demo shop shows only a launcher until clicked; the panel offers to open it, and then names the widget.
    expect(await panel.$eval('[data-testid=chat-detection]', (element) => element.getAttribute('data-found'))).toBe('false');
    await panel.click('[data-testid=open-chat]');
    await panel.waitForSelector('[data-testid=chat-detection][data-found=true]', { timeout: 30_000 });
    expect(await target.$eval('.chat-window', (element) => (element as HTMLElement).hidden)).toBe(false);
    const detection = await uiCall(panel, 'chat.detect', { tabId });
    expect(detection.found).toBe(true);
    expect(await panel.$eval('[data-testid=chat-vendor]', (element) => element.textContent)).toBe(vendorName(detection.vendor));
    expect(await panel.$eval('[data-testid=chat-summary]', (element) => element.textContent)).toBe(detection.summary);
    expect(await screenshotBothSchemes(panel, 'panel-chat-flow')).toEqual([]);

    // The box is filled after the click's render: wait for the value rather than read it at once.
    const boxValue = (): Promise<string> => panel.$eval('[data-testid=task-input]', (box) => (box as HTMLTextAreaElement).value);
    await panel.click('[data-testid=goal-refund]');
    await panel.waitForFunction(() => (document.querySelector('[data-testid=task-input]') as HTMLTextAreaElement).value !== '');
    expect(await boxValue()).toMatch(/^Ask for a full refund for order \[order number\]/);
    await panel.click('[data-testid=goal-custom]');
    await panel.waitForFunction(() => (document.querySelector('[data-testid=task-input]') as HTMLTextAreaElement).value === '');
    expect(await boxValue()).toBe('');

    // The goal runs as a chat case with the facts filled in: the model talks through the chat tools, and in ask mode
    // (the default) each message waits for the user with its exact text.
    await uiCall(panel, 'settings.set', { provider: { preset: 'custom', baseUrl: e2e.fake.openaiBaseUrl, model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 }, defaultMode: 'ask' });
    e2e.fake.enqueue(call('chat_send', { text: 'Where is order 1234?' }), call('chat_wait', { seconds: 20 }), call('chat_end', { outcome: 'agreed', summary: 'Asked support where order 1234 is.' }));
    await panel.type('[data-testid=fact-order_number]', '1234');
    await panel.type('[data-testid=task-input]', 'Ask support where order 1234 is');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('[data-testid=chat-flow] [data-testid=approval-card]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=approval-intent]', (element) => element.textContent)).toBe('Send to support: "Where is order 1234?"');
    expect(await target.$eval('.chat-log', (element) => element.textContent ?? '')).not.toContain('Where is order 1234?');
    // Once the case starts its setup folds away, and the approval waits inline, below the thread and above the box.
    expect(await panel.$eval('[data-testid=chat-setup]', (details) => (details as HTMLDetailsElement).open)).toBe(false);
    expect(
      await panel.$eval('[data-testid=approval-card]', (card) => {
        const after = (a: Node | null, b: Node | null): boolean => a !== null && b !== null && (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
        return [after(document.querySelector('[data-testid=chat-flow] [data-testid=steps]'), card), after(card, document.querySelector('[data-testid=composer-chat]'))];
      }),
    ).toEqual([true, true]);
    await panel.click('[data-testid=approve]');
    await panel.waitForSelector('[data-testid=chat-flow] [data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(await target.$eval('.chat-log', (element) => element.textContent ?? '')).toContain('Where is order 1234?');
    expect(await panel.$eval('[data-testid=case-summary]', (element) => element.textContent)).toBe('Asked support where order 1234 is.');
    // The case reads as a chat: what Deputy sent and what support answered, as messages.
    expect(await texts(panel, '[data-testid=thread-us] .bubble__text')).toEqual(['Where is order 1234?']);
    expect((await texts(panel, '[data-testid=thread-them] .bubble__text')).join('\n')).toMatch(/order 1234|store credit/);
    expect(await panel.$eval('[data-testid=chat-flow]', (flow) => flow.lastElementChild?.getAttribute('data-testid'))).toBe('composer-chat');
    expect(await panel.$eval('[data-testid=composer-chat]', (box) => box.getAttribute('data-mode'))).toBe('follow-up');
    expect(await seriousViolations(panel, 'chat thread')).toEqual([]);
    expect(await screenshotBothSchemes(panel, 'panel-chat-thread')).toEqual([]);
    const record = (await uiCall(panel, 'task.list', { tabId, limit: 1 }))[0];
    expect(record).toMatchObject({ flow: 'chat', text: 'Ask support where order 1234 is', status: 'completed', facts: { order_number: '1234' }, chat: { outcome: 'agreed' } });
    // The demo shop's widget is recognised by its structure only, so who said what is not asserted, only what was said.
    expect(record?.chat?.transcript.map((message) => message.text).join('\n')).toContain('Where is order 1234?');

    // A follow-up continues the same case in the same chat: the model gets the case so far, then the follow-up.
    const asked = e2e.fake.requests.length;
    e2e.fake.enqueue(call('chat_send', { text: 'A full refund, please.' }), call('chat_end', { outcome: 'agreed', summary: 'Support agreed to a full refund.' }));
    await panel.type('[data-testid=task-input]', 'Ask for the full refund instead');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('[data-testid=chat-flow] [data-testid=approval-card]', { timeout: 60_000 });
    await panel.click('[data-testid=approve]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=case-summary]')?.textContent === 'Support agreed to a full refund.', { timeout: 60_000 });
    for (const said of ['Ask support where order 1234 is', 'Where is order 1234?', 'Asked support where order 1234 is.', 'Ask for the full refund instead']) expect(e2e.fake.requests[asked]?.text).toContain(said);
    expect(await texts(panel, '[data-testid=thread-us] .bubble__text')).toEqual(['Where is order 1234?', 'A full refund, please.']);
    expect(await target.$eval('.chat-log', (element) => element.textContent ?? '')).toContain('A full refund, please.');
    expect((await uiCall(panel, 'task.list', { tabId })).map((task) => [task.id, task.agent?.followUps?.length])).toEqual([[record?.id, 1]]);
    await panel.close();
    await target.close();
  });

  it('says clearly that no chat widget was found, with what was checked', async () => {
    const { panel, tabId, target } = await automateChat(e2e.site.url('/'));
    const detection = await uiCall(panel, 'chat.detect', { tabId });
    expect(detection.found).toBe(false);
    expect(await panel.$eval('[data-testid=chat-detection]', (element) => element.getAttribute('data-found'))).toBe('false');
    expect(await panel.$eval('[data-testid=chat-detection]', (element) => element.textContent ?? '')).toContain('No chat widget found on this page.');
    const summary = await panel.$eval('[data-testid=chat-summary]', (element) => element.textContent ?? '');
    expect(summary).toBe(detection.summary);
    expect(summary).toMatch(/checked/i);
    expect(await screenshotBothSchemes(panel, 'panel-chat-none')).toEqual([]);
    await panel.close();
    await target.close();
  });
});
