import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUICK_REPLY_WIDGETS, quickReplyPage, quickReplyPath } from '../fixtures/chat/quick-reply-widgets';
import { useE2e } from './support/e2e-fixture';
import { uiCall } from './support/ui-call';

/**
 * Quick replies read as a person sees them, on widgets of no known vendor shaped like the real ones (see
 * quick-reply-widgets.ts): the built extension in Chromium reads the choices on offer and clicks only those.
 */
describe('quick replies in support widgets of no known vendor', () => {
  const e2e = useE2e({ routes: Object.fromEntries(QUICK_REPLY_WIDGETS.map((widget) => [quickReplyPath(widget.id), quickReplyPage(widget)])) });
  let panel: Page;

  beforeAll(async () => {
    panel = await e2e.helper();
  });

  const received = (page: Page): Promise<string[]> => page.evaluate('window.deputySupportReceived') as Promise<string[]>;

  it.each(QUICK_REPLY_WIDGETS.map((widget) => [widget.like, widget] as const))('%s', async (_like, widget) => {
    const { page, tabId } = await e2e.newTab(e2e.site.url(quickReplyPath(widget.id)));
    const state = await uiCall(panel, 'chat.read', { tabId });
    expect(state.vendor).toBe('generic');
    expect(state.choices.map((choice) => choice.label)).toEqual(widget.offered);

    // A choice that is not on offer (stale, a widget control, a link in a sentence, disabled, hidden) clicks nothing.
    for (const label of widget.notOffered) {
      await expect(uiCall(panel, 'chat.choose', { tabId, choice: label })).rejects.toThrow(/the choices offered are: /);
    }
    expect(await received(page)).toEqual([]);

    const chosen = await uiCall(panel, 'chat.choose', { tabId, choice: 'request a REFUND' });
    expect(chosen).toMatchObject({ chosen: 'Request a refund', taken: true });
    expect(await received(page)).toEqual(['Request a refund']);
    expect(chosen.state.messages.at(-1)).toMatchObject({ author: 'us', text: 'Request a refund' });
    expect(chosen.state.choices).toEqual([]);
    await page.close();
  });

  it('says when the widget ignored the click, and a label that fits several choices picks none', async () => {
    const { page, tabId } = await e2e.newTab(e2e.site.url(quickReplyPath('under-list')));
    await expect(uiCall(panel, 'chat.choose', { tabId, choice: 'r' })).rejects.toThrow(/No choice "r" in the chat/);
    const ignored = await uiCall(panel, 'chat.choose', { tabId, choice: 'Call me back' });
    expect(ignored).toMatchObject({ chosen: 'Call me back', taken: false });
    expect(await received(page)).toEqual([]);
    await page.close();
  });
});
