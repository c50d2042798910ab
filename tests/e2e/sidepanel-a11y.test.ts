import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe-check';
import { openDevTool, POPUP, texts } from './support/panel-harness';
import { call, refIn } from './support/snapshot-refs';
import { useE2e } from './support/e2e-fixture';
import { waitForQuietDom } from './support/wait-until';

const e2e = useE2e({ demo: true, model: 'act', panel: true });

const VIEWS = ['task', 'chat', 'history', 'settings', 'dev'];
const DEV_TOOLS = ['loop', 'desktop', 'shell'] as const;

const focused = (page: Page): Promise<string | null | undefined> => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));

async function runInPanel(text: string): Promise<void> {
  await e2e.panel.click('[data-testid=task-input]');
  await e2e.panel.keyboard.type(text);
  await e2e.panel.keyboard.press('Enter');
  await e2e.panel.waitForSelector('[data-testid=task-progress]');
}

describe('the side panel meets WCAG AA', () => {
  it('has no serious or critical axe violation in any view, in light and dark', async () => {
    const problems: string[] = [];
    for (const view of VIEWS) {
      await e2e.panel.click(`[data-testid=flow-${view}]`);
      await e2e.panel.waitForSelector(`[role=tabpanel][aria-labelledby=view-tab-${view}]`);
      // Views that ask the host or storage settle first: their first answer is what a user reads.
      await waitForQuietDom(e2e.panel);
      problems.push(...(await seriousViolations(e2e.panel, view)));
    }
    for (const tool of DEV_TOOLS) {
      await openDevTool(e2e.panel, tool);
      await e2e.panel.waitForSelector(`[role=tabpanel][aria-labelledby=view-tab-${tool}]`);
      await waitForQuietDom(e2e.panel);
      problems.push(...(await seriousViolations(e2e.panel, tool)));
    }
    const popup = await e2e.ext.browser.newPage();
    await popup.setViewport({ width: 360, height: 600 });
    await popup.goto(`chrome-extension://${e2e.ext.extensionId}/${POPUP}?tab=${e2e.tabId}`);
    await popup.waitForSelector('main');
    problems.push(...(await seriousViolations(popup, 'popup')));
    await popup.close();
    expect(problems).toEqual([]);
  });

  it('has no violation on a task: its plan card, approval card, question card and finished steps, in both themes', async () => {
    await e2e.panel.click('[data-testid=flow-task]');
    await e2e.panel.click('[data-testid=mode-ask]');
    e2e.fake.enqueue(
      call('update_plan', { explanation: 'Two steps.', steps: [{ step: 'Add the Pocket Buds to the cart', status: 'in_progress' }, { step: 'Ask about colour', status: 'pending' }] }),
      (r) => call('click', { ref: refIn(r, 'button', /^Add Pocket Buds/) }),
      call('ask_user', { question: 'Which colour?' }),
      call('navigate', { url: 'http://blocked.invalid/' }),
      call('done', { success: true, summary: 'Added; colour noted.' }),
    );
    await runInPanel('Add the Pocket Buds');
    const problems: string[] = [];
    await e2e.panel.waitForSelector('[data-testid=plan-approval-card]', { timeout: 60_000 });
    // The moment it waits, a screen reader hears it, without the focus being taken from elsewhere.
    expect(await e2e.panel.$eval('[data-testid=announce-attention]', (element) => [element.getAttribute('aria-live'), element.textContent])).toEqual(['assertive', 'Deputy needs your approval to start its plan.']);
    problems.push(...(await seriousViolations(e2e.panel, 'plan card')));
    // Approving the plan approves its routine steps on its site (issue 28): the click goes without a card.
    await e2e.panel.click('[data-testid=plan-start]');
    await e2e.panel.waitForSelector('[data-testid=question-card]', { timeout: 60_000 });
    expect(await e2e.panel.$eval('[data-testid=announce-attention]', (element) => element.textContent)).toBe('Deputy asks: Which colour?');
    expect(await e2e.panel.$eval('[data-testid=announce-step]', (element) => [element.getAttribute('aria-live'), element.textContent])).toEqual(['polite', 'Step 3: Ask the user "Which colour?". waiting for your answer']);
    problems.push(...(await seriousViolations(e2e.panel, 'question card')));
    await e2e.panel.keyboard.type('Blue');
    await e2e.panel.keyboard.press('Enter');
    // Leaving the plan's site still asks: the approval card, announced without taking the focus.
    await e2e.panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
    expect(await e2e.panel.$eval('[data-testid=announce-attention]', (element) => element.textContent)).toMatch(/^Deputy needs your approval: /);
    problems.push(...(await seriousViolations(e2e.panel, 'approval card')));
    await e2e.panel.click('[data-testid=reject]');
    await e2e.panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(await e2e.panel.$eval('[data-testid=announce-attention]', (element) => element.textContent)).toBe('');
    expect(await e2e.panel.$eval('[data-testid=announce-step]', (element) => element.textContent)).toBe('Step 5: Finished the task');
    // The steps' details open, as a user would look at them.
    await e2e.panel.$$eval('[data-testid=step-details]', (items) => items.forEach((item) => ((item as HTMLDetailsElement).open = true)));
    problems.push(...(await seriousViolations(e2e.panel, 'finished task')));
    expect(problems).toEqual([]);
    await e2e.panel.click('[data-testid=new-task]');
    await e2e.panel.click('[data-testid=mode-act]');
  });

  it('gives input borders 3:1 against the page in both themes', async () => {
    await e2e.panel.click('[data-testid=flow-task]');
    for (const scheme of ['light', 'dark'] as const) {
      await e2e.panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      const ratio = await e2e.panel.$eval('[data-testid=task-input]', (box) => {
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
    await e2e.panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  });

  it('moves between views with the arrow keys, Home and End; each tab names its panel; the focus ring is drawn inside the tab', async () => {
    await e2e.panel.click('[data-testid=flow-task]');
    expect(await focused(e2e.panel)).toBe('flow-task');
    // One tab in the Tab order: the selected one.
    expect(await e2e.panel.$$eval('[role=tab]', (tabs) => tabs.map((tab) => tab.getAttribute('tabindex')))).toEqual(['0', '-1', '-1', '-1', '-1']);
    await e2e.panel.keyboard.press('ArrowRight');
    expect(await focused(e2e.panel)).toBe('flow-chat');
    expect(await e2e.panel.$eval('[data-testid=flow-chat]', (tab) => tab.getAttribute('aria-selected'))).toBe('true');
    expect(await e2e.panel.$eval('[role=tabpanel]', (element) => element.getAttribute('aria-labelledby'))).toBe('view-tab-chat');
    expect(await e2e.panel.$eval('[data-testid=flow-chat]', (tab) => tab.getAttribute('aria-controls'))).toBe(await e2e.panel.$eval('[role=tabpanel]', (element) => element.id));
    await e2e.panel.keyboard.press('End');
    expect(await focused(e2e.panel)).toBe('flow-dev');
    await e2e.panel.keyboard.press('ArrowRight');
    expect(await focused(e2e.panel)).toBe('flow-task');
    await e2e.panel.keyboard.press('ArrowLeft');
    expect(await focused(e2e.panel)).toBe('flow-dev');
    await e2e.panel.keyboard.press('Home');
    expect(await focused(e2e.panel)).toBe('flow-task');
    expect(await e2e.panel.$eval('[role=tabpanel]', (element) => element.getAttribute('aria-labelledby'))).toBe('view-tab-task');
    // The tab list scrolls sideways and clips what sticks out: the ring sits inside the focused tab.
    const ring = await e2e.panel.$eval('[data-testid=flow-task]', (tab) => {
      const style = getComputedStyle(tab);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth), offset: parseFloat(style.outlineOffset) };
    });
    expect(ring.style).toBe('solid');
    expect(ring.offset + ring.width).toBeLessThanOrEqual(0);
  });

  it('stops the running task with Esc, and registers a keyboard shortcut that opens the panel', async () => {
    await e2e.panel.click('[data-testid=flow-task]');
    const sent = e2e.fake.requests.length + 1;
    e2e.fake.enqueue({ hang: true });
    await runInPanel('Add the Pocket Buds to the cart');
    while (e2e.fake.requests.length < sent) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await e2e.panel.$eval('[data-testid=stop-task]', (button) => button.getAttribute('aria-keyshortcuts'))).toBe('Escape');
    await e2e.panel.keyboard.press('Escape');
    await e2e.panel.waitForSelector('[data-testid=task-progress][data-status=stopped]', { timeout: 60_000 });
    expect(e2e.fake.requests.length).toBe(sent);
    const commands = await e2e.panel.evaluate(() => chrome.commands.getAll());
    expect(commands.find((command) => command.name === '_execute_action')?.shortcut).toBe('Alt+Shift+D');
    expect(await texts(e2e.panel, '[data-testid=task-status]')).toEqual(['Stopped']);
  });
});
