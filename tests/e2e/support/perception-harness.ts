import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll } from 'vitest';
import { serveDirectory, type DirectoryServer } from '../../../scripts/bench/serve-directory';
import type { ResultOf, UiMethods } from '../../../shared/protocol';
import { needShared } from '../../support/shared-dir';
import { useE2e } from './e2e-fixture';
import { uiCall } from './ui-call';
import { waitUntil } from './wait-until';

export type PageSnapshot = ResultOf<UiMethods, 'page.snapshot'>;
export type PageOutcome = ResultOf<UiMethods, 'page.act'>;

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

/** The page agent as the perception tests drive it: open a fixture page, snapshot it, act on it by reference. */
export interface PerceptionHarness {
  /** The fixture server (perceptionMounts), on loopback; other host names reach it as other origins. */
  readonly server: DirectoryServer;
  /** Opens a page in a new tab, in front (background tabs throttle timers), and returns it with its tab id. */
  open(path: string, host?: string): Promise<{ page: Page; tabId: number }>;
  snapshot(tabId: number, mode?: 'viewport' | 'page', maxTokens?: number): Promise<PageSnapshot>;
  act(tabId: number, action: Record<string, unknown>, settleMs?: number): Promise<PageOutcome>;
  /** Marks element [ref] with `data-deputy-highlight` for a moment; false when it is gone. */
  highlight(tabId: number, ref: number): Promise<boolean>;
}

/**
 * The shared e2e fixture (one browser with the built extension for the file, or for the describe block it is called
 * in) and a fixture server, with the side panel page through which the tests call the background's page agent
 * exactly as the extension's own pages do.
 */
export function usePerception(): PerceptionHarness {
  const e2e = useE2e();
  let server: DirectoryServer | undefined;
  let panel: Page | undefined;

  beforeAll(async () => {
    const started = await serveDirectory(perceptionMounts());
    server = started;
    e2e.afterClose(() => started.close());
    panel = await e2e.helper();
  });

  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The perception harness has not started: use it inside a test or hook, after beforeAll');
    return value;
  };

  const snapshot: PerceptionHarness['snapshot'] = (tabId, mode = 'viewport', maxTokens) =>
    uiCall(need(panel), 'page.snapshot', maxTokens === undefined ? { tabId, mode } : { tabId, mode, maxTokens });

  /** The content script loads through a dynamic import; wait until the top frame answers. */
  const waitForContentScript = (tabId: number): Promise<unknown> =>
    waitUntil(`the content script to answer in tab ${tabId}`, () => snapshot(tabId).catch(() => undefined), { everyMs: 100 });

  return {
    get server() {
      return need(server);
    },
    async open(path, host = '127.0.0.1') {
      const page = await e2e.ext.browser.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      const url = need(server).url(path, host);
      // A cap, not a wait: a page of 200 frames loads in seconds, but puppeteer's default 30 s ran out on a busy machine.
      await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
      await page.bringToFront();
      const tabId = await need(panel).evaluate(async (href) => {
        const tabs = await chrome.tabs.query({});
        return tabs.find((tab) => tab.url === href)?.id ?? -1;
      }, page.url());
      if (tabId < 0) throw new Error(`No tab shows ${url}`);
      await waitForContentScript(tabId);
      return { page, tabId };
    },
    snapshot,
    act: (tabId, action, settleMs) => uiCall(need(panel), 'page.act', settleMs === undefined ? { tabId, action } : { tabId, action, settleMs }),
    highlight: async (tabId, ref) => (await uiCall(need(panel), 'page.highlight', { tabId, ref })).found,
  };
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
