import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findColourSync } from '../fixtures/desktop/find-colour';
import { startHost } from '../fixtures/desktop/host-client';
import { TARGET_COLOURS } from '../fixtures/desktop/target-page';
import { xvfbMissingReason } from '../fixtures/desktop/virtual-display';
import { startFakeProvider } from '../fixtures/fake-provider/fake-provider-server';
import { lastImage, useDesktopTarget } from './support/desktop-target';
import { useE2e } from './support/e2e-fixture';
import { cliEnv, runCli as run, type Finished } from './support/run-cli';
import { waitUntil } from './support/wait-until';

const HOST = 'dist-host/deputy.mjs';
const skipReason = xvfbMissingReason() ?? (existsSync(HOST) ? undefined : `${HOST} is missing: run \`npm run build\` first`);
if (skipReason) console.warn(`desktop-task tests skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('deputy desktop "task" with the fake provider (Xvfb, Chromium, the built CLI)', () => {
  const target = useDesktopTarget();
  const e2e = useE2e({ browser: false, model: true, work: true });
  const page = () => target.page;

  function runCli(task: string, extra: string[] = [], onStdout?: (text: string) => void): Promise<Finished> {
    const args = [HOST, 'desktop', task, '--provider', 'openai-compatible', '--base-url', e2e.fake.openaiBaseUrl, '--model', 'fake-vision', '--runs-dir', e2e.work, '--width', '640', ...extra];
    return run(process.execPath, args, { env: cliEnv({ DISPLAY: target.screen.display, DEPUTY_API_KEY: 'test-key' }), ...(onStdout ? { onStdout } : {}) });
  }

  it('sees the screen, clicks the target it found in the screenshot, finishes, and leaves a complete run folder', async () => {
    e2e.fake.enqueue(
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
    const clicks = await page().evaluate(() => (window as unknown as { record: { clicks: { id: string }[] } }).record.clicks);
    expect(clicks.map((c) => c.id)).toEqual(['button']);

    const [folder] = await readdir(e2e.work);
    const dir = join(e2e.work, folder ?? '');
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
    e2e.fake.enqueue(
      { toolCalls: [{ name: 'update_plan', arguments: { explanation: 'Wait.', steps: [{ step: 'Wait for the app', status: 'in_progress' }] } }] },
      { toolCalls: [{ name: 'wait', arguments: { seconds: 30 } }] },
      { toolCalls: [{ name: 'click', arguments: { x: 10, y: 10 } }] },
    );
    let pressed = false;
    const run = await runCli('Wait for the app, then click', [], (stdout) => {
      // Press once the plan is through and the model has asked for the wait, while the wait is running.
      if (!pressed && stdout.includes('update_plan')) {
        pressed = true;
        void waitUntil('the model to have been asked for the wait', () => e2e.fake.remaining() === 1).then(() => {
          execFileSync('xdotool', ['key', 'ctrl+alt+shift+s'], { env: target.displayEnv() });
        });
      }
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/stopped \(stop hotkey\)/);
    // The click after the wait never reached the model's turn: the wait was cut off, not waited out.
    expect(e2e.fake.remaining()).toBe(1);
  });

  it('refuses bad flags with a message that says what to do', async () => {
    const run = await runCli('anything', ['--width', 'wide']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--width must be a whole number from 320 to 3840, not "wide"/);
  });

  it('runs a task started over native messaging (the side panel\'s desktop mode), with approvals answered on the channel', async () => {
    await page().reload();
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
    const host = startHost({ ...target.displayEnv(), XDG_STATE_HOME: state, DEPUTY_LOG_FILE: join(state, 'host.log') });
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
      // Each approval is answered as it arrives, until the run says it has finished.
      await waitUntil('the desktop run to finish', async () => {
        for (const { event, data } of host.events.splice(0)) {
          if (event !== 'desktop.task') continue;
          const task = data as { kind: string; id?: string; intent?: string; status?: string; summary?: string };
          if (task.kind === 'approval' && task.id) {
            asked.push(task.intent ?? '');
            expect((await host.rpc.call('desktop.answer', { runId: started.runId, id: task.id, approved: true })).accepted).toBe(true);
          }
          if (task.kind === 'finished') finished = { status: task.status ?? '', summary: task.summary ?? '' };
        }
        return finished;
      });
      expect(finished).toEqual({ status: 'completed', summary: 'Clicked the red button.' });
      // Ask mode: the plan first, then the click, each approved on the channel before it happened.
      expect(asked).toHaveLength(2);
      expect(asked[1]).toMatch(/^Click at \(\d+, \d+\)$/);
      const clicks = await page().evaluate(() => (window as unknown as { record: { clicks: { id: string }[] } }).record.clicks);
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
