import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { POPUP, openPanel, screenshotBothSchemes, tabIdOf, texts } from './support/panel-harness';
import { call, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

/** Every click on the button adds one to the count: the page itself counts the actions taken on it. */
const COUNTER = `<!doctype html><title>Counter</title><h1>Counter</h1>
  <button onclick="const c = document.getElementById('count'); c.textContent = String(Number(c.textContent) + 1)">Add one</button>
  <p>Count: <output id="count">0</output></p>`;

const e2e = useE2e({ routes: { '/': COUNTER }, model: true });

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1200; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out waiting until ${what}`);
}

const countOn = (page: Page): Promise<string | null> => page.$eval('#count', (element) => element.textContent);
const stepStates = (page: Page): Promise<(string | null)[]> => page.$$eval('[data-testid=step]', (items) => items.map((item) => item.getAttribute('data-state')));
const focused = (page: Page): Promise<string | null> =>
  page.evaluate('document.activeElement && [document.activeElement.getAttribute("data-testid"), document.activeElement.getAttribute("data-action")].join(":")') as Promise<string | null>;

describe('a long task in the panel', () => {
  it('holds before the next action while paused, and resumes the same step to the end without repeating one', async () => {
    const target = await e2e.ext.browser.newPage();
    await target.goto(e2e.site.url('/'), { waitUntil: 'load' });
    const helper = await e2e.ext.openExtensionPage('extension/sidepanel/index.html');
    const tabId = await tabIdOf(helper, e2e.site.url('/'));
    await uiCall(helper, 'settings.set', { provider: { preset: 'custom', baseUrl: e2e.fake.openaiBaseUrl, model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 }, defaultMode: 'act' });
    await helper.close();
    const panel = await openPanel(e2e.ext, tabId);
    await panel.waitForSelector('[data-testid=task-input]');

    let release: () => void = () => undefined;
    const thinking = new Promise<void>((resolve) => (release = resolve));
    const sent = e2e.fake.requests.length;
    e2e.fake.enqueue(
      call('update_plan', { explanation: 'Two clicks.', steps: [{ step: 'Add one', status: 'in_progress' }, { step: 'Add another one', status: 'pending' }] }),
      (r) => call('click', { ref: refIn(r, 'button', /^Add one$/) }),
      // The model is still answering this one when the user presses Pause.
      (r) => ({ ...call('click', { ref: refIn(r, 'button', /^Add one$/) }), text: 'The count is 1: one more click.', holdUntil: thinking }),
      call('done', { success: true, summary: 'The count is 2.' }),
    );
    await panel.click('[data-testid=task-input]');
    await panel.keyboard.type('Add one, twice');
    await panel.keyboard.press('Enter');
    await until(() => e2e.fake.requests.length === sent + 3, 'the model is asked for the third step');
    expect(await countOn(target)).toBe('1');

    // While the model writes its answer, the panel says it is thinking, for how long, and what it has written so
    // far, before the step is saved.
    await panel.waitForSelector('[data-testid=thinking-live] [data-testid=thinking-elapsed]');
    await panel.waitForFunction('document.querySelector("[data-testid=thinking-live-text]")?.textContent === "The count is 1: one more click."');
    // The words are in the thread as they stream, not folded away.
    expect(await panel.$('[data-testid=thinking-live] details')).toBeNull();
    expect(await stepStates(panel)).toEqual(['ok', 'ok']);
    expect(await screenshotBothSchemes(panel, 'panel-task-thinking')).toEqual([]);

    // Pause by keyboard: the button takes the focus and Enter presses it.
    await panel.waitForSelector('[data-testid=pause-task][data-action=pause]');
    await panel.focus('[data-testid=pause-task]');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('[data-testid=pause-task][data-action=resume]');
    expect(await panel.$eval('[data-testid=task-status]', (element) => element.textContent)).toBe('Pausing');
    // The model's answer arrives while pausing: the task holds before acting on it.
    release();
    await panel.waitForSelector('[data-testid=task-progress][data-status=paused]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=task-status]', (element) => element.textContent)).toBe('Paused');
    expect(await panel.$('[data-testid=thinking-live]')).toBeNull();
    expect(await stepStates(panel)).toEqual(['ok', 'ok', 'paused']);
    expect((await texts(panel, '[data-testid=step-text]')).at(-1)).toBe('Click button "Add one"');
    expect((await texts(panel, '[data-testid=step-check]')).at(-1)).toBe('paused: it runs when you resume');
    expect((await texts(panel, '[data-testid=step] .step__mark')).at(-1)).toBe('‖');
    expect(await countOn(target)).toBe('1');
    expect(e2e.fake.requests.length).toBe(sent + 3);
    const record = (await uiCall(panel, 'task.list', { tabId, limit: 1 }))[0];
    expect(record).toMatchObject({ status: 'paused', pauseRequested: true });
    expect(record?.agent?.steps.at(-1)?.calls.map((c) => c.status)).toEqual(['proposed']);
    expect(await screenshotBothSchemes(panel, 'panel-task-paused')).toEqual([]);

    // The popup follows the same task and offers the same Resume.
    const popup = await openPanel(e2e.ext, tabId, POPUP);
    await popup.waitForSelector('[data-testid=popup] [data-testid=task-progress][data-status=paused] [data-testid=pause-task][data-action=resume]');
    expect(await screenshotBothSchemes(popup, 'popup-task-paused')).toEqual([]);
    await popup.close();
    expect(await countOn(target)).toBe('1');
    expect(e2e.fake.requests.length).toBe(sent + 3);

    // Resume by keyboard from the same button, still focused.
    await panel.bringToFront();
    expect(await focused(panel)).toBe('pause-task:resume');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(await countOn(target)).toBe('2');
    expect(e2e.fake.requests.length).toBe(sent + 4);
    expect(e2e.fake.remaining()).toBe(0);
    expect(await stepStates(panel)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(await panel.$eval('[data-testid=task-outcome]', (element) => element.textContent)).toBe('The count is 2.');
    expect(await panel.$('[data-testid=pause-task]')).toBeNull();
    await panel.close();
    await target.close();
  });
});
