import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { serveDemoSite, type DemoSite } from '../../../scripts/demo/serve-demo-site';
import type { ExtensionBrowser } from '../../../scripts/lib/launch-browser';
import type { ParamsOf, UiMethods } from '../../../shared/protocol';
import { startFakeProvider, type FakeProvider } from '../../fixtures/fake-provider/fake-provider-server';
import { openTab } from './open-tab';
import { PANEL, openPanelOn } from './panel-harness';
import { registerHostInProfile, requireBuild } from './register-host';
import { serveRoutes, type Routes, type StaticServer } from './static-server';
import { launchTestBrowser, siteUrl } from './test-hosts';
import { uiCall } from './ui-call';

/**
 * The one set-up of the end-to-end tests: the built extension in Chromium (names under `.test` mapped to loopback),
 * and what a file asks for besides: the demo shop on shop.test, pages of its own, the scripted model on models.test,
 * the built host registered in the browser's profile. One browser serves all the tests of the file (or of the
 * describe block it is called in); everything is closed after them, in the reverse order.
 *
 * ```ts
 * const e2e = useE2e({ demo: true, model: 'act' });
 * it('…', async () => {
 *   const { panel } = await e2e.panelOn(e2e.shop.url);
 *   e2e.fake.enqueue(call('done', { success: true, summary: 'Done.' }));
 * });
 * ```
 */
export interface E2eOptions {
  /** Serve the demo shop (scripts/demo/site) as shop.test. */
  demo?: boolean;
  /** Pages of the file's own, served from memory; reach them with e2e.site.url(path, 'shop.test'). */
  routes?: Routes | ((url: StaticServer['url']) => Routes);
  /** Pages that take work to make (a bundle to build, files to read): made in beforeAll, then served as `routes`. */
  loadRoutes?: () => Promise<Routes | ((url: StaticServer['url']) => Routes)>;
  /**
   * Start the scripted model server. With a mode, the model (on models.test) and that default mode are saved as
   * the user's settings before the tests run; with `true` the server runs and the settings are left to the test.
   */
  model?: boolean | 'act' | 'ask';
  /** Step budget saved with the model settings. */
  stepBudget?: number;
  /** Register the built host in the browser's profile (the product's own install command), so Chromium starts it. */
  host?: boolean;
  /** Downloads go to a temp folder of the file's, e2e.downloads (the profile's own preferences say so, as a user's would). */
  downloads?: boolean;
  /**
   * The browser's environment, which the host it starts inherits (state folders, fake CLIs); a function is read when
   * the browser starts, after the file's earlier beforeAll hooks (a virtual display started there, say).
   */
  env?: Record<string, string> | (() => Record<string, string>);
  /**
   * The browser to start instead of the one found (CHROME_PATH, the usual paths): a function is read when the browser
   * starts, as `env` is (the attack world's host surfaces start Chromium with the test names mapped for its host).
   */
  executablePath?: () => string | undefined;
  /** Open the side panel for the shop's tab once everything has started (needs `demo`): e2e.panel, e2e.tabId. */
  panel?: boolean;
  /**
   * The unpacked extension to load: dist/ by default, or DEPUTY_EXTENSION_DIR when set (to run a file against
   * another build of the extension).
   */
  extensionDir?: string;
  /**
   * Start Chromium with the extension (the default). `false` for a file that drives the product another way (a CLI
   * in a child process, the host over stdio): it gets the servers and folders it asks for, and no browser or profile.
   */
  browser?: boolean;
  /** A temp folder of the file's, e2e.work, removed after its tests (run folders, state folders, reports). */
  work?: boolean;
  /** Drop whatever the scripted model still has queued after each test, so one test's leftovers never answer the next. */
  dropModelAfterEach?: boolean;
}

export interface E2e {
  readonly ext: ExtensionBrowser;
  /** The scripted model server (with `model`). */
  readonly fake: FakeProvider;
  /** The demo shop; its url is on shop.test (with `demo`). */
  readonly shop: DemoSite;
  /** The file's own pages (with `routes` or `loadRoutes`). */
  readonly site: StaticServer;
  /** The browser's profile folder. */
  readonly profile: string;
  /** Where the browser saves downloads (with `downloads`). */
  readonly downloads: string;
  /** The file's temp folder (with `work`). */
  readonly work: string;
  /** The side panel page for the shop's tab, and that tab (with `panel`). */
  readonly panel: Page;
  readonly tabId: number;
  /** The model's address as saved in settings, on models.test (with `model`). */
  readonly modelBaseUrl: string;
  /** The settings that point Deputy at the scripted model, with a default mode. */
  modelSettings(defaultMode?: 'act' | 'ask'): ParamsOf<UiMethods, 'settings.set'>;
  /** A new tab at the address (its content script answering), in front, with its id. */
  newTab(url?: string): Promise<{ page: Page; tabId: number }>;
  /** A new tab at `url` and the side panel for it, ready for a task (settings saved first when given). */
  panelOn(url: string, settings?: ParamsOf<UiMethods, 'settings.set'>): Promise<{ target: Page; panel: Page; tabId: number }>;
  /** An extension page (the side panel's by default) to call the background through, opened once and kept. */
  helper(): Promise<Page>;
  /** Runs `close` once the browser (and so the host) has closed, after the file's tests: to remove its state folders. */
  afterClose(close: () => Promise<unknown>): void;
}

/** Registers beforeAll/afterAll hooks that start and stop what `options` asks for; read the result inside tests. */
export function useE2e(options: E2eOptions = {}): E2e {
  const state: Partial<{ ext: ExtensionBrowser; fake: FakeProvider; shop: DemoSite; site: StaticServer; profile: string; downloads: string; work: string; panel: Page; tabId: number; helper: Page }> = {};
  const browser = options.browser !== false;
  const closers: Array<() => Promise<unknown>> = [];

  function need<K extends keyof typeof state>(key: K, option: string): NonNullable<(typeof state)[K]> {
    const value = state[key];
    if (value === undefined) throw new Error(`The e2e fixture has no ${key}: pass ${option} to useE2e (and read it inside a test or hook, after beforeAll)`);
    return value;
  }

  const modelBaseUrl = (): string => siteUrl(Number(new URL(need('fake', '{ model }').url).port), 'models.test', '/v1');
  const modelSettings = (defaultMode: 'act' | 'ask' = 'act'): ParamsOf<UiMethods, 'settings.set'> => ({
    provider: { preset: 'custom', baseUrl: modelBaseUrl(), model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 },
    defaultMode,
    ...(options.stepBudget !== undefined ? { stepBudget: options.stepBudget } : {}),
  });

  async function helper(): Promise<Page> {
    if (state.helper === undefined || state.helper.isClosed()) state.helper = await need('ext', 'nothing').openExtensionPage(PANEL);
    return state.helper;
  }

  beforeAll(async () => {
    requireBuild();
    if (options.work) {
      const work = await mkdtemp(join(tmpdir(), 'deputy-e2e-work-'));
      state.work = work;
      closers.push(() => rm(work, { recursive: true, force: true }));
    }
    if (!browser && (options.host || options.downloads || options.panel)) throw new Error('The e2e fixture: { host, downloads, panel } need the browser; leave out { browser: false }');
    const profile = browser ? await mkdtemp(join(tmpdir(), 'deputy-e2e-profile-')) : undefined;
    if (profile !== undefined) {
      state.profile = profile;
      closers.push(() => rm(profile, { recursive: true, force: true }));
    }
    if (options.downloads && profile !== undefined) {
      const downloads = await mkdtemp(join(tmpdir(), 'deputy-downloads-'));
      state.downloads = downloads;
      closers.push(() => rm(downloads, { recursive: true, force: true }));
      await mkdir(join(profile, 'Default'), { recursive: true });
      await writeFile(join(profile, 'Default', 'Preferences'), JSON.stringify({ download: { default_directory: downloads, prompt_for_download: false } }));
    }
    // The servers start together; the browser waits for none of them.
    const [shop, site, fake] = await Promise.all([
      options.demo ? serveDemoSite() : undefined,
      options.routes ? serveRoutes(options.routes) : options.loadRoutes ? options.loadRoutes().then(serveRoutes) : undefined,
      options.model ? startFakeProvider() : undefined,
      options.host && profile !== undefined ? registerHostInProfile(profile) : undefined,
    ]);
    if (shop) {
      closers.push(() => shop.close());
      state.shop = { url: siteUrl(Number(new URL(shop.url).port), 'shop.test'), close: () => shop.close() };
    }
    if (site) closers.push(() => site.close());
    if (fake) closers.push(() => fake.close());
    Object.assign(state, { site, fake });
    if (profile === undefined) return;
    const extensionDir = options.extensionDir ?? process.env.DEPUTY_EXTENSION_DIR;
    const env = typeof options.env === 'function' ? options.env() : options.env;
    const executablePath = options.executablePath?.();
    const ext = await launchTestBrowser({ userDataDir: profile, ...(env ? { env } : {}), ...(extensionDir ? { extensionDir } : {}), ...(executablePath ? { executablePath } : {}) });
    closers.push(() => ext.close());
    state.ext = ext;
    await ext.worker();
    const mode = options.model === 'act' || options.model === 'ask' ? options.model : undefined;
    if (options.panel) {
      ({ panel: state.panel, tabId: state.tabId } = await openPanelOn(ext, need('shop', '{ demo: true }').url, mode ? modelSettings(mode) : undefined));
    } else if (mode) {
      await uiCall(await helper(), 'settings.set', modelSettings(mode));
    }
  });

  if (options.dropModelAfterEach) afterEach(() => state.fake?.drop());

  afterAll(async () => {
    // Browser first (it holds the host and the pages), then the servers, then the profile.
    for (const close of closers.reverse().splice(0)) await close().catch((error: unknown) => console.warn(`e2e fixture: closing failed: ${String(error)}`));
  });

  return {
    get ext() {
      return need('ext', 'nothing');
    },
    get fake() {
      return need('fake', '{ model }');
    },
    get shop() {
      return need('shop', '{ demo: true }');
    },
    get site() {
      return need('site', '{ routes }');
    },
    get profile() {
      return need('profile', 'nothing');
    },
    get downloads() {
      return need('downloads', '{ downloads: true }');
    },
    get work() {
      return need('work', '{ work: true }');
    },
    get panel() {
      return need('panel', '{ panel: true }');
    },
    get tabId() {
      return need('tabId', '{ panel: true }');
    },
    get modelBaseUrl() {
      return modelBaseUrl();
    },
    modelSettings,
    newTab: async (url) => openTab(need('ext', 'nothing'), await helper(), url),
    panelOn: (url, settings) => openPanelOn(need('ext', 'nothing'), url, settings),
    helper,
    afterClose: (close) => {
      // Closers run last-first: the first one runs after the browser and the servers.
      closers.unshift(close);
    },
  };
}
