import { mkdir } from 'node:fs/promises';
import type { Page } from 'puppeteer-core';
import type { ExtensionBrowser } from '../../../scripts/lib/launch-browser';
import type { ParamsOf, UiMethods } from '../../../shared/protocol';
import { uiCall } from './ui-call';

export const PANEL = 'extension/sidepanel/index.html';
export const POPUP = 'extension/popup/index.html';
export const PANEL_WIDTH = 360;
const SHOTS = 'test-artifacts/screenshots';

/** The id of the tab that shows `url`, asked from an extension page. */
export async function tabIdOf(extensionPage: Page, url: string): Promise<number> {
  const tabs = await extensionPage.evaluate(() => chrome.tabs.query({}));
  const tab = tabs.find((candidate) => candidate.url === url);
  if (tab?.id === undefined) throw new Error(`No tab shows ${url}`);
  return tab.id;
}

/** Waits, on an extension page, until the background says the native host is connected. */
export async function waitForHost(extensionPage: Page): Promise<void> {
  await extensionPage.waitForFunction(
    async () => ((await chrome.storage.session.get('hostStatus')) as { hostStatus?: { state?: string } }).hostStatus?.state === 'connected',
    { timeout: 90_000 },
  );
}

/** Opens the side panel's page for a tab at the panel's narrow width, as the context menu's fallback does. */
export async function openPanel(ext: ExtensionBrowser, tabId: number, page = PANEL): Promise<Page> {
  const panel = await ext.browser.newPage();
  await panel.setViewport({ width: PANEL_WIDTH, height: 800 });
  await panel.goto(`chrome-extension://${ext.extensionId}/${page}?tab=${tabId}`);
  await panel.waitForSelector('main');
  return panel;
}

/** Text of every element matching the selector, in document order. */
export function texts(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (elements) => elements.map((element) => element.textContent ?? ''));
}

/** Elements wider than the panel or sticking out of it: each would force a sideways scroll at the panel's width. */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width) found.push(`document scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.right > width + 0.5 || box.left < -0.5) {
        const id = element.getAttribute('data-testid') ?? element.className.toString();
        found.push(`${element.tagName.toLowerCase()}.${id} spans ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
      }
    }
    return found;
  });
}

/**
 * Saves the page in light and dark (test-artifacts/screenshots/<name>-light.png and -dark.png) and returns what
 * overflows the panel in either scheme, for the test to assert on.
 */
export async function screenshotBothSchemes(page: Page, name: string): Promise<string[]> {
  await mkdir(SHOTS, { recursive: true });
  const problems: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // The theme must follow the scheme: a dark page with a light background (or the reverse) is a bug to report.
    const dark = background === 'rgb(17, 19, 24)';
    if (dark !== (scheme === 'dark')) problems.push(`${scheme}: body background is ${background}`);
    problems.push(...(await overflowing(page)).map((problem) => `${scheme}: ${problem}`));
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  return problems;
}

/** Opens one of the developer tools (loop, desktop, shell): the Developer tools view, then the tool's own tab. */
export async function openDevTool(page: Page, tool: 'loop' | 'desktop' | 'shell'): Promise<void> {
  await page.waitForSelector('[data-testid=flow-dev]');
  await page.click('[data-testid=flow-dev]');
  await page.waitForSelector(`[data-testid=flow-${tool}]`);
  await page.click(`[data-testid=flow-${tool}]`);
}

/**
 * A new user's setting: `url` open in a new tab and the side panel for that tab, ready for a task. With `settings`,
 * they are saved before the panel opens (a model, a default mode), as a user would have done in Settings.
 */
export async function openPanelOn(ext: ExtensionBrowser, url: string, settings?: ParamsOf<UiMethods, 'settings.set'>): Promise<{ target: Page; panel: Page; tabId: number }> {
  const target = await ext.browser.newPage();
  // A cap, not a wait (puppeteer's default 30 s ran out on a busy machine).
  await target.goto(url, { waitUntil: 'load', timeout: 120_000 });
  const helper = await ext.openExtensionPage(PANEL);
  const tabId = await tabIdOf(helper, url);
  if (settings) await uiCall(helper, 'settings.set', settings);
  await helper.close();
  const panel = await openPanel(ext, tabId);
  await panel.waitForSelector('[data-testid=task-input]');
  return { target, panel, tabId };
}

/**
 * The settings most panel tests save: the fake provider's OpenAI chat endpoint, streamed, as gpt-4o-mini (a model
 * with a known price), and the default mode.
 */
export function fakeModelSettings(openaiBaseUrl: string, defaultMode: 'act' | 'ask' = 'act'): ParamsOf<UiMethods, 'settings.set'> {
  return {
    provider: { preset: 'custom', baseUrl: openaiBaseUrl, model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 },
    defaultMode,
  };
}
