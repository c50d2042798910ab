import type { Page } from 'puppeteer-core';
import type { DirectoryServer } from '../../bench/serve-directory';
import { launchWithExtension, type ExtensionBrowser } from '../../lib/launch-browser';
import { episodeResult, serveMiniwob, startEpisode, taskUrl } from '../../lib/miniwob-harness';

/**
 * Drives MiniWoB++ pages through Deputy's own perception and tools, with no model: the built extension in Chromium,
 * its background's page agent called over the "ui" channel from an extension page (as the side panel calls it), and
 * the page's reward read from its own globals by the harness. A solver sees only what a model would be sent: the
 * snapshot text (and, for the pages that need sight, the screenshot a vision model would get).
 */
export interface PageView {
  /** The snapshot text exactly as the model reads it. */
  text: string;
  /** A PNG of the tab's viewport, only when the solver asked for sight. */
  screenshot?: Buffer;
}

export interface ActOutcome {
  ok: boolean;
  message: string;
}

interface UiReply {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}

export class ExpressibleDriver {
  private constructor(
    readonly ext: ExtensionBrowser,
    readonly server: DirectoryServer,
    private readonly panel: Page,
  ) {}

  static async start(dir: string, options: { headless?: boolean } = {}): Promise<ExpressibleDriver> {
    const server = await serveMiniwob(dir);
    const ext = await launchWithExtension({ hostRules: 'MAP *.test 127.0.0.1', headless: options.headless ?? true });
    await ext.worker();
    const panel = await ext.openExtensionPage('extension/sidepanel/index.html');
    return new ExpressibleDriver(ext, server, panel);
  }

  async close(): Promise<void> {
    await this.ext.close().catch(() => undefined);
    await this.server.close().catch(() => undefined);
  }

  private async ui(method: string, params: Record<string, unknown>): Promise<unknown> {
    const reply = await this.panel.evaluate(
      (method, params) =>
        new Promise<UiReply>((resolve) => {
          const port = chrome.runtime.connect(chrome.runtime.id, { name: 'ui' });
          const id = `expr-${Math.random().toString(36).slice(2)}`;
          port.onMessage.addListener((message: UiReply & { kind?: string; id?: string }) => {
            if (message.kind !== 'response' || message.id !== id) return;
            port.disconnect();
            resolve({ ok: message.ok === true, result: message.result, ...(message.error ? { error: message.error } : {}) });
          });
          port.onDisconnect.addListener(() => resolve({ ok: false, error: { code: 'disconnected', message: 'the background went away' } }));
          port.postMessage({ kind: 'request', id, method, params });
        }),
      method,
      params,
    );
    if (!reply.ok) throw new Error(`${method} failed: ${reply.error?.code}: ${reply.error?.message}`);
    return reply.result;
  }

  /** Opens a task page in a new tab in front, starts a seeded episode, and waits for the content script. */
  async open(task: string, seed: string): Promise<Episode> {
    const page = await this.ext.browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    const url = taskUrl(this.server, task, 'miniwob.test');
    await page.goto(url, { waitUntil: 'load' });
    await page.bringToFront();
    const tabId = await this.panel.evaluate(async (href) => (await chrome.tabs.query({})).find((tab) => tab.url === href)?.id ?? -1, page.url());
    if (tabId < 0) throw new Error(`No tab shows ${url}`);
    for (let attempt = 0; ; attempt += 1) {
      const ready = await this.ui('page.snapshot', { tabId, mode: 'viewport' }).then(() => true, () => false);
      if (ready) break;
      if (attempt > 100) throw new Error(`The content script never answered on ${task}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await startEpisode(page, { seed });
    return new Episode(this, page, tabId);
  }

  snapshot(tabId: number): Promise<{ text: string }> {
    return this.ui('page.snapshot', { tabId, mode: 'viewport' }) as Promise<{ text: string }>;
  }

  act(tabId: number, action: Record<string, unknown>): Promise<ActOutcome> {
    return this.ui('page.act', { tabId, action, settleMs: 1500 }) as Promise<ActOutcome>;
  }
}

export class Episode {
  constructor(
    private readonly driver: ExpressibleDriver,
    readonly page: Page,
    readonly tabId: number,
  ) {}

  async view(sight = false): Promise<PageView> {
    const { text } = await this.driver.snapshot(this.tabId);
    if (!sight) return { text };
    // What a vision model is sent: the visible tab as an image.
    const screenshot = Buffer.from(await this.page.screenshot({ type: 'png' }));
    return { text, screenshot };
  }

  act(action: Record<string, unknown>): Promise<ActOutcome> {
    return this.driver.act(this.tabId, action);
  }

  result() {
    return episodeResult(this.page);
  }

  async close(): Promise<void> {
    await this.page.close().catch(() => undefined);
  }
}
