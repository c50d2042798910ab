import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe-check';
import { openDevTool, screenshotBothSchemes, texts } from './support/panel-harness';
import { call } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

/** A new user: a fresh profile with no model, no host installed, and a shop open in a tab. */
const e2e = useE2e({ demo: true, model: true, panel: true });

const focusedId = (page: Page): Promise<string | undefined> => page.evaluate(() => document.activeElement?.id);

describe('the first run leads to a working first task', () => {
  it('shows the connect card first, and nothing about the host, which web tasks do not need', async () => {
    await e2e.panel.waitForSelector('[data-testid=connect-model]', { timeout: 60_000 });
    expect(await e2e.panel.$('[data-testid=host-status]')).toBeNull();
    expect(await e2e.panel.$eval('[data-testid=connect-preset-openai]', (input) => (input as HTMLInputElement).checked)).toBe(true);
    expect(await e2e.panel.$eval('[data-testid=connect-model-name]', (input) => (input as HTMLInputElement).value)).toBe('gpt-4o-mini');
    expect(await texts(e2e.panel, '[data-testid=example-task]')).toContain('Summarize this page in three bullet points');
    expect(await screenshotBothSchemes(e2e.panel, 'panel-first-run')).toEqual([]);
    expect(await seriousViolations(e2e.panel, 'first run')).toEqual([]);
    // A support chat needs a model too: the same card leads there.
    await e2e.panel.click('[data-testid=flow-chat]');
    await e2e.panel.waitForSelector('[data-testid=chat-flow] [data-testid=connect-model]');
    // So do desktop and shell runs (the host uses the same model); there the host's status shows too.
    await openDevTool(e2e.panel, 'desktop');
    await e2e.panel.waitForSelector('[data-testid=desktop-flow] [data-testid=connect-model]');
    expect(await e2e.panel.$('[data-testid=desktop-flow] [data-testid=host-install]')).not.toBeNull();
    await e2e.panel.click('[data-testid=flow-task]');
    await e2e.panel.waitForSelector('[data-testid=task-flow] [data-testid=connect-model]');
  });

  it('says in its own words that a model is needed when a task is run anyway, with a way to Settings', async () => {
    await e2e.panel.click('[data-testid=task-input]');
    await e2e.panel.keyboard.type('Find the cheapest earphones');
    await e2e.panel.keyboard.press('Enter');
    await e2e.panel.waitForFunction(() => document.querySelector('[data-testid=composer-error]')?.textContent !== '');
    expect(await e2e.panel.$eval('[data-testid=composer-error]', (element) => element.textContent)).toBe('Connect a model first: choose a provider in Settings.');
    await e2e.panel.click('[data-testid=open-settings]');
    await e2e.panel.waitForSelector('[data-testid=settings]');
    expect(await e2e.panel.$eval('[role=tab][aria-selected=true]', (tab) => tab.textContent)).toBe('Settings');
    await e2e.panel.click('[data-testid=flow-task]');
    await e2e.panel.waitForSelector('[data-testid=connect-model]');
    await e2e.panel.$eval('[data-testid=task-input]', (box) => ((box as HTMLTextAreaElement).value = ''));
  });

  it('marks what is missing next to the field, moves the focus there, and clears the message as the user types', async () => {
    // OpenAI needs a key: saving without one says so under the key, and nothing is saved.
    await e2e.panel.click('[data-testid=connect-save]');
    await e2e.panel.waitForSelector('[data-testid=connect-apiKey-error]');
    expect(await e2e.panel.$eval('[data-testid=connect-apiKey-error]', (element) => element.textContent)).toMatch(/^Paste your OpenAI API key\. Create a key at platform\.openai\.com/);
    expect(await focusedId(e2e.panel)).toBe('connect-apiKey');
    expect(await e2e.panel.$eval('#connect-apiKey', (input) => [input.getAttribute('aria-invalid'), input.getAttribute('aria-describedby')])).toEqual(['true', 'connect-apiKey-error connect-apiKey-hint']);
    expect((await uiCall(e2e.panel, 'settings.get', {})).provider).toBeNull();

    // A server of one's own: the address is asked for, and checked.
    await e2e.panel.click('[data-testid=connect-preset-custom]');
    expect(await e2e.panel.$('[data-testid=connect-apiKey-error]')).toBeNull();
    await e2e.panel.click('[data-testid=connect-model-name]');
    await e2e.panel.keyboard.type('gpt-4o-mini');
    await e2e.panel.click('[data-testid=connect-save]');
    await e2e.panel.waitForSelector('[data-testid=connect-baseUrl-error]');
    expect(await focusedId(e2e.panel)).toBe('connect-baseUrl');
    await e2e.panel.keyboard.type('h');
    expect(await e2e.panel.$('[data-testid=connect-baseUrl-error]')).toBeNull();
    expect(await e2e.panel.$eval('#connect-baseUrl', (input) => input.getAttribute('aria-invalid'))).toBeNull();
    await e2e.panel.keyboard.type(e2e.fake.openaiBaseUrl.slice(1));
  });

  it('tests the connection in the panel, saves it, and runs an example task for the page', async () => {
    e2e.fake.enqueue({ text: 'OK' });
    await e2e.panel.click('[data-testid=connect-test]');
    await e2e.panel.waitForFunction(() => document.querySelector('[data-testid=connect-result]')?.textContent !== '');
    expect(await e2e.panel.$eval('[data-testid=connect-result]', (element) => [element.textContent, element.className])).toEqual([expect.stringMatching(/^Connected: gpt-4o-mini answered in \d+ ms\.$/), expect.stringContaining('result--ok')]);
    await e2e.panel.click('[data-testid=connect-save]');
    await e2e.panel.waitForFunction(() => document.querySelector('[data-testid=connect-model]') === null);
    expect((await uiCall(e2e.panel, 'settings.get', {})).provider).toMatchObject({ preset: 'custom', baseUrl: e2e.fake.openaiBaseUrl, model: 'gpt-4o-mini' });

    e2e.fake.enqueue(call('done', { success: true, summary: 'A shop selling earphones and headphones.' }));
    const examples = await e2e.panel.$$('[data-testid=example-task]');
    await examples[0]?.click();
    await e2e.panel.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('[data-testid=task-input]')?.value === 'Summarize this page in three bullet points');
    await e2e.panel.click('[data-testid=run-task]');
    await e2e.panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(await e2e.panel.$eval('[data-testid=task-outcome]', (element) => element.textContent)).toBe('A shop selling earphones and headphones.');
    expect(e2e.fake.requests.at(-1)?.text).toContain('Summarize this page in three bullet points');
  });
});
