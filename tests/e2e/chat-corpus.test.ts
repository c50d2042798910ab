import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDirectory, type DirectoryServer } from '../../scripts/bench/serve-directory';
import { needShared } from '../support/shared-dir';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

/** Real pages nobody here wrote (see corpus/README.md in the shared folder): two hold a chat, the rest must not pass for one. */
const corpus = needShared('corpus/pages');
const CORPUS = corpus.path;
const WITH_CHAT = ['adminlte-chat', 'adminlte-dashboard'];

describe.skipIf(corpus.missing !== null)(corpus.title('chat detection on the real-page corpus'), () => {
  // DEPUTY_EXTENSION_DIR runs the file against another build of the extension than dist/ (the fixture reads it).
  const e2e = useE2e();
  let server: DirectoryServer;
  let panel: Page;
  const pages = existsSync(CORPUS) ? readdirSync(CORPUS).filter((name) => existsSync(resolve(CORPUS, name, 'index.html'))) : [];

  beforeAll(async () => {
    if (pages.length === 0) throw new Error(`The real-page corpus at ${CORPUS} holds no pages (expected <name>/index.html folders)`);
    server = await serveDirectory({ '/corpus/': CORPUS });
    panel = await e2e.helper();
  });

  afterAll(async () => {
    await server?.close();
  });

  async function openTab(name: string): Promise<{ page: Page; tabId: number }> {
    const page = await e2e.ext.browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    const url = server.url(`/corpus/${name}/index.html`);
    await page.goto(url, { waitUntil: 'load' });
    await page.bringToFront();
    const tabs = await panel.evaluate(() => chrome.tabs.query({}));
    const tab = tabs.find((candidate) => candidate.url === url);
    if (tab?.id === undefined) throw new Error(`No tab shows ${url}`);
    return { page, tabId: tab.id };
  }

  it('has the pages it expects', () => {
    expect(pages).toEqual(expect.arrayContaining([...WITH_CHAT, 'reddit-post', 'breitbart', 'apg-combobox-datepicker', 'adminlte-forms']));
  });

  it.each(pages.filter((name) => !WITH_CHAT.includes(name)))('finds no chat on %s, and says what it checked', async (name) => {
    const { page, tabId } = await openTab(name);
    const detection = await uiCall(panel, 'chat.detect', { tabId });
    expect(detection.found).toBe(false);
    expect(detection.summary).toMatch(/^No chat widget found on this page: checked \d+ frames? for 17 vendors/);
    await page.close();
  });

  it('reads the AdminLTE chat page by its structure: authors, text and shown times', async () => {
    const { page, tabId } = await openTab('adminlte-chat');
    const detection = await uiCall(panel, 'chat.detect', { tabId });
    expect(detection).toMatchObject({ found: true, vendor: 'generic', frameId: 0 });
    const state = await uiCall(panel, 'chat.read', { tabId });
    expect(state.messages.slice(0, 3).map((message) => [message.author, message.text, message.time])).toEqual([
      ['them', 'Hey Jane! Did you get a chance to look at the v2.4 candidate?', '10:38 AM'],
      ['us', 'Just finished going through it. Overall really solid — the new motion primitives are great.', '10:40 AM'],
      ['them', 'Glad you like them. Any concerns?', '10:40 AM'],
    ]);
    expect(state.composer.found).toBe(true);
    await page.close();
  });

  it('finds the direct-chat card on the AdminLTE dashboard', async () => {
    const { page, tabId } = await openTab('adminlte-dashboard');
    const detection = await uiCall(panel, 'chat.detect', { tabId });
    expect(detection).toMatchObject({ found: true, vendor: 'generic', frameId: 0 });
    const state = await uiCall(panel, 'chat.read', { tabId });
    expect(state.messages.length).toBeGreaterThanOrEqual(2);
    await page.close();
  });
});
