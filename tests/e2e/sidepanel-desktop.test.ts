import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import { launchTestBrowser, testBrowserArgs } from './support/test-hosts';
import { findBrowser } from '../../scripts/lib/find-browser';
import { findColourSync } from '../fixtures/desktop/find-colour';
import { TARGET_COLOURS, TARGET_PAGE } from '../fixtures/desktop/target-page';
import { startVirtualDisplay, xvfbMissingReason, type VirtualDisplay } from '../fixtures/desktop/virtual-display';
import { startFakeProvider, type FakeProvider, type RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { openDevTool, openPanel, screenshotBothSchemes, tabIdOf, texts } from './support/panel-harness';
import { registerHostInProfile, requireBuild } from './support/register-host';
import { serveRoutes, type StaticServer } from './support/static-server';
import { uiCall } from './support/ui-call';

const skipReason = xvfbMissingReason();
if (skipReason) console.warn(`sidepanel-desktop tests skipped: ${skipReason}`);

const API_KEY = 'sk-desktop-panel-test-key';

/** The last screenshot the loop sent to the model, as base64 JPEG. */
function lastImage(request: RecordedRequest): string {
  const last = (request.text.match(/data:image\/jpeg;base64,([A-Za-z0-9+/=]+)/g) ?? []).at(-1);
  if (!last) throw new Error('The model was sent no screenshot');
  return last.replace('data:image/jpeg;base64,', '');
}

interface Profile {
  ext: ExtensionBrowser;
  state: string;
  log: string;
  panel(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Headless Chromium with the built extension and the built host registered in its profile. The host inherits the
 * browser's environment: its DISPLAY (none, or the Xvfb screen), and where it keeps run folders and its log.
 */
async function startProfile(display: string, provider: FakeProvider, pageUrl: string): Promise<Profile> {
  const profile = await mkdtemp(join(tmpdir(), 'deputy-desktop-panel-profile-'));
  const state = await mkdtemp(join(tmpdir(), 'deputy-desktop-panel-state-'));
  await registerHostInProfile(profile);
  const log = join(state, 'host.log');
  const ext = await launchTestBrowser({ userDataDir: profile, env: { DISPLAY: display, XDG_STATE_HOME: state, DEPUTY_LOG_FILE: log } });
  await ext.worker();
  const tab = await ext.browser.newPage();
  await tab.goto(pageUrl);
  const helper = await ext.openExtensionPage('extension/sidepanel/index.html');
  const tabId = await tabIdOf(helper, pageUrl);
  await uiCall(helper, 'settings.set', {
    provider: { preset: 'custom', baseUrl: provider.openaiBaseUrl, model: 'fake-vision', apiKey: API_KEY, stream: true, openaiApi: 'chat', toolCalling: 'native', vision: true, timeoutMs: 60_000, maxRetries: 0 },
    defaultMode: 'ask',
  });
  await helper.close();
  return {
    ext,
    state,
    log,
    panel: async () => {
      const panel = await openPanel(ext, tabId);
      await openDevTool(panel, 'desktop');
      await panel.waitForSelector('[data-testid=desktop-flow]');
      return panel;
    },
    close: async () => {
      await ext.close();
      await rm(profile, { recursive: true, force: true });
      await rm(state, { recursive: true, force: true });
    },
  };
}

describe.skipIf(skipReason !== undefined)('the side panel\'s desktop mode (Xvfb, the built extension and host, the fake model)', () => {
  let screen: VirtualDisplay;
  let server: StaticServer;
  let model: FakeProvider;
  let target: Browser;
  let targetPage: Page;
  const profiles: Profile[] = [];

  beforeAll(async () => {
    requireBuild();
    screen = await startVirtualDisplay({ width: 1280, height: 800, reuse: false });
    server = await serveRoutes({ '/': TARGET_PAGE });
    model = await startFakeProvider();
    // The real X window the task acts on: a full-screen Chromium showing the target page on the Xvfb screen.
    const targetProfile = await mkdtemp(join(tmpdir(), 'deputy-desktop-panel-target-'));
    target = await puppeteer.launch({
      executablePath: findBrowser(),
      headless: false,
      userDataDir: targetProfile,
      pipe: true,
      defaultViewport: null,
      env: { ...process.env, DISPLAY: screen.display },
      args: [...testBrowserArgs(), '--kiosk', '--window-position=0,0', '--window-size=1280,800', '--test-type'],
    });
    targetPage = (await target.pages())[0] ?? (await target.newPage());
    await targetPage.goto(server.url('/'));
  });

  afterAll(async () => {
    for (const profile of profiles) await profile.close();
    await target?.close();
    await model?.close();
    await server?.close();
    await screen?.close();
  });

  it('shows the host\'s reason when the host has no display, and does not offer Run', async () => {
    const profile = await startProfile('', model, server.url('/'));
    profiles.push(profile);
    const panel = await profile.panel();
    await panel.waitForSelector('[data-testid=desktop-availability][data-state=unavailable]', { timeout: 30_000 });
    const line = await panel.$eval('[data-testid=desktop-availability]', (element) => element.textContent ?? '');
    expect(line).toMatch(/Desktop control is unavailable: No display: DISPLAY is not set/);
    expect(await panel.$eval('[data-testid=desktop-run]', (button) => (button as HTMLButtonElement).disabled)).toBe(true);
    expect(await screenshotBothSchemes(panel, 'sidepanel-desktop-unavailable')).toEqual([]);
    await panel.close();
  });

  it('runs a task typed in the panel: the plan approved in the panel, steps live with thumbnails, a reopened panel, the finished status and a complete run folder', async () => {
    const profile = await startProfile(screen.display, model, server.url('/'));
    profiles.push(profile);
    model.enqueue(
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
    const clicks = await targetPage.evaluate('window.record.clicks.map((click) => click.id)');
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
    expect(model.remaining()).toBe(0);
    await panel.close();
  });
});

