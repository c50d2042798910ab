import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page, Target, WebWorker } from 'puppeteer-core';
import { EXTENSION_ID } from '../../shared/constants';
import { findBrowser } from './find-browser';
import { hostRulesFromEnv } from './host-rules';
import { assertProfileFree } from './profile-lock';

export interface LaunchOptions {
  /** The built extension folder; default dist/. */
  extensionDir?: string;
  /** A profile folder, kept as it is; a fresh temporary one by default (removed on close). */
  userDataDir?: string;
  /** The browser executable (Chrome, Chromium, Brave, Edge); found through CHROME_PATH and the usual paths by default. */
  executablePath?: string;
  headless?: boolean;
  /** Extra Chromium flags. */
  args?: string[];
  /**
   * Chromium's `--host-resolver-rules`, for tests only (they map names such as shop.test to loopback). Without it the
   * browser resolves names as any browser does; DEPUTY_HOST_RULES in the environment sets it for a test's child run.
   */
  hostRules?: string;
  /** Extra environment for the browser, and so for the native host it starts (e.g. DEPUTY_LOG_FILE). */
  env?: Record<string, string>;
  /** How long one call into the browser may take (puppeteer's default is 180 s). */
  protocolTimeoutMs?: number;
}

export interface ExtensionBrowser {
  browser: Browser;
  userDataDir: string;
  extensionId: string;
  /** The extension's service worker, waiting until `chrome` is usable inside it. */
  worker(): Promise<WebWorker>;
  /** The blank tab the browser opened with, when it is still blank; else a new tab. */
  blankTab(): Promise<Page>;
  /**
   * Opens one of the extension's pages (e.g. the side panel) in a tab, once the extension is installed: its worker
   * may still be starting, and answers the page's messages once it has.
   */
  openExtensionPage(path: string): Promise<Page>;
  close(): Promise<void>;
}

/** Flags every Deputy run of Chromium uses: quiet, and able to run as root in CI. Host rules only when a test gives them. */
export function baseArgs(options: { hostRules?: string | undefined } = {}): string[] {
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
  if (options.hostRules) args.push(`--host-resolver-rules=${options.hostRules}`);
  return args;
}

/**
 * Chromium features a task never uses that still cost a process each from the start: the omnibox popup drawn as a web
 * page (preloaded into a renderer of its own, about 150 MB, in a browser nobody types an address into) and the spare
 * renderer kept warm for the next site (about 75 MB; Deputy's task tab is already open). Passed as
 * `--disable-features`, which puppeteer merges with its own list.
 */
export const UNNEEDED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup', 'SpareRendererForSitePerProcess'];

/** The flags launchWithExtension adds to puppeteer's own: baseArgs and the features a task does not need. */
export function extensionBrowserArgs(hostRules: string | undefined): string[] {
  return [...baseArgs({ hostRules }), `--disable-features=${UNNEEDED_FEATURES.join(',')}`];
}

/**
 * Starts reading puppeteer-core (a few hundred milliseconds of a busy machine) without waiting for it, for a caller
 * with something else to wait for before it launches: `npm run task` checks the model server meanwhile.
 * launchWithExtension's own import then finds it loaded. A failure is left to that import to report.
 */
export function preloadBrowserLibrary(): void {
  import('puppeteer-core').catch(() => undefined);
}

/**
 * How long Chromium may take to start, and its extension's worker to answer: a cap, not a wait. A laptop busy with other
 * work (or two test files run at once on two cores) takes well over the 30 s puppeteer allows by default.
 */
const START_CAP_MS = 90_000;

/**
 * Starts Chromium with the built extension loaded from `extensionDir` in a profile of its own. The native host is
 * found through `<userDataDir>/NativeMessagingHosts/`, so register it there before launching when a test needs it.
 */
export async function launchWithExtension(options: LaunchOptions = {}): Promise<ExtensionBrowser> {
  const extensionDir = resolve(options.extensionDir ?? 'dist');
  const ownProfile = options.userDataDir === undefined;
  if (!ownProfile) await assertProfileFree(resolve(options.userDataDir ?? ''));
  const executablePath = options.executablePath ?? findBrowser();
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'deputy-profile-')));
  // Loaded when a browser is needed: the host and the CLI start without it.
  const { default: puppeteer, TargetType } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    timeout: START_CAP_MS,
    ...(options.protocolTimeoutMs !== undefined ? { protocolTimeout: options.protocolTimeoutMs } : {}),
    executablePath,
    headless: options.headless ?? true,
    userDataDir,
    pipe: true,
    enableExtensions: [extensionDir],
    // Sites see an ordinary browser: no "controlled by automated software" bar or automation flag. A profile of the
    // user's keeps its own password store, or the cookies it holds (the logged-in sessions) could not be read.
    ignoreDefaultArgs: ['--enable-automation', ...(ownProfile ? [] : ['--password-store=basic', '--use-mock-keychain'])],
    env: { ...process.env, ...options.env },
    args: [...extensionBrowserArgs(options.hostRules ?? hostRulesFromEnv(process.env)), ...(options.args ?? [])],
  });

  const isOurWorker = (candidate: Target): boolean =>
    candidate.type() === TargetType.SERVICE_WORKER && candidate.url().startsWith(`chrome-extension://${EXTENSION_ID}/`);

  // puppeteer installs the extension after the launch without waiting for it: its worker's target is the sign it is in.
  const installed = browser.waitForTarget(isOurWorker, { timeout: START_CAP_MS }).then(() => undefined);
  installed.catch(() => undefined);

  const worker = async (): Promise<WebWorker> => {
    const deadline = Date.now() + START_CAP_MS;
    let lastError: unknown;
    while (Date.now() < deadline) {
      try {
        const target = await browser.waitForTarget(isOurWorker, { timeout: Math.max(1, deadline - Date.now()) });
        const found = await target.worker();
        // Right after the target appears `chrome` can still be undefined inside it, and a worker that was just
        // stopped can linger as a detached target: both answer the probe below with an error or false.
        if (found && (await found.evaluate("typeof chrome !== 'undefined' && typeof chrome.runtime?.id === 'string'"))) {
          return found;
        }
      } catch (error) {
        lastError = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`The extension's service worker did not start within ${START_CAP_MS / 1000} s: ${String(lastError)}`);
  };

  return {
    browser,
    userDataDir,
    extensionId: EXTENSION_ID,
    worker,
    async blankTab() {
      const pages = await browser.pages();
      return pages.find((page) => page.url() === 'about:blank') ?? (await browser.newPage());
    },
    async openExtensionPage(path) {
      const [page] = await Promise.all([browser.newPage(), installed]);
      await page.goto(`chrome-extension://${EXTENSION_ID}/${path.replace(/^\//, '')}`);
      return page;
    },
    async close() {
      await browser.close().catch(() => undefined);
      if (ownProfile) await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
