import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualDisplay, xvfbMissingReason, type VirtualDisplay } from '../fixtures/desktop/virtual-display';
import { useE2e } from './support/e2e-fixture';
import { openDevTool, PANEL, PANEL_WIDTH } from './support/panel-harness';
import { uiCall } from './support/ui-call';

// A desktop task run from the side panel stops at the user's cost cap with its state saved, and the panel's
// "Continue with the new cap" goes on with the same task in the same run folder (Xvfb, the built extension and host,
// the scripted model reached by the host on loopback).
const skipReason = xvfbMissingReason();
if (skipReason) console.warn(`sidepanel-desktop-cap tests skipped: ${skipReason}`);

const state = mkdtempSync(join(tmpdir(), 'deputy-desktop-cap-'));
let screen: VirtualDisplay | undefined;
beforeAll(async () => {
  if (!skipReason) screen = await startVirtualDisplay({ width: 640, height: 480, reuse: false });
});
afterAll(async () => {
  await screen?.close();
});
const e2e = useE2e({ host: true, model: true, env: () => ({ DISPLAY: screen?.display ?? '', XDG_STATE_HOME: state, DEPUTY_LOG_FILE: join(state, 'host.log') }) });
e2e.afterClose(() => Promise.resolve(rmSync(state, { recursive: true, force: true })));

// Each answer costs 20k tokens in at gpt-4o-mini's price, $0.003: a cap of $0.005 stops the task after the second.
const usage = { input: 20_000, output: 0 };
const wait = { toolCalls: [{ name: 'wait', arguments: { seconds: 0 } }], usage };

describe.skipIf(skipReason !== undefined)('the desktop view at the cost cap', () => {
  it('stops the task at the cap and says so, and Continue with a new cap goes on with the same task in its run folder', async () => {
    const helper = await e2e.helper();
    const settings = e2e.modelSettings('act');
    if (!settings.provider) throw new Error('the fixture gave no model settings');
    // The host calls the model itself, on loopback; the model reads images.
    await uiCall(helper, 'settings.set', { ...settings, maxCostUsd: 0.005, provider: { ...settings.provider, baseUrl: e2e.fake.openaiBaseUrl, vision: true } });
    e2e.fake.enqueue(wait, wait);

    const panel = await e2e.ext.openExtensionPage(PANEL);
    await panel.setViewport({ width: PANEL_WIDTH, height: 900 });
    await openDevTool(panel, 'desktop');
    await panel.waitForSelector('[data-testid=desktop-availability][data-state=available]', { timeout: 30_000 });
    await panel.type('[data-testid=desktop-task-input]', 'Wait for the installer to finish');
    await panel.click('[data-testid=desktop-run]');
    await panel.waitForSelector('[data-testid=desktop-progress][data-status=stopped]', { timeout: 60_000 });
    const summary = await panel.$eval('.desktop-run__summary', (element) => element.textContent ?? '');
    expect(summary).toBe('Stopped: Stopped at the cost cap: this turn spent $0.0060, and the cap is $0.0050. Everything so far is saved; set a new cap under the task in the side panel and press Continue.');
    expect(e2e.fake.remaining()).toBe(0);
    const runDir = await panel.$eval('[data-testid=desktop-run-dir]', (element) => element.textContent ?? '');
    const saved = JSON.parse(readFileSync(join(runDir, 'state.json'), 'utf8')) as { status: string; steps: unknown[] };
    expect(saved.status).toBe('stopped');
    expect(saved.steps).toHaveLength(2);

    // The field starts at the saved cap; a wrong amount says what to type; a new one continues.
    expect(await panel.$eval('[data-testid=desktop-continue-input]', (element) => (element as HTMLInputElement).value)).toBe('0.005');
    await panel.$eval('[data-testid=desktop-continue-input]', (element) => {
      (element as HTMLInputElement).value = '';
    });
    await panel.type('[data-testid=desktop-continue-input]', 'lots');
    await panel.click('[data-testid=desktop-continue-button]');
    expect(await panel.$eval('[data-testid=desktop-continue-error]', (element) => element.textContent)).toBe('The new cap is an amount in dollars above 0 and up to 1000, for example 0.50.');
    await panel.$eval('[data-testid=desktop-continue-input]', (element) => {
      (element as HTMLInputElement).value = '';
    });
    await panel.type('[data-testid=desktop-continue-input]', '1');
    const before = e2e.fake.requests.length;
    e2e.fake.enqueue(wait, wait, { toolCalls: [{ name: 'done', arguments: { success: true, summary: 'The installer finished.' } }], usage });
    await panel.click('[data-testid=desktop-continue-button]');
    await panel.waitForSelector('[data-testid=desktop-progress][data-status=completed]', { timeout: 60_000 });
    expect(await panel.$eval('.desktop-run__summary', (element) => element.textContent)).toBe('Done: The installer finished.');
    // The same task in the same folder, told that the cap was raised; the new cap ($1) let three more answers through.
    expect(await panel.$eval('[data-testid=desktop-run-dir]', (element) => element.textContent)).toBe(runDir);
    expect(JSON.stringify(e2e.fake.requests[before]?.json)).toContain('The cost cap was raised: go on with the task from where it stopped.');
    const done = JSON.parse(readFileSync(join(runDir, 'state.json'), 'utf8')) as { status: string; steps: unknown[] };
    expect(done.status).toBe('completed');
    expect(done.steps.length).toBeGreaterThanOrEqual(4);
    expect(e2e.fake.remaining()).toBe(0);
    expect(await panel.$('[data-testid=desktop-continue]')).toBeNull();
    await panel.close();
  });
});
