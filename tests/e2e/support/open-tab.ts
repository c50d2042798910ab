import type { Page } from 'puppeteer-core';
import type { ExtensionBrowser } from '../../../scripts/lib/launch-browser';
import { uiCall } from './ui-call';

let opened = 0;

/**
 * A tab of its own at the address, in front (only the tab in front can be captured), with its page ready to be read,
 * and its id as the extension knows it. A browser page (chrome://...) is opened by the extension, as only it may.
 */
export async function openTab(ext: ExtensionBrowser, helper: Page, url?: string): Promise<{ page: Page; tabId: number }> {
  const page = await ext.browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  const marker = `about:blank#tab-${(opened += 1)}`;
  await page.goto(marker);
  const tabId = await helper.evaluate(async (href) => (await chrome.tabs.query({})).find((tab) => tab.url === href)?.id ?? -1, marker);
  if (url?.startsWith('chrome://')) {
    // The browser's own pages open only from the browser (an extension may open the New Tab page), not by a page.
    await helper.evaluate((id, href) => chrome.tabs.update(id, { url: href }), tabId, url);
    // The update resolves before the tab has committed the new address: wait until the tab is on it.
    for (let tries = 0; ; tries += 1) {
      const tab = await helper.evaluate(async (id) => {
        const t = await chrome.tabs.get(id);
        return { url: t.url, status: t.status };
      }, tabId);
      if (tab.url === url && tab.status === 'complete') break;
      if (tries > 200) throw new Error(`The tab never opened ${url} (it is on ${tab.url}, ${tab.status})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } else if (url) {
    await page.goto(url);
    // The content script starts with the document; the tab may still be committing the page: wait until it answers.
    for (let tries = 0; (await uiCall(helper, 'content.ping', { tabId })).frames.length === 0; tries += 1) {
      if (tries > 100) throw new Error(`The content script never answered on ${url}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await page.bringToFront();
  return { page, tabId };
}
