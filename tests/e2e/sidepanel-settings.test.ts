import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { PANEL_WIDTH, screenshotBothSchemes } from './support/panel-harness';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

const KEY = 'sk-test-SECRET-4242';

const e2e = useE2e({ model: true });
let panel: Page;

async function openSettings(): Promise<Page> {
  const page = await e2e.ext.openExtensionPage('extension/sidepanel/index.html');
  await page.setViewport({ width: PANEL_WIDTH, height: 800 });
  await page.click('[data-testid=flow-settings]');
  await page.waitForSelector('[data-testid=settings]');
  return page;
}

async function replaceText(page: Page, selector: string, text: string): Promise<void> {
  await page.focus(selector);
  await page.$eval(selector, (field) => (field as HTMLInputElement | HTMLTextAreaElement).select());
  await page.keyboard.press('Backspace');
  if (text) await page.type(selector, text);
}

function text(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (element) => element.textContent ?? '');
}

describe('settings in the side panel', () => {
  it('refuses bad input with a message per field, and saves nothing', async () => {
    panel = await openSettings();
    await panel.select('[data-testid=provider]', 'openai');
    await panel.waitForSelector('[data-testid=model]');
    await replaceText(panel, '[data-testid=step-budget]', '0');
    await replaceText(panel, '[data-testid=allowed-sites]', 'shop.test\nnot a site');
    await panel.click('[data-testid=save-settings]');
    await panel.waitForSelector('[data-testid=error-model]');
    expect(await text(panel, '[data-testid=error-model]')).toBe('Enter a model name, e.g. gpt-4o-mini.');
    expect(await text(panel, '[data-testid=error-api-key]')).toBe('Enter your OpenAI API key.');
    expect(await text(panel, '[data-testid=error-step-budget]')).toBe('The step budget is a whole number from 1 to 200.');
    expect(await text(panel, '[data-testid=error-allowed-sites]')).toMatch(/^Not a site: not a site\./);
    expect(await text(panel, '[data-testid=settings-notice]')).toBe('Some settings need fixing: see the marked fields.');
    expect(await screenshotBothSchemes(panel, 'panel-settings-errors')).toEqual([]);
    const stored = await uiCall(panel, 'settings.get', {});
    expect(stored.provider).toBeNull();
    expect(stored.stepBudget).toBe(30);
    // Each invalid field is marked and names its message; Save took the focus to the first one.
    await panel.waitForFunction(() => document.activeElement?.id === 'model');
    expect(await panel.$eval('#model', (input) => [input.getAttribute('aria-invalid'), input.getAttribute('aria-describedby')])).toEqual(['true', 'model-error']);
    expect(await panel.$eval('#step-budget', (input) => [input.getAttribute('aria-invalid'), input.getAttribute('aria-describedby')])).toEqual(['true', 'step-budget-error step-budget-hint']);
    // Fields are checked again as the user types: a fixed field loses its mark and message at once, the others keep theirs.
    await replaceText(panel, '[data-testid=step-budget]', '25');
    await panel.waitForFunction(() => document.querySelector('[data-testid=error-step-budget]') === null);
    expect(await panel.$eval('#step-budget', (input) => input.getAttribute('aria-invalid'))).toBeNull();
    expect(await panel.$('[data-testid=error-model]')).not.toBeNull();
    await replaceText(panel, '[data-testid=step-budget]', '');
    await panel.waitForSelector('[data-testid=error-step-budget]');
    await replaceText(panel, '[data-testid=step-budget]', '30');
    await replaceText(panel, '[data-testid=allowed-sites]', 'shop.test');
    await panel.waitForFunction(() => document.querySelector('[data-testid=error-allowed-sites]') === null);
  });

  it('keeps the theme chosen in Settings whatever the system prefers, and System follows it again', async () => {
    const page = await openSettings();
    const background = (): Promise<string> => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await page.select('[data-testid=theme]', 'dark');
    await page.click('[data-testid=save-settings]');
    await page.waitForFunction(() => document.documentElement.dataset['theme'] === 'dark');
    expect(await background()).toBe('rgb(17, 19, 24)');
    expect((await uiCall(page, 'settings.get', {})).theme).toBe('dark');
    // A panel opened later starts in the saved theme.
    const later = await openSettings();
    await later.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await later.waitForFunction(() => document.documentElement.dataset['theme'] === 'dark');
    expect(await later.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(17, 19, 24)');
    await later.close();
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await page.select('[data-testid=theme]', 'light');
    await page.click('[data-testid=save-settings]');
    await page.waitForFunction(() => document.documentElement.dataset['theme'] === 'light');
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.select('[data-testid=theme]', 'system');
    await page.click('[data-testid=save-settings]');
    await page.waitForFunction(() => document.documentElement.dataset['theme'] === undefined);
    expect(await background()).toBe('rgb(17, 19, 24)');
    await page.close();
  });

  it('saves a key without ever showing it back, and keeps it when other fields change', async () => {
    await replaceText(panel, '[data-testid=model]', 'gpt-4o-mini');
    await panel.type('[data-testid=api-key]', KEY);
    expect(await panel.$eval('[data-testid=api-key]', (input) => input.getAttribute('type'))).toBe('password');
    await replaceText(panel, '[data-testid=step-budget]', '25');
    await replaceText(panel, '[data-testid=allowed-sites]', 'shop.test');
    await panel.click('[data-testid=save-settings]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=settings-notice]')?.textContent === 'Settings saved.');
    expect(await panel.$eval('[data-testid=api-key]', (input) => (input as HTMLInputElement).value)).toBe('');
    expect(await panel.$eval('[data-testid=api-key]', (input) => input.getAttribute('placeholder'))).toMatch(/saved/);
    expect(await panel.content()).not.toContain(KEY);
    const stored = await uiCall(panel, 'settings.get', {});
    expect(stored).toMatchObject({ apiKeySet: true, stepBudget: 25, allowedSites: ['shop.test'], provider: { preset: 'openai', model: 'gpt-4o-mini', apiKey: '' } });

    // A reopened panel shows the key as saved, and saving another field keeps it.
    await panel.close();
    panel = await openSettings();
    expect(await panel.$eval('[data-testid=api-key]', (input) => (input as HTMLInputElement).value)).toBe('');
    await panel.click('[data-testid=redact-emails]');
    await panel.click('[data-testid=save-settings]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=settings-notice]')?.textContent === 'Settings saved.');
    expect(await uiCall(panel, 'settings.get', {})).toMatchObject({ apiKeySet: true, redactEmails: true });
    expect(await panel.content()).not.toContain(KEY);
  });

  it('tests the connection with a clear result, and never sends the saved key to another server', async () => {
    // A key typed for OpenAI is dropped with the switch, not carried to the new server.
    await panel.type('[data-testid=api-key]', KEY);
    await panel.select('[data-testid=provider]', 'compatible');
    await panel.waitForSelector('[data-testid=base-url]');
    await replaceText(panel, '[data-testid=base-url]', e2e.fake.openaiBaseUrl);
    await replaceText(panel, '[data-testid=model]', 'gpt-4o-mini');
    expect(await panel.$eval('[data-testid=api-key]', (input) => (input as HTMLInputElement).value)).toBe('');
    expect(await panel.$eval('[data-testid=settings]', (form) => form.textContent ?? '')).toContain('The saved key belongs to another provider and is not sent here.');
    e2e.fake.enqueue({ text: 'OK' });
    await panel.click('[data-testid=test-connection]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=test-result]')?.textContent !== '');
    expect(await text(panel, '[data-testid=test-result]')).toMatch(/^Connected: gpt-4o-mini answered in \d+ ms\.$/);
    expect(await panel.$eval('[data-testid=test-result]', (element) => element.className)).toContain('result--ok');
    const request = e2e.fake.requests.at(-1);
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.text).not.toContain(KEY);
    expect(JSON.stringify(request?.headers)).not.toContain(KEY);

    e2e.fake.enqueue({ error: { status: 401, message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
    await panel.click('[data-testid=test-connection]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=test-result]')?.className.includes('result--bad') === true);
    // In the panel's own words: no preset names, environment variables or flags.
    expect(await text(panel, '[data-testid=test-result]')).toBe('The model provider did not accept the API key. Check the key in Settings.');

    // The model options reach the wire: the Responses API with a reasoning effort.
    await panel.click('[data-testid=model-options] summary');
    await panel.select('[data-testid=openai-api]', 'responses');
    await panel.select('[data-testid=reasoning-effort]', 'high');
    e2e.fake.enqueue({ text: 'OK' });
    await panel.click('[data-testid=test-connection]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=test-result]')?.className.includes('result--ok') === true);
    expect(e2e.fake.requests.at(-1)?.path).toBe('/v1/responses');
    expect(e2e.fake.requests.at(-1)?.json).toMatchObject({ reasoning: { effort: 'high' } });

    await replaceText(panel, '[data-testid=base-url]', 'localhost:1234');
    await panel.click('[data-testid=save-settings]');
    await panel.waitForSelector('[data-testid=error-base-url]');
    expect(await text(panel, '[data-testid=error-base-url]')).toBe('The base URL must start with http:// or https://, e.g. http://localhost:1234/v1.');
    expect(await screenshotBothSchemes(panel, 'panel-settings')).toEqual([]);
    await panel.close();
  });
});
