import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDemoSite, type DemoSite } from '../../scripts/demo/serve-demo-site';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider/fake-provider-server';
import { seriousViolations } from './support/axe-check';
import { openPanelOn, screenshotBothSchemes, texts } from './support/panel-harness';
import { requireBuild } from './support/register-host';
import { call } from './support/snapshot-refs';
import { launchTestBrowser } from './support/test-hosts';
import { uiCall } from './support/ui-call';

/** A new user: a fresh profile with no model, no host installed, and a shop open in a tab. */
let ext: ExtensionBrowser;
let fake: FakeProvider;
let shop: DemoSite;
let panel: Page;

beforeAll(async () => {
  requireBuild();
  shop = await serveDemoSite();
  fake = await startFakeProvider();
  ext = await launchTestBrowser();
  await ext.worker();
  ({ panel } = await openPanelOn(ext, shop.url));
});
afterAll(async () => {
  await ext?.close();
  await fake?.close();
  await shop?.close();
});

const focusedId = (page: Page): Promise<string | undefined> => page.evaluate(() => document.activeElement?.id);

describe('the first run leads to a working first task', () => {
  it('shows the connect card first, and nothing about the host, which web tasks do not need', async () => {
    await panel.waitForSelector('[data-testid=connect-model]', { timeout: 20_000 });
    expect(await panel.$('[data-testid=host-status]')).toBeNull();
    expect(await panel.$eval('[data-testid=connect-preset-openai]', (input) => (input as HTMLInputElement).checked)).toBe(true);
    expect(await panel.$eval('[data-testid=connect-model-name]', (input) => (input as HTMLInputElement).value)).toBe('gpt-4o-mini');
    expect(await texts(panel, '[data-testid=example-task]')).toContain('Summarize this page in three bullet points');
    expect(await screenshotBothSchemes(panel, 'panel-first-run')).toEqual([]);
    expect(await seriousViolations(panel, 'first run')).toEqual([]);
  });

  it('says in its own words that a model is needed when a task is run anyway, with a way to Settings', async () => {
    await panel.click('[data-testid=task-input]');
    await panel.keyboard.type('Find the cheapest earphones');
    await panel.keyboard.press('Enter');
    await panel.waitForFunction(() => document.querySelector('[data-testid=composer-error]')?.textContent !== '');
    expect(await panel.$eval('[data-testid=composer-error]', (element) => element.textContent)).toBe('Connect a model first: choose a provider in Settings.');
    await panel.click('[data-testid=open-settings]');
    await panel.waitForSelector('[data-testid=settings]');
    expect(await panel.$eval('[role=tab][aria-selected=true]', (tab) => tab.textContent)).toBe('Settings');
    await panel.click('[data-testid=flow-task]');
    await panel.waitForSelector('[data-testid=connect-model]');
    await panel.$eval('[data-testid=task-input]', (box) => ((box as HTMLTextAreaElement).value = ''));
  });

  it('marks what is missing next to the field, moves the focus there, and clears the message as the user types', async () => {
    // OpenAI needs a key: saving without one says so under the key, and nothing is saved.
    await panel.click('[data-testid=connect-save]');
    await panel.waitForSelector('[data-testid=connect-apiKey-error]');
    expect(await panel.$eval('[data-testid=connect-apiKey-error]', (element) => element.textContent)).toMatch(/^Paste your OpenAI API key\. Create a key at platform\.openai\.com/);
    expect(await focusedId(panel)).toBe('connect-apiKey');
    expect(await panel.$eval('#connect-apiKey', (input) => [input.getAttribute('aria-invalid'), input.getAttribute('aria-describedby')])).toEqual(['true', 'connect-apiKey-error connect-apiKey-hint']);
    expect((await uiCall(panel, 'settings.get', {})).provider).toBeNull();

    // A server of one's own: the address is asked for, and checked.
    await panel.click('[data-testid=connect-preset-custom]');
    expect(await panel.$('[data-testid=connect-apiKey-error]')).toBeNull();
    await panel.click('[data-testid=connect-model-name]');
    await panel.keyboard.type('gpt-4o-mini');
    await panel.click('[data-testid=connect-save]');
    await panel.waitForSelector('[data-testid=connect-baseUrl-error]');
    expect(await focusedId(panel)).toBe('connect-baseUrl');
    await panel.keyboard.type('h');
    expect(await panel.$('[data-testid=connect-baseUrl-error]')).toBeNull();
    expect(await panel.$eval('#connect-baseUrl', (input) => input.getAttribute('aria-invalid'))).toBeNull();
    await panel.keyboard.type(fake.openaiBaseUrl.slice(1));
  });

  it('tests the connection in the panel, saves it, and runs an example task for the page', async () => {
    fake.enqueue({ text: 'OK' });
    await panel.click('[data-testid=connect-test]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=connect-result]')?.textContent !== '');
    expect(await panel.$eval('[data-testid=connect-result]', (element) => [element.textContent, element.className])).toEqual([expect.stringMatching(/^Connected: gpt-4o-mini answered in \d+ ms\.$/), expect.stringContaining('result--ok')]);
    await panel.click('[data-testid=connect-save]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=connect-model]') === null);
    expect((await uiCall(panel, 'settings.get', {})).provider).toMatchObject({ preset: 'custom', baseUrl: fake.openaiBaseUrl, model: 'gpt-4o-mini' });

    fake.enqueue(call('done', { success: true, summary: 'A shop selling earphones and headphones.' }));
    const examples = await panel.$$('[data-testid=example-task]');
    await examples[0]?.click();
    await panel.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('[data-testid=task-input]')?.value === 'Summarize this page in three bullet points');
    await panel.click('[data-testid=run-task]');
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=task-outcome]', (element) => element.textContent)).toBe('A shop selling earphones and headphones.');
    expect(fake.requests.at(-1)?.text).toContain('Summarize this page in three bullet points');
  });
});
