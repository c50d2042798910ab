import { mkdtempSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { findColourSync } from '../fixtures/desktop/find-colour';
import { TARGET_COLOURS } from '../fixtures/desktop/target-page';
import { xvfbMissingReason } from '../fixtures/desktop/virtual-display';
import { lastImage, useDesktopTarget } from './support/desktop-target';
import { useE2e } from './support/e2e-fixture';
import { openDevTool, openPanel, screenshotBothSchemes, texts } from './support/panel-harness';
import { uiCall } from './support/ui-call';

const skipReason = xvfbMissingReason();
if (skipReason) console.warn(`sidepanel-desktop tests skipped: ${skipReason}`);

const API_KEY = 'sk-desktop-panel-test-key';

/**
 * Headless Chromium with the built extension and the built host registered in its profile, a tab on the target page
 * and the scripted model saved as the user's (ask first). The host inherits the browser's environment: its DISPLAY
 * (none, or the Xvfb screen), and where it keeps run folders and its log.
 */
function useProfile(display: () => string, pageUrl: () => string) {
  let state = '';
  const e2e = useE2e({
    host: true,
    model: true,
    env: () => {
      state = mkdtempSync(join(tmpdir(), 'deputy-desktop-panel-state-'));
      e2e.afterClose(() => rm(state, { recursive: true, force: true }));
      return { DISPLAY: display(), XDG_STATE_HOME: state, DEPUTY_LOG_FILE: join(state, 'host.log') };
    },
  });
  let tabId = 0;
  beforeAll(async () => {
    ({ tabId } = await e2e.newTab(pageUrl()));
    const helper = await e2e.helper();
    await uiCall(helper, 'settings.set', {
      provider: { preset: 'custom', baseUrl: e2e.fake.openaiBaseUrl, model: 'fake-vision', apiKey: API_KEY, stream: true, openaiApi: 'chat', toolCalling: 'native', vision: true, timeoutMs: 60_000, maxRetries: 0 },
      defaultMode: 'ask',
    });
    await helper.close();
  });
  return {
    get model() {
      return e2e.fake;
    },
    get state() {
      return state;
    },
    get log() {
      return join(state, 'host.log');
    },
    panel: async (): Promise<Page> => {
      const panel = await openPanel(e2e.ext, tabId);
      await openDevTool(panel, 'desktop');
      await panel.waitForSelector('[data-testid=desktop-flow]');
      return panel;
    },
  };
}

describe.skipIf(skipReason !== undefined)('the side panel\'s desktop mode (Xvfb, the built extension and host, the fake model)', () => {
  // The real X window the task acts on: a full-screen Chromium showing the target page on the Xvfb screen.
  const desk = useDesktopTarget();

  describe('with a host that has no display', () => {
    const profile = useProfile(() => '', () => desk.url);

    it('shows the host\'s reason when the host has no display, and does not offer Run', async () => {
      const panel = await profile.panel();
      await panel.waitForSelector('[data-testid=desktop-availability][data-state=unavailable]', { timeout: 30_000 });
      const line = await panel.$eval('[data-testid=desktop-availability]', (element) => element.textContent ?? '');
      expect(line).toMatch(/Desktop control is unavailable: No display: DISPLAY is not set/);
      expect(await panel.$eval('[data-testid=desktop-run]', (button) => (button as HTMLButtonElement).disabled)).toBe(true);
      expect(await screenshotBothSchemes(panel, 'sidepanel-desktop-unavailable')).toEqual([]);
      await panel.close();
    });
  });

  describe('with a host on the Xvfb screen', () => {
    const profile = useProfile(() => desk.screen.display, () => desk.url);

    it('runs a task typed in the panel: the plan approved in the panel, steps live with thumbnails, a reopened panel, the finished status and a complete run folder', async () => {
      profile.model.enqueue(
        { toolCalls: [{ name: 'update_plan', arguments: { explanation: 'One click.', steps: [{ step: 'Click the red button', status: 'in_progress' }] } }] },
        (request) => {
          const spot = findColourSync(lastImage(request), TARGET_COLOURS.button);
          return { toolCalls: [{ name: 'click', arguments: { x: spot.x, y: spot.y } }] };
        },
        { toolCalls: [{ name: 'done', arguments: { success: true, summary: 'Clicked the red button.' } }] },
      );

      let panel = await profile.panel();
      await panel.waitForSelector('[data-testid=desktop-availability][data-state=available]', { timeout: 30_000 });
      expect(await panel.$eval('[data-testid=desktop-availability]', (element) => element.textContent ?? '')).toMatch(/Desktop ready: display 1280x800/);
      expect(await panel.$eval('[data-testid=mode-ask]', (radio) => (radio as HTMLInputElement).checked)).toBe(true);
      await panel.click('[data-testid=desktop-task-input]');
      await panel.keyboard.type('Click the red button');
      await panel.click('[data-testid=desktop-run]');

      // Ask first: the plan waits for approval before any action.
      await panel.waitForSelector('[data-testid=desktop-progress] [data-testid=approval-card]', { timeout: 60_000 });
      expect(await panel.$eval('[data-testid=approval-intent]', (element) => element.textContent ?? '')).toMatch(/Update the plan/);
      expect(await texts(panel, '[data-testid=desktop-progress] [data-testid=plan] li')).toEqual(['◐Click the red button (in progress)']);
      expect(await panel.$('[data-testid=approve-site]')).toBeNull();
      expect(await panel.$eval('[data-testid=desktop-status]', (element) => element.textContent ?? '')).toBe('Waiting for your approval');
      expect(await texts(panel, '[data-testid=desktop-step]')).toEqual([]);
      await panel.click('[data-testid=approve]');

      // The plan step shows while the click waits for its own approval.
      await panel.waitForSelector('[data-testid=desktop-step][data-action=update_plan]', { timeout: 60_000 });
      await panel.waitForFunction(
        "(document.querySelector('[data-testid=approval-intent]')?.textContent ?? '').startsWith('Click at')",
        { timeout: 60_000 },
      );
      expect(await screenshotBothSchemes(panel, 'sidepanel-desktop-approval')).toEqual([]);

      // Closed and opened again mid-run: the new panel shows the same run, card included, and answers it.
      await panel.close();
      panel = await profile.panel();
      await panel.waitForSelector('[data-testid=desktop-progress][data-status=running] [data-testid=approval-card]', { timeout: 30_000 });
      expect(await texts(panel, '[data-testid=desktop-step-text]')).toEqual(['update_plan: 1 step']);
      await panel.click('[data-testid=approve]');

      await panel.waitForSelector('[data-testid=desktop-progress][data-status=completed]', { timeout: 60_000 });
      const steps = await texts(panel, '[data-testid=desktop-step-text]');
      expect(steps[0]).toBe('update_plan: 1 step');
      expect(steps[1]).toMatch(/^click \(\d+, \d+\)$/);
      expect(steps[2]).toBe('done: Clicked the red button.');
      expect(await panel.$eval('[data-testid=desktop-outcome]', (element) => element.textContent ?? '')).toMatch(/Done: Clicked the red button\./);
      await panel.waitForFunction(
        "[...document.querySelectorAll('[data-testid=desktop-shot]')].some((image) => image.complete && image.naturalWidth === 240)",
        { timeout: 30_000 },
      );
      expect(await screenshotBothSchemes(panel, 'sidepanel-desktop-finished')).toEqual([]);

      // It acted on the real window, once, where the model saw the button.
      const clicks = await desk.page.evaluate('window.record.clicks.map((click) => click.id)');
      expect(clicks).toEqual(['button']);

      // The run folder the panel names holds every step and a PNG per step; the key is nowhere in it or the host log.
      const runDir = await panel.$eval('[data-testid=desktop-run-dir]', (element) => element.textContent ?? '');
      expect(runDir.startsWith(join(profile.state, 'deputy', 'runs'))).toBe(true);
      const files = await readdir(runDir);
      expect(files.filter((f) => f.endsWith('.png')).sort()).toEqual(['step-001.png', 'step-002.png', 'step-003.png']);
      const lines = (await readFile(join(runDir, 'steps.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { action: string; decision: string });
      expect(lines.map((l) => l.action)).toEqual(['update_plan', 'click', 'done']);
      expect(JSON.parse(await readFile(join(runDir, 'state.json'), 'utf8'))).toMatchObject({ status: 'completed' });
      for (const file of ['steps.jsonl', 'trace.jsonl', 'state.json']) expect(await readFile(join(runDir, file), 'utf8')).not.toContain(API_KEY);
      expect(await readFile(profile.log, 'utf8')).not.toContain(API_KEY);
      expect(profile.model.remaining()).toBe(0);
      await panel.close();
    });
  });
});
