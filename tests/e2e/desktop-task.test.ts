import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBrowserArgs } from './support/test-hosts';
import { findBrowser } from '../../scripts/lib/find-browser';
import { findColourSync } from '../fixtures/desktop/find-colour';
import { startHost } from '../fixtures/desktop/host-client';
import { TARGET_COLOURS, TARGET_PAGE } from '../fixtures/desktop/target-page';
import { startVirtualDisplay, xvfbMissingReason, type VirtualDisplay } from '../fixtures/desktop/virtual-display';
import { startFakeProvider, type FakeProvider, type RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { serveRoutes, type StaticServer } from './support/static-server';

const HOST = 'dist-host/deputy.mjs';
const skipReason = xvfbMissingReason() ?? (existsSync(HOST) ? undefined : `${HOST} is missing: run \`npm run build\` first`);
if (skipReason) console.warn(`desktop-task tests skipped: ${skipReason}`);

/** The last screenshot the loop sent to the model, as base64 JPEG. */
function lastImage(request: RecordedRequest): string {
  const images = request.text.match(/data:image\/jpeg;base64,([A-Za-z0-9+/=]+)/g) ?? [];
  const last = images.at(-1);
  if (!last) throw new Error('The model was sent no screenshot');
  return last.replace('data:image/jpeg;base64,', '');
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe.skipIf(skipReason !== undefined)('deputy desktop "task" with the fake provider (Xvfb, Chromium, the built CLI)', () => {
  let screen: VirtualDisplay;
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  let provider: FakeProvider;
  let profile: string;
  let runsDir: string;

  beforeAll(async () => {
    screen = await startVirtualDisplay({ width: 1280, height: 800, reuse: false });
    server = await serveRoutes({ '/': TARGET_PAGE });
    provider = await startFakeProvider();
    profile = await mkdtemp(join(tmpdir(), 'deputy-desktop-task-profile-'));
    runsDir = await mkdtemp(join(tmpdir(), 'deputy-desktop-runs-'));
    browser = await puppeteer.launch({
      executablePath: findBrowser(),
      headless: false,
      userDataDir: profile,
      pipe: true,
      defaultViewport: null,
      env: { ...process.env, DISPLAY: screen.display },
      args: [...testBrowserArgs(), '--kiosk', '--window-position=0,0', '--window-size=1280,800', '--test-type'],
    });
    page = (await browser.pages())[0] ?? (await browser.newPage());
    await page.goto(server.url('/'));
  });

  afterAll(async () => {
    await browser?.close();
    await provider?.close();
    await server?.close();
    await screen?.close();
    await rm(profile, { recursive: true, force: true });
    await rm(runsDir, { recursive: true, force: true });
  });

  function runCli(task: string, extra: string[] = [], onStdout?: (text: string) => void): Promise<Run> {
    const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: screen.display, DEPUTY_API_KEY: 'test-key' };
    delete env.OPENAI_API_KEY;
    delete env.ANTHROPIC_API_KEY;
    const child = spawn(
      process.execPath,
      [HOST, 'desktop', task, '--provider', 'openai-compatible', '--base-url', provider.openaiBaseUrl, '--model', 'fake-vision', '--runs-dir', runsDir, '--width', '640', ...extra],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString('utf8');
      onStdout?.(stdout);
    });
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
    return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
  }

  it('sees the screen, clicks the target it found in the screenshot, finishes, and leaves a complete run folder', async () => {
    provider.enqueue(
      { toolCalls: [{ name: 'update_plan', arguments: { explanation: 'One click.', steps: [{ step: 'Click the red button', status: 'in_progress' }] } }] },
      (request) => {
        const spot = findColourSync(lastImage(request), TARGET_COLOURS.button);
        return { toolCalls: [{ name: 'click', arguments: { x: spot.x, y: spot.y } }] };
      },
      { toolCalls: [{ name: 'done', arguments: { success: true, summary: 'Clicked the red button.' } }] },
    );
    const run = await runCli('Click the red button');
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/completed: Clicked the red button\./);
    const clicks = await page.evaluate(() => (window as unknown as { record: { clicks: { id: string }[] } }).record.clicks);
    expect(clicks.map((c) => c.id)).toEqual(['button']);

    const [folder] = await readdir(runsDir);
    const dir = join(runsDir, folder ?? '');
    const files = await readdir(dir);
    expect(files.filter((f) => f.endsWith('.png')).sort()).toEqual(['step-001.png', 'step-002.png', 'step-003.png']);
    expect(files).toEqual(expect.arrayContaining(['steps.jsonl', 'trace.jsonl', 'state.json']));
    const lines = (await readFile(join(dir, 'steps.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.action)).toEqual(['update_plan', 'click', 'done']);
    const click = lines[1] as { plan: unknown; arguments: unknown; ok: boolean; observation: { screenshot: string; image: unknown }; timings: Record<string, number | null> };
    expect(click.plan).toEqual([{ step: 'Click the red button', status: 'in_progress' }]);
    expect(click.ok).toBe(true);
    expect(click.observation.image).toEqual({ width: 640, height: 400 });
    expect((await stat(click.observation.screenshot)).size).toBeGreaterThan(1000);
    expect(Object.values(click.timings).every((ms) => typeof ms === 'number')).toBe(true);
    expect(JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'))).toMatchObject({ status: 'completed' });
  });

  it('stops a running task at once when the user presses the stop hotkey', async () => {
    provider.enqueue(
      { toolCalls: [{ name: 'update_plan', arguments: { explanation: 'Wait.', steps: [{ step: 'Wait for the app', status: 'in_progress' }] } }] },
      { toolCalls: [{ name: 'wait', arguments: { seconds: 30 } }] },
      { toolCalls: [{ name: 'click', arguments: { x: 10, y: 10 } }] },
    );
    let pressed = 0;
    const run = await runCli('Wait for the app, then click', [], (stdout) => {
      // Press once the plan is through, while the wait is running.
      if (pressed === 0 && stdout.includes('update_plan')) {
        pressed = Date.now();
        setTimeout(() => execFileSync('xdotool', ['key', 'ctrl+alt+shift+s'], { env: { ...process.env, DISPLAY: screen.display } }), 700);
      }
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/stopped \(stop hotkey\)/);
    expect(Date.now() - pressed).toBeLessThan(15_000);
    // The click after the wait never reached the model's turn.
    expect(provider.remaining()).toBe(1);
  });

  it('refuses bad flags with a message that says what to do', async () => {
    const run = await runCli('anything', ['--width', 'wide']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--width must be a whole number from 320 to 3840, not "wide"/);
  });

  it('runs a task started over native messaging (the side panel\'s desktop mode), with approvals answered on the channel', async () => {
    await page.reload();
    // A model of its own: the stop test above left a reply it never asked for in the shared one.
    const model = await startFakeProvider();
    model.enqueue(
      { toolCalls: [{ name: 'update_plan', arguments: { explanation: 'One click.', steps: [{ step: 'Click the red button', status: 'in_progress' }] } }] },
      (request) => {
        const spot = findColourSync(lastImage(request), TARGET_COLOURS.button);
        return { toolCalls: [{ name: 'click', arguments: { x: spot.x, y: spot.y } }] };
      },
      { toolCalls: [{ name: 'done', arguments: { success: true, summary: 'Clicked the red button.' } }] },
    );
    const state = await mkdtemp(join(tmpdir(), 'deputy-desktop-state-'));
    const host = startHost({ ...process.env, DISPLAY: screen.display, XDG_STATE_HOME: state, DEPUTY_LOG_FILE: join(state, 'host.log') });
    try {
      const started = await host.rpc.call('desktop.run', {
        task: 'Click the red button',
        provider: { preset: 'custom', baseUrl: model.openaiBaseUrl, model: 'fake-vision', apiKey: 'test-key' },
        mode: 'ask',
        dryRun: false,
        width: 640,
        quality: 70,
      });
      expect(started.runDir.startsWith(join(state, 'deputy', 'runs'))).toBe(true);
      const asked: string[] = [];
      let finished: { status: string; summary: string } | undefined;
      const deadline = Date.now() + 60_000;
      while (!finished && Date.now() < deadline) {
        for (const { event, data } of host.events.splice(0)) {
          if (event !== 'desktop.task') continue;
          const task = data as { kind: string; id?: string; intent?: string; status?: string; summary?: string };
          if (task.kind === 'approval' && task.id) {
            asked.push(task.intent ?? '');
            expect((await host.rpc.call('desktop.answer', { runId: started.runId, id: task.id, approved: true })).accepted).toBe(true);
          }
          if (task.kind === 'finished') finished = { status: task.status ?? '', summary: task.summary ?? '' };
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(finished).toEqual({ status: 'completed', summary: 'Clicked the red button.' });
      // Ask mode: the plan first, then the click, each approved on the channel before it happened.
      expect(asked).toHaveLength(2);
      expect(asked[1]).toMatch(/^Click at \(\d+, \d+\)$/);
      const clicks = await page.evaluate(() => (window as unknown as { record: { clicks: { id: string }[] } }).record.clicks);
      expect(clicks.map((c) => c.id)).toEqual(['button']);
      expect((await readdir(started.runDir)).filter((f) => f.endsWith('.png'))).toHaveLength(3);
      // An answer nobody is waiting for is refused, not applied to anything.
      expect((await host.rpc.call('desktop.answer', { runId: started.runId, id: 'made-up', approved: true })).accepted).toBe(false);
    } finally {
      await host.close();
      await model.close();
      await rm(state, { recursive: true, force: true });
    }
  });
});
