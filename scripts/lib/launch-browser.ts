import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { TargetType, type Browser, type Page, type Target, type WebWorker } from 'puppeteer-core';
import { EXTENSION_ID } from '../../shared/constants';
import { findBrowser } from './find-browser';

export interface LaunchOptions {
  /** The built extension folder; default dist/. */
  extensionDir?: string;
  /** A profile folder; a fresh temporary one by default (removed on close). */
  userDataDir?: string;
  headless?: boolean;
  /** Extra Chromium flags. */
  args?: string[];
  /** Resolve only loopback hosts, so nothing leaves the machine (the default). */
  loopbackOnly?: boolean;
  /** Extra environment for the browser, and so for the native host it starts (e.g. DEPUTY_LOG_FILE). */
  env?: Record<string, string>;
}

export interface ExtensionBrowser {
  browser: Browser;
  userDataDir: string;
  extensionId: string;
  /** The extension's service worker, waiting until `chrome` is usable inside it. */
  worker(): Promise<WebWorker>;
  /** Opens one of the extension's pages (e.g. the side panel) in a tab. */
  openExtensionPage(path: string): Promise<Page>;
  close(): Promise<void>;
}

/** Flags every Deputy run of Chromium uses: quiet, offline-friendly, and able to run as root in CI. */
export function baseArgs(options: { loopbackOnly: boolean }): string[] {
  const args = [
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-gpu',
    '--disable-dev-shm-usage',
  ];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  if (options.loopbackOnly) args.push('--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost');
  return args;
}

/**
 * Starts Chromium with the built extension loaded from `extensionDir` in a profile of its own. The native host is
 * found through `<userDataDir>/NativeMessagingHosts/`, so register it there before launching when a test needs it.
 */
export async function launchWithExtension(options: LaunchOptions = {}): Promise<ExtensionBrowser> {
  const extensionDir = resolve(options.extensionDir ?? 'dist');
  const ownProfile = options.userDataDir === undefined;
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'deputy-profile-')));
  const browser = await puppeteer.launch({
    executablePath: findBrowser(),
    headless: options.headless ?? true,
    userDataDir,
    pipe: true,
    enableExtensions: [extensionDir],
    env: { ...process.env, ...options.env },
    args: [...baseArgs({ loopbackOnly: options.loopbackOnly ?? true }), ...(options.args ?? [])],
  });

  const isOurWorker = (candidate: Target): boolean =>
    candidate.type() === TargetType.SERVICE_WORKER && candidate.url().startsWith(`chrome-extension://${EXTENSION_ID}/`);

  const worker = async (): Promise<WebWorker> => {
    const deadline = Date.now() + 30_000;
    let lastError: unknown;
    while (Date.now() < deadline) {
      try {
        const target = await browser.waitForTarget(isOurWorker, { timeout: Math.max(1, deadline - Date.now()) });
        const found = await target.worker();
        // Right after the target appears `chrome` can still be undefined inside it, and a worker that was just
        // stopped can linger as a detached target: both answer the probe below with an error or false.
        if (found && (await found.evaluate(() => typeof chrome !== 'undefined' && typeof chrome.runtime?.id === 'string'))) {
          return found;
        }
      } catch (error) {
        lastError = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`The extension's service worker did not start within 30 s: ${String(lastError)}`);
  };

  return {
    browser,
    userDataDir,
    extensionId: EXTENSION_ID,
    worker,
    async openExtensionPage(path) {
      const page = await browser.newPage();
      await page.goto(`chrome-extension://${EXTENSION_ID}/${path.replace(/^\//, '')}`);
      return page;
    },
    async close() {
      await browser.close().catch(() => undefined);
      if (ownProfile) await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
