import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import type { ExtensionBrowser } from '../../../scripts/lib/launch-browser';
import { launchTestBrowser } from './test-hosts';
import { serveDirectory, type DirectoryServer } from '../../../scripts/bench/serve-directory';
import type { ResultOf, UiMethods } from '../../../shared/protocol';
import { needShared } from '../../support/shared-dir';
import { uiCall } from './ui-call';

export type PageSnapshot = ResultOf<UiMethods, 'page.snapshot'>;
export type PageOutcome = ResultOf<UiMethods, 'page.act'>;

/** The perception tests drive the built extension; without a build they would test nothing. */
export function requireExtensionBuild(): void {
  if (!existsSync('dist/manifest.json')) throw new Error('Missing dist/manifest.json: run `npm run build` before the end-to-end tests');
}

/**
 * The folders the perception tests serve: their own fixtures, React's UMD builds, TodoMVC, and the real-page corpus
 * when the shared folder beside the checkout has it (a test that opens /corpus/ skips without it: see needShared).
 */
export function perceptionMounts(): Record<string, string> {
  const corpus = needShared('corpus/pages');
  return {
    '/': resolve('tests/fixtures/pages/perception'),
    '/vendor/react/': resolve('node_modules/react/umd'),
    '/vendor/react-dom/': resolve('node_modules/react-dom/umd'),
    '/todomvc/': resolve('node_modules/todomvc'),
    ...(corpus.missing === null ? { '/corpus/': corpus.path } : {}),
  };
}

/**
 * A browser with the built extension, a fixture server, and the side panel page through which the tests call the
 * background's page agent exactly as the extension's own pages do.
 */
export class PerceptionHarness {
  private constructor(
    readonly ext: ExtensionBrowser,
    readonly server: DirectoryServer,
    readonly panel: Page,
  ) {}

  static async start(): Promise<PerceptionHarness> {
    const server = await serveDirectory(perceptionMounts());
    const ext = await launchTestBrowser();
    await ext.worker();
    const panel = await ext.openExtensionPage('extension/sidepanel/index.html');
    return new PerceptionHarness(ext, server, panel);
  }

  async close(): Promise<void> {
    await this.ext.close();
    await this.server.close();
  }

  /** Opens a page in a new tab, in front (background tabs throttle timers), and returns it with its tab id. */
  async open(path: string, host = '127.0.0.1'): Promise<{ page: Page; tabId: number }> {
    const page = await this.ext.browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    const url = this.server.url(path, host);
    await page.goto(url, { waitUntil: 'load' });
    await page.bringToFront();
    const tabId = await this.panel.evaluate(async (href) => {
      const tabs = await chrome.tabs.query({});
      return tabs.find((tab) => tab.url === href)?.id ?? -1;
    }, page.url());
    if (tabId < 0) throw new Error(`No tab shows ${url}`);
    await this.waitForContentScript(tabId);
    return { page, tabId };
  }

  /** The content script loads through a dynamic import; wait until the top frame answers. */
  private async waitForContentScript(tabId: number): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const reply = await this.snapshot(tabId).catch(() => undefined);
      if (reply) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`The content script never answered in tab ${tabId}`);
  }

  snapshot(tabId: number, mode: 'viewport' | 'page' = 'viewport', maxTokens?: number): Promise<PageSnapshot> {
    return uiCall(this.panel, 'page.snapshot', maxTokens === undefined ? { tabId, mode } : { tabId, mode, maxTokens });
  }

  act(tabId: number, action: Record<string, unknown>, settleMs?: number): Promise<PageOutcome> {
    return uiCall(this.panel, 'page.act', settleMs === undefined ? { tabId, action } : { tabId, action, settleMs });
  }

  /** Marks element [ref] with `data-deputy-highlight` for a moment; false when it is gone. */
  async highlight(tabId: number, ref: number): Promise<boolean> {
    return (await uiCall(this.panel, 'page.highlight', { tabId, ref })).found;
  }
}

/** The number of the one element with this role whose name matches; fails with the snapshot text when there is none. */
export function refOf(shot: PageSnapshot, role: string, name: string | RegExp): number {
  const matches = shot.elements.filter((el) => el.role === role && (typeof name === 'string' ? el.name === name : name.test(el.name)));
  if (matches.length !== 1 || !matches[0]) {
    throw new Error(`Expected one ${role} named ${String(name)}, found ${matches.length} in:\n${shot.text}`);
  }
  return matches[0].ref;
}

/** The snapshot line of element [n]. */
export function lineOf(shot: PageSnapshot, n: number): string {
  return shot.text.split('\n').find((line) => line.startsWith(`[${n}]`) || line.startsWith(`*[${n}]`)) ?? '';
}
