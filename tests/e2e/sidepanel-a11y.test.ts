import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDemoSite, type DemoSite } from '../../scripts/demo/serve-demo-site';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider/fake-provider-server';
import { seriousViolations } from './support/axe-check';
import { openDevTool, openPanelOn, POPUP, texts } from './support/panel-harness';
import { requireBuild } from './support/register-host';
import { call, refIn } from './support/snapshot-refs';
import { launchTestBrowser } from './support/test-hosts';

let ext: ExtensionBrowser;
let fake: FakeProvider;
let shop: DemoSite;
let panel: Page;
let tabId: number;

const VIEWS = ['task', 'chat', 'history', 'settings', 'dev'];
const DEV_TOOLS = ['loop', 'desktop', 'shell'] as const;

beforeAll(async () => {
  requireBuild();
  shop = await serveDemoSite();
  fake = await startFakeProvider();
  ext = await launchTestBrowser();
  await ext.worker();
  ({ panel, tabId } = await openPanelOn(ext, shop.url, {
    provider: { preset: 'custom', baseUrl: fake.openaiBaseUrl, model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 },
    defaultMode: 'act',
  }));
});
afterAll(async () => {
  await ext?.close();
  await fake?.close();
  await shop?.close();
});

const focused = (page: Page): Promise<string | null | undefined> => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));

async function runInPanel(text: string): Promise<void> {
  await panel.click('[data-testid=task-input]');
  await panel.keyboard.type(text);
  await panel.keyboard.press('Enter');
  await panel.waitForSelector('[data-testid=task-progress]');
}

describe('the side panel meets WCAG AA', () => {
  it('has no serious or critical axe violation in any view, in light and dark', async () => {
    const problems: string[] = [];
    for (const view of VIEWS) {
      await panel.click(`[data-testid=flow-${view}]`);
      await panel.waitForSelector(`[role=tabpanel][aria-labelledby=view-tab-${view}]`);
      // Views that ask the host or storage settle first: their first answer is what a user reads.
      await new Promise((resolve) => setTimeout(resolve, 300));
      problems.push(...(await seriousViolations(panel, view)));
    }
    for (const tool of DEV_TOOLS) {
      await openDevTool(panel, tool);
      await panel.waitForSelector(`[role=tabpanel][aria-labelledby=view-tab-${tool}]`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      problems.push(...(await seriousViolations(panel, tool)));
    }
    const popup = await ext.browser.newPage();
    await popup.setViewport({ width: 360, height: 600 });
    await popup.goto(`chrome-extension://${ext.extensionId}/${POPUP}?tab=${tabId}`);
    await popup.waitForSelector('main');
    problems.push(...(await seriousViolations(popup, 'popup')));
    await popup.close();
    expect(problems).toEqual([]);
  });

  it('has no violation on a task: its plan card, approval card, question card and finished steps, in both themes', async () => {
    await panel.click('[data-testid=flow-task]');
    await panel.click('[data-testid=mode-ask]');
    fake.enqueue(
      call('update_plan', { explanation: 'Two steps.', steps: [{ step: 'Add the Pocket Buds to the cart', status: 'in_progress' }, { step: 'Ask about colour', status: 'pending' }] }),
      (r) => call('click', { ref: refIn(r, 'button', /^Add Pocket Buds/) }),
      call('ask_user', { question: 'Which colour?' }),
      call('navigate', { url: 'http://blocked.invalid/' }),
      call('done', { success: true, summary: 'Added; colour noted.' }),
    );
    await runInPanel('Add the Pocket Buds');
    const problems: string[] = [];
    await panel.waitForSelector('[data-testid=plan-approval-card]', { timeout: 60_000 });
    // The moment it waits, a screen reader hears it, without the focus being taken from elsewhere.
    expect(await panel.$eval('[data-testid=announce-attention]', (element) => [element.getAttribute('aria-live'), element.textContent])).toEqual(['assertive', 'Deputy needs your approval to start its plan.']);
    problems.push(...(await seriousViolations(panel, 'plan card')));
    await panel.click('[data-testid=plan-start]');
    await panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=announce-attention]', (element) => element.textContent)).toMatch(/^Deputy needs your approval: Click button "Add Pocket Buds/);
    problems.push(...(await seriousViolations(panel, 'approval card')));
    await panel.click('[data-testid=approve]');
    await panel.waitForSelector('[data-testid=question-card]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=announce-attention]', (element) => element.textContent)).toBe('Deputy asks: Which colour?');
    expect(await panel.$eval('[data-testid=announce-step]', (element) => [element.getAttribute('aria-live'), element.textContent])).toEqual(['polite', 'Step 3: Ask the user "Which colour?". waiting for your answer']);
    problems.push(...(await seriousViolations(panel, 'question card')));
    await panel.keyboard.type('Blue');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
    await panel.click('[data-testid=reject]');
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=announce-attention]', (element) => element.textContent)).toBe('');
    expect(await panel.$eval('[data-testid=announce-step]', (element) => element.textContent)).toBe('Step 5: Finished the task');
    // The steps' details open, as a user would look at them.
    await panel.$$eval('[data-testid=step-details]', (items) => items.forEach((item) => ((item as HTMLDetailsElement).open = true)));
    problems.push(...(await seriousViolations(panel, 'finished task')));
    expect(problems).toEqual([]);
    await panel.click('[data-testid=mode-act]');
  });

  it('gives input borders 3:1 against the page in both themes', async () => {
    await panel.click('[data-testid=flow-task]');
    for (const scheme of ['light', 'dark'] as const) {
      await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      const ratio = await panel.$eval('[data-testid=task-input]', (box) => {
        const rgb = (color: string): number[] => (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        const luminance = (color: string): number => {
          const [r = 0, g = 0, b = 0] = rgb(color).map((v) => {
            const c = v / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const border = luminance(getComputedStyle(box).borderTopColor);
        const page = luminance(getComputedStyle(document.body).backgroundColor);
        return (Math.max(border, page) + 0.05) / (Math.min(border, page) + 0.05);
      });
      expect(ratio, scheme).toBeGreaterThanOrEqual(3);
    }
    await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  });

  it('moves between views with the arrow keys, Home and End; each tab names its panel; the focus ring is drawn inside the tab', async () => {
    await panel.click('[data-testid=flow-task]');
    expect(await focused(panel)).toBe('flow-task');
    // One tab in the Tab order: the selected one.
    expect(await panel.$$eval('[role=tab]', (tabs) => tabs.map((tab) => tab.getAttribute('tabindex')))).toEqual(['0', '-1', '-1', '-1', '-1']);
    await panel.keyboard.press('ArrowRight');
    expect(await focused(panel)).toBe('flow-chat');
    expect(await panel.$eval('[data-testid=flow-chat]', (tab) => tab.getAttribute('aria-selected'))).toBe('true');
    expect(await panel.$eval('[role=tabpanel]', (element) => element.getAttribute('aria-labelledby'))).toBe('view-tab-chat');
    expect(await panel.$eval('[data-testid=flow-chat]', (tab) => tab.getAttribute('aria-controls'))).toBe(await panel.$eval('[role=tabpanel]', (element) => element.id));
    await panel.keyboard.press('End');
    expect(await focused(panel)).toBe('flow-dev');
    await panel.keyboard.press('ArrowRight');
    expect(await focused(panel)).toBe('flow-task');
    await panel.keyboard.press('ArrowLeft');
    expect(await focused(panel)).toBe('flow-dev');
    await panel.keyboard.press('Home');
    expect(await focused(panel)).toBe('flow-task');
    expect(await panel.$eval('[role=tabpanel]', (element) => element.getAttribute('aria-labelledby'))).toBe('view-tab-task');
    // The tab list scrolls sideways and clips what sticks out: the ring sits inside the focused tab.
    const ring = await panel.$eval('[data-testid=flow-task]', (tab) => {
      const style = getComputedStyle(tab);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth), offset: parseFloat(style.outlineOffset) };
    });
    expect(ring.style).toBe('solid');
    expect(ring.offset + ring.width).toBeLessThanOrEqual(0);
  });

  it('stops the running task with Esc, and registers a keyboard shortcut that opens the panel', async () => {
    await panel.click('[data-testid=flow-task]');
    const sent = fake.requests.length + 1;
    fake.enqueue({ hang: true });
    await runInPanel('Add the Pocket Buds to the cart');
    while (fake.requests.length < sent) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await panel.$eval('[data-testid=stop-task]', (button) => button.getAttribute('aria-keyshortcuts'))).toBe('Escape');
    await panel.keyboard.press('Escape');
    await panel.waitForSelector('[data-testid=task-progress][data-status=stopped]', { timeout: 60_000 });
    expect(fake.requests.length).toBe(sent);
    const commands = await panel.evaluate(() => chrome.commands.getAll());
    expect(commands.find((command) => command.name === '_execute_action')?.shortcut).toBe('Alt+Shift+D');
    expect(await texts(panel, '[data-testid=task-status]')).toEqual(['Stopped']);
  });
});
