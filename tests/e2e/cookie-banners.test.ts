import { build } from 'esbuild';
import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentApplied, ConsentChoice } from '../../extension/platform/consent-in-page';
import { ARTICLE_TEXT, BANNER_TEXT, CONSENT_FIXTURES, consentPage, sourcepointMessage, sourcepointPage } from '../fixtures/pages/consent-managers';
import { useE2e } from './support/e2e-fixture';
import { call, lastMessage } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

// Cookie banners answered outside the model: each common consent manager's banner, in the shape the real one has, is
// answered through the manager's API or its own button, as the user's setting says, before the model reads the page;
// the model never sees the banner, and the task's step list says what was chosen.

const e2e = useE2e({
  model: 'act',
  routes: (url) => ({
    ...Object.fromEntries(Object.keys(CONSENT_FIXTURES).map((key) => [`/${key}`, consentPage(key)])),
    '/sourcepoint': sourcepointPage(url('/sp-message', 'cmp.test')),
    '/sp-message': sourcepointMessage(),
    '/more': '<!doctype html><title>More</title><p>More stories</p>',
  }),
});

let inPage = '';
beforeAll(async () => {
  // The function the extension injects into the page's world, bundled as it is, so the matrix below runs the same code.
  const out = await build({
    stdin: { contents: "import { applyConsentInPage } from './extension/platform/consent-in-page'; globalThis.deputyApplyConsent = applyConsentInPage;", resolveDir: resolve('.'), loader: 'ts' },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  inPage = out.outputFiles[0]?.text ?? '';
});
afterEach(() => {
  e2e.fake.drop();
});

async function openNews(path: string): Promise<Page> {
  const page = await e2e.ext.browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(e2e.site.url(path, 'news.test'), { waitUntil: 'load' });
  return page;
}

const consentLog = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __consentLog?: string[] }).__consentLog ?? []);
const bannerText = (page: Page): Promise<boolean> => page.evaluate((text) => document.body.innerText.includes(text) || (document.getElementById('usercentrics-root')?.shadowRoot?.textContent ?? '').includes(text), BANNER_TEXT);

describe('every consent manager is answered as the user chose', () => {
  for (const [key, fixture] of Object.entries(CONSENT_FIXTURES)) {
    for (const choice of ['reject', 'accept'] as ConsentChoice[]) {
      it(`${fixture.manager}: ${choice} through its ${fixture.method === 'api' ? 'API' : 'own button'}`, async () => {
        const page = await openNews(`/${key}`);
        try {
          expect(await bannerText(page)).toBe(true);
          await page.evaluate(inPage);
          const applied = await page.evaluate((c) => (globalThis as unknown as { deputyApplyConsent(choice: string): ConsentApplied | null }).deputyApplyConsent(c), choice);
          expect(applied).toEqual({ manager: fixture.manager, method: fixture.method, choice, ...(fixture.tcfCmpId ? { tcfCmpId: fixture.tcfCmpId } : {}) });
          expect(await consentLog(page)).toContain(fixture.logs[choice]);
          // Answered once per page: a second look does nothing more.
          expect(await page.evaluate(() => (globalThis as unknown as { deputyApplyConsent(choice: string): unknown }).deputyApplyConsent('accept'))).toBeNull();
        } finally {
          await page.close();
        }
      });
    }
  }

  it('a page without a banner, or whose manager has no banner on the screen (chosen before), is left alone', async () => {
    const page = await openNews('/more');
    try {
      await page.evaluate(inPage);
      expect(await page.evaluate(() => (globalThis as unknown as { deputyApplyConsent(choice: string): unknown }).deputyApplyConsent('reject'))).toBeNull();
      await page.goto(e2e.site.url('/onetrust', 'news.test'), { waitUntil: 'load' });
      await page.evaluate(() => document.getElementById('onetrust-banner-sdk')?.remove());
      await page.evaluate(inPage);
      expect(await page.evaluate(() => (globalThis as unknown as { deputyApplyConsent(choice: string): unknown }).deputyApplyConsent('reject'))).toBeNull();
      expect(await consentLog(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

async function runTask(tabId: number) {
  const helper = await e2e.helper();
  const started = await uiCall(helper, 'task.start', { tabId, text: 'What is the top story?', mode: 'act', flow: 'task' });
  return waitUntil('the task to end', async () => {
    const record = await uiCall(helper, 'task.get', { taskId: started.id });
    return record && ['completed', 'failed', 'stopped', 'handed_to_user'].includes(record.status) ? record : null;
  });
}

describe('in a task, before the model reads the page', () => {
  const answer = (): void => e2e.fake.enqueue(() => call('done', { success: true, summary: 'The river rose again.' }));

  it('rejects by default through the manager\'s API: the model never sees the banner, and the step list says what was chosen', async () => {
    const { page, tabId } = await e2e.newTab(e2e.site.url('/onetrust', 'news.test'));
    const before = e2e.fake.requests.length;
    answer();
    const record = await runTask(tabId);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    const seen = lastMessage(e2e.fake.requests[before] ?? e2e.fake.requests.at(-1)!);
    expect(seen).toContain(ARTICLE_TEXT);
    expect(seen).not.toContain(BANNER_TEXT);
    expect(seen).not.toMatch(/Reject All|Accept All Cookies/);
    expect(await consentLog(page)).toEqual(['OneTrust.RejectAll']);
    expect(record.notes?.map((n) => n.text)).toContain("Cookie banner (OneTrust): rejected all but essential cookies, through OneTrust's own consent API, as set in Settings.");
    await page.close();
  });

  it('answers a banner in a frame of another site (Sourcepoint) with its own reject button', async () => {
    const { page, tabId } = await e2e.newTab(e2e.site.url('/sourcepoint', 'news.test'));
    await waitUntil('the Sourcepoint frame', () => page.frames().some((f) => f.url().includes('cmp.test')));
    const before = e2e.fake.requests.length;
    answer();
    const record = await runTask(tabId);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    const seen = lastMessage(e2e.fake.requests[before] ?? e2e.fake.requests.at(-1)!);
    expect(seen).toContain(ARTICLE_TEXT);
    expect(seen).not.toContain(BANNER_TEXT);
    expect(await consentLog(page)).toEqual(['sourcepoint:reject']);
    expect(record.notes?.map((n) => n.text)).toContain("Cookie banner (Sourcepoint): rejected all but essential cookies, with Sourcepoint's own reject button, as set in Settings.");
    await page.close();
  });

  it('accepts when Settings say so, and leaves the banner to the task when Settings say that', async () => {
    const helper = await e2e.helper();
    try {
      await uiCall(helper, 'settings.set', { cookieBanners: 'accept' });
      const first = await e2e.newTab(e2e.site.url('/cookiebot', 'news.test'));
      answer();
      const accepted = await runTask(first.tabId);
      expect(await consentLog(first.page)).toEqual(['Cookiebot.submitCustomConsent:true,true,true']);
      expect(accepted.notes?.map((n) => n.text)).toContain("Cookie banner (Cookiebot): accepted all cookies, through Cookiebot's own consent API, as set in Settings.");
      await first.page.close();

      await uiCall(helper, 'settings.set', { cookieBanners: 'leave' });
      const second = await e2e.newTab(e2e.site.url('/didomi', 'news.test'));
      const before = e2e.fake.requests.length;
      answer();
      const left = await runTask(second.tabId);
      expect(lastMessage(e2e.fake.requests[before] ?? e2e.fake.requests.at(-1)!)).toContain(BANNER_TEXT);
      expect(await consentLog(second.page)).toEqual([]);
      expect(left.notes ?? []).toEqual([]);
      await second.page.close();
    } finally {
      await uiCall(helper, 'settings.set', { cookieBanners: 'reject' });
    }
  });
});
