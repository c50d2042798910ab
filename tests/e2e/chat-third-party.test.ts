import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatFixtureRoutes } from '../fixtures/chat/chat-routes';
import { THIRD_PARTY_CHATS, thirdPartyPath } from '../fixtures/chat/third-party-pages';
import { useE2e } from './support/e2e-fixture';
import { uiCall } from './support/ui-call';

const QUIET_MS = 300;

describe('chat UIs nobody here wrote, found by their structure alone', () => {
  // DEPUTY_EXTENSION_DIR runs the file against another build of the extension than dist/ (the fixture reads it).
  const e2e = useE2e({ loadRoutes: chatFixtureRoutes });
  let panel: Page;

  beforeAll(async () => {
    panel = await e2e.helper();
  });

  async function openTab(path: string): Promise<{ page: Page; tabId: number }> {
    const page = await e2e.ext.browser.newPage();
    const url = e2e.site.url(path);
    await page.goto(url, { waitUntil: 'load' });
    // The component libraries render after load (custom element upgrade, a mount call): wait for their composer.
    await page.waitForFunction(() => {
      const host = document.querySelector('deep-chat');
      const root = host?.shadowRoot ?? document;
      return root.querySelector('textarea, [contenteditable="true"]') !== null;
    });
    const tabs = await panel.evaluate(() => chrome.tabs.query({}));
    const tab = tabs.find((candidate) => candidate.url === url);
    if (tab?.id === undefined) throw new Error(`No tab shows ${url}`);
    return { page, tabId: tab.id };
  }

  describe.each(THIRD_PARTY_CHATS.map((chat) => [chat.name, chat] as const))('%s', (_name, chat) => {
    it('is detected as a chat of no known vendor in the top frame', async () => {
      const { page, tabId } = await openTab(thirdPartyPath(chat.id));
      const detection = await uiCall(panel, 'chat.detect', { tabId });
      expect(detection).toMatchObject({ found: true, vendor: 'generic', frameId: 0, frameUrl: e2e.site.url(thirdPartyPath(chat.id)) });
      expect(detection.confidence).toBeGreaterThanOrEqual(0.6);
      expect(detection.evidence.map((item) => item.detail)).toEqual(expect.arrayContaining(['composer', 'message list']));
      expect(detection.alternatives).toEqual([]);
      await page.close();
    });

    it('holds a conversation: reads the greeting, sends, waits for the streamed reply, reads authors', async () => {
      const { page, tabId } = await openTab(thirdPartyPath(chat.id));
      expect(await uiCall(panel, 'chat.open', { tabId })).toMatchObject({ opened: true, how: 'already_open' });
      const first = await uiCall(panel, 'chat.read', { tabId });
      expect(first.messages.map((message) => [message.author, message.text])).toEqual([['them', 'Hi! How can I help you today?']]);
      expect(first.typing).toBe(false);

      const sent = await uiCall(panel, 'chat.send', { tabId, text: 'I need a refund' });
      expect(sent.sent).toBe(true);
      const reply = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
      expect(reply.status).toBe('replied');
      // The reply streams in word by word; the wait returns it whole.
      expect(reply.newMessages.map((message) => [message.author, message.text])).toEqual([['them', 'Sorry to hear that. What is your order number?']]);

      await uiCall(panel, 'chat.send', { tabId, text: 'It is order 1234' });
      const second = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
      expect(second.newMessages.map((message) => message.text)).toEqual(['Let me check that for you. Could you tell me a little more?']);

      const transcript = await uiCall(panel, 'chat.read', { tabId });
      expect(transcript.messages.map((message) => [message.author, message.text])).toEqual([
        ['them', 'Hi! How can I help you today?'],
        ['us', 'I need a refund'],
        ['them', 'Sorry to hear that. What is your order number?'],
        ['us', 'It is order 1234'],
        ['them', 'Let me check that for you. Could you tell me a little more?'],
      ]);
      // Ids are stable across reads: the same messages keep the ids the earlier wait returned.
      expect(transcript.messages[2]?.id).toBe(reply.newMessages[0]?.id);

      expect(await uiCall(panel, 'chat.end', { tabId })).toEqual({ ended: true });
      expect(await uiCall(panel, 'chat.end', { tabId })).toEqual({ ended: false });
      await page.close();
    });

    it('reports a clear timeout when the bot never answers', async () => {
      const { page, tabId } = await openTab(`${thirdPartyPath(chat.id)}?silent=1`);
      await uiCall(panel, 'chat.send', { tabId, text: 'Hello?' });
      const wait = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 1500, quietMs: QUIET_MS });
      expect(wait.status).toBe('timeout');
      expect(wait.newMessages).toEqual([]);
      expect(wait.summary).toMatch(/^No (complete )?reply within 1\.5 s/);
      await page.close();
    });
  });
});
