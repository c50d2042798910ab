import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';
import { findBrowser } from '../../../scripts/lib/find-browser';
import { TARGET_PAGE } from '../../fixtures/desktop/target-page';
import { startVirtualDisplay, type VirtualDisplay } from '../../fixtures/desktop/virtual-display';
import type { RecordedRequest } from '../../fixtures/fake-provider/fake-provider-server';
import { serveRoutes, type StaticServer } from './static-server';
import { testBrowserArgs } from './test-hosts';

/**
 * The real X window a desktop test acts on: an Xvfb screen of 1280x800 of the file's own, and a full-screen (kiosk)
 * Chromium on it showing the target page (tests/fixtures/desktop/target-page.ts), which records the clicks, keys and
 * drops it receives in `window.record`. Started in beforeAll, closed after the file's (or describe block's) tests.
 */
export interface DesktopTarget {
  /** The X screen; its `display` is the DISPLAY to give to the host or the CLI. */
  readonly screen: VirtualDisplay;
  /** The target page in the kiosk window. */
  readonly page: Page;
  /** The target page's address. */
  readonly url: string;
  /** The environment of this process with DISPLAY set to the screen, for a child that acts on it (xdotool, xsel). */
  displayEnv(): NodeJS.ProcessEnv;
}

export function useDesktopTarget(): DesktopTarget {
  const state: Partial<{ screen: VirtualDisplay; server: StaticServer; browser: Browser; page: Page; profile: string }> = {};
  const need = <K extends keyof typeof state>(key: K): NonNullable<(typeof state)[K]> => {
    const value = state[key];
    if (value === undefined) throw new Error(`The desktop target has no ${key} yet: read it inside a test or hook, after beforeAll`);
    return value;
  };

  beforeAll(async () => {
    const [screen, server, profile] = await Promise.all([
      startVirtualDisplay({ width: 1280, height: 800, reuse: false }),
      serveRoutes({ '/': TARGET_PAGE }),
      mkdtemp(join(tmpdir(), 'deputy-desktop-target-')),
    ]);
    Object.assign(state, { screen, server, profile });
    state.browser = await puppeteer.launch({
      executablePath: findBrowser(),
      headless: false,
      userDataDir: profile,
      pipe: true,
      defaultViewport: null,
      env: { ...process.env, DISPLAY: screen.display },
      args: [...testBrowserArgs(), '--kiosk', '--window-position=0,0', '--window-size=1280,800', '--test-type'],
    });
    const page = (await state.browser.pages())[0] ?? (await state.browser.newPage());
    state.page = page;
    await page.goto(server.url('/'));
    await page.bringToFront();
  });

  afterAll(async () => {
    await state.browser?.close();
    await state.server?.close();
    await state.screen?.close();
    if (state.profile) await rm(state.profile, { recursive: true, force: true });
  });

  return {
    get screen() {
      return need('screen');
    },
    get page() {
      return need('page');
    },
    get url() {
      return need('server').url('/');
    },
    displayEnv: () => ({ ...process.env, DISPLAY: need('screen').display }),
  };
}

/** The last screenshot a desktop run sent to the model, as base64 JPEG. */
export function lastImage(request: RecordedRequest): string {
  const last = (request.text.match(/data:image\/jpeg;base64,([A-Za-z0-9+/=]+)/g) ?? []).at(-1);
  if (!last) throw new Error('The model was sent no screenshot');
  return last.replace('data:image/jpeg;base64,', '');
}
