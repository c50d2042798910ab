import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Provider, ProviderReply, ProviderRequest } from '../../../../../shared/agent/providers/provider';
import type { DesktopActResult, DesktopScreenshotResult } from '../../../../../shared/protocol';
import type { DesktopControl } from '../../../../../native-host/desktop/agent/desktop-environment';
import { runDesktopTask, type DesktopTaskOptions } from '../../../../../native-host/desktop/agent/run-desktop-task';
import { loadCappedDesktopTask } from '../../../../../native-host/desktop/agent/saved-desktop-task';
import type { StepLine } from '../../../../../native-host/desktop/agent/run-log';
import { silentLogger } from '../../../../../native-host/log/logger';
import { AppError } from '../../../../../shared/errors';

type Call = { name: string; arguments: Record<string, unknown> };

/** A model that answers each turn with the next scripted tool calls, and keeps every request it was sent. */
function scriptedModel(turns: Call[][], vision = true, priced?: { model: string; inputTokens: number; outputTokens: number }): Provider & { requests: ProviderRequest[] } {
  const requests: ProviderRequest[] = [];
  let n = 0;
  return {
    label: 'scripted',
    model: priced?.model ?? 'scripted-vision',
    vision,
    ...(priced ? {} : { free: true }),
    requests,
    complete: (request): Promise<ProviderReply> => {
      requests.push(request);
      const calls = turns[n] ?? [{ name: 'done', arguments: { success: false, summary: 'out of script' } }];
      n += 1;
      return Promise.resolve({
        text: '',
        toolCalls: calls.map((c, i) => ({ id: `call-${n}-${i}`, name: c.name, arguments: JSON.stringify(c.arguments) })),
        usage: priced ? { inputTokens: priced.inputTokens, outputTokens: priced.outputTokens } : { inputTokens: 10, outputTokens: 5 },
        model: priced?.model ?? 'scripted-vision',
        stopReason: 'tool_use',
      });
    },
  };
}

/** A screen that records what it was asked to do. */
function fakeDesktop(options: { onAct?: (action: unknown) => Promise<void>; fingerprint?: (shot: number) => string } = {}) {
  const acts: { action: unknown; frame: unknown; dryRun: boolean | undefined; approvedSensitive: boolean | undefined }[] = [];
  const shotParams: Parameters<DesktopControl['screenshot']>[0][] = [];
  const stopListeners = new Set<() => void>();
  let shots = 0;
  let cancels = 0;
  const desktop: DesktopControl & { onStop(l: () => void): () => void; cancel(): Promise<number> } = {
    screenshot: (params): Promise<DesktopScreenshotResult> => {
      shots += 1;
      shotParams.push(params);
      return Promise.resolve({
        display: { id: '0', name: 'screen', x: 0, y: 0, width: 1280, height: 800, scaleFactor: 1, primary: true },
        frame: { displayId: '0', width: params.width ?? 1280, height: 400 },
        image: { mediaType: 'image/jpeg', base64: Buffer.from(`jpeg ${shots}`).toString('base64'), bytes: 6 },
        captured: { width: 1280, height: 800 },
        fingerprint: options.fingerprint?.(shots) ?? `fp-${shots}`,
        ...(params.pngPath ? { pngPath: params.pngPath } : {}),
        timings: { captureMs: 1, encodeMs: 1 },
      });
    },
    act: async (params): Promise<DesktopActResult> => {
      acts.push({ action: params.action, frame: params.frame, dryRun: params.dryRun, approvedSensitive: params.approvedSensitive });
      await options.onAct?.(params.action);
      return { performed: !params.dryRun, description: `did ${params.action.kind}`, ms: 1 };
    },
    onStop: (listener) => {
      stopListeners.add(listener);
      return () => stopListeners.delete(listener);
    },
    cancel: () => {
      cancels += 1;
      return Promise.resolve(0);
    },
  };
  return { desktop, acts, shotParams, pressHotkey: () => stopListeners.forEach((l) => l()), cancels: () => cancels };
}

describe('runDesktopTask', () => {
  let runDir: string;
  beforeEach(async () => {
    runDir = await mkdtemp(join(tmpdir(), 'deputy-desktop-task-'));
  });
  afterEach(async () => {
    await rm(runDir, { recursive: true, force: true });
  });

  const base = (provider: Provider, desktop: DesktopTaskOptions['desktop'], extra: Partial<DesktopTaskOptions> = {}): DesktopTaskOptions => ({
    task: 'Click the red button',
    provider,
    desktop,
    runDir,
    mode: 'act',
    approve: () => Promise.resolve({ approved: true }),
    dryRun: false,
    width: 640,
    quality: 70,
    log: silentLogger,
    now: () => Date.now(),
    ...extra,
  });

  it('plans, acts on screenshot coordinates, finishes, and leaves a complete run folder', async () => {
    const model = scriptedModel([
      [{ name: 'update_plan', arguments: { explanation: 'simple', steps: [{ step: 'Click the red button', status: 'in_progress' }] } }],
      [{ name: 'click', arguments: { x: 100, y: 50 } }],
      [{ name: 'done', arguments: { success: true, summary: 'Clicked it.' } }],
    ]);
    const { desktop, acts } = fakeDesktop();
    const { state } = await runDesktopTask(base(model, desktop));
    expect(state.status).toBe('completed');
    expect(acts).toEqual([{ action: { kind: 'click', x: 100, y: 50 }, frame: { displayId: '0', width: 640, height: 400 }, dryRun: false, approvedSensitive: false }]);
    // The model got the screenshot and the image size its coordinates refer to.
    const firstTurn = model.requests[0]?.messages.at(-1);
    expect(firstTurn && 'image' in firstTurn ? firstTurn.image?.mediaType : undefined).toBe('image/jpeg');
    expect(JSON.stringify(model.requests[0]?.messages)).toContain('shown as a 640x400 image');
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['click', 'double_click', 'right_click', 'move', 'drag', 'scroll', 'type', 'press', 'wait', 'call_user', 'update_plan', 'done']),
    );
    const lines = (await readFile(join(runDir, 'steps.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as StepLine);
    expect(lines.map((l) => l.action)).toEqual(['update_plan', 'click', 'done']);
    const click = lines[1];
    expect(click).toMatchObject({ step: 1, arguments: { x: 100, y: 50 }, ok: true, result: 'did click', plan: [{ step: 'Click the red button', status: 'in_progress' }] });
    expect(click?.observation.screenshot).toBe(join(runDir, 'step-002.png'));
    expect(click?.timings.actionMs).not.toBeNull();
    expect(click?.timings.modelMs).not.toBeNull();
    const saved = JSON.parse(await readFile(join(runDir, 'state.json'), 'utf8')) as { status: string };
    expect(saved.status).toBe('completed');
    expect(await readFile(join(runDir, 'trace.jsonl'), 'utf8')).toContain('"type":"end"');
  });

  it('asks the user to approve the plan before the first action in ask mode, and stops acting when declined', async () => {
    const model = scriptedModel([
      [{ name: 'update_plan', arguments: { explanation: 'x', steps: [{ step: 'Open the menu', status: 'in_progress' }] } }],
      [{ name: 'click', arguments: { x: 1, y: 1 } }],
      [{ name: 'done', arguments: { success: false, summary: 'Not approved.' } }],
    ]);
    const { desktop, acts } = fakeDesktop();
    const asked: string[] = [];
    await runDesktopTask(
      base(model, desktop, {
        mode: 'ask',
        approve: (request) => {
          asked.push(request.reason);
          return Promise.resolve({ approved: false, note: 'no' });
        },
      }),
    );
    expect(asked[0]).toMatch(/Approve this plan\?\n\[>\] 1\. Open the menu/);
    expect(acts).toEqual([]);
  });

  it('passes dry run down to every action', async () => {
    const model = scriptedModel([[{ name: 'type', arguments: { text: 'hello' } }], [{ name: 'done', arguments: { success: true, summary: 'ok' } }]]);
    const { desktop, acts } = fakeDesktop();
    await runDesktopTask(base(model, desktop, { dryRun: true }));
    expect(acts).toEqual([{ action: { kind: 'type', text: 'hello' }, frame: { displayId: '0', width: 640, height: 400 }, dryRun: true, approvedSensitive: false }]);
  });

  it('ends the task at once when the stop hotkey is pressed mid-action', async () => {
    const model = scriptedModel([[{ name: 'wait', arguments: { seconds: 30 } }], [{ name: 'click', arguments: { x: 1, y: 1 } }]]);
    let fake: ReturnType<typeof fakeDesktop> | undefined = undefined;
    fake = fakeDesktop({
      onAct: () => {
        fake?.pressHotkey();
        return Promise.reject(new AppError('cancelled', 'The action was stopped by the user before it finished.'));
      },
    });
    const { state, stoppedByHotkey } = await runDesktopTask(base(model, fake.desktop));
    expect(stoppedByHotkey).toBe(true);
    expect(state.status).toBe('stopped');
    expect(fake.acts).toHaveLength(1);
    expect(fake.cancels()).toBe(1);
  });

  it('feeds a refused action back to the model instead of failing the task', async () => {
    const model = scriptedModel([[{ name: 'type', arguments: { text: 'sudo reboot' } }], [{ name: 'done', arguments: { success: false, summary: 'refused' } }]]);
    const { desktop } = fakeDesktop({ onAct: () => Promise.reject(new AppError('policy_denied', 'The text contains a blocked command.')) });
    const { state } = await runDesktopTask(base(model, desktop));
    expect(state.status).toBe('failed');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('The action was not done: The text contains a blocked command.');
  });

  it('refuses a model that cannot read images, saying why', async () => {
    const { desktop } = fakeDesktop();
    await expect(runDesktopTask(base(scriptedModel([], false), desktop))).rejects.toThrow(/need a model that reads images/);
  });

  /** Whether a request's last message (the current step) carried the screen's image. */
  const imaged = (request: ProviderRequest | undefined): boolean => {
    const last = request?.messages.at(-1);
    return last !== undefined && 'image' in last && last.image !== undefined;
  };

  it('sends an unchanged screen once, with a note in its place, again after three in a row or when the model asks', async () => {
    const wait = [{ name: 'wait', arguments: { seconds: 0 } }];
    const done = [{ name: 'done', arguments: { success: true, summary: 'Idle.' } }];
    const model = scriptedModel([wait, wait, wait, wait, done]);
    const { desktop } = fakeDesktop({ fingerprint: () => 'same' });
    const { state } = await runDesktopTask(base(model, desktop));
    expect(state.status).toBe('completed');
    // Sent, three left out, sent again (the fourth unchanged in a row).
    expect(model.requests.map(imaged)).toEqual([true, false, false, false, true]);
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('unchanged since step 1');
    // The model asks to look again: the next step has the image, the one after it is left out again.
    const asking = scriptedModel([[{ name: 'show_screen', arguments: {} }], wait, done]);
    await runDesktopTask(base(asking, fakeDesktop({ fingerprint: () => 'same' }).desktop));
    expect(asking.requests.map(imaged)).toEqual([true, true, false]);
    expect(asking.requests[0]?.tools.map((t) => t.name)).toContain('show_screen');
    // Any step but a wait keeps the image coming, unchanged or not: a plan, then a click, then a look after it.
    const acting = scriptedModel([
      [{ name: 'update_plan', arguments: { explanation: 'simple', steps: [{ step: 'Click', status: 'in_progress' }] } }],
      [{ name: 'click', arguments: { x: 5, y: 5 } }],
      done,
    ]);
    await runDesktopTask(base(acting, fakeDesktop({ fingerprint: () => 'same' }).desktop));
    expect(acting.requests.map(imaged)).toEqual([true, true, true]);
    // A screen that changes is always sent.
    const changing = scriptedModel([wait, wait, wait, wait, done]);
    await runDesktopTask(base(changing, fakeDesktop().desktop));
    expect(changing.requests.map(imaged).every(Boolean)).toBe(true);
    // Turned off, every screenshot is sent.
    const always = scriptedModel([wait, wait, done]);
    await runDesktopTask(base(always, fakeDesktop({ fingerprint: () => 'same' }).desktop, { skipUnchanged: false }));
    expect(always.requests.map(imaged)).toEqual([true, true, true]);
  });

  it('still stops a task whose actions change nothing on the screen, whatever notes its steps carry', async () => {
    const click = [{ name: 'click', arguments: { x: 5, y: 5 } }];
    const model = scriptedModel(Array.from({ length: 12 }, () => click));
    const { state } = await runDesktopTask(base(model, fakeDesktop({ fingerprint: () => 'same' }).desktop, { maxSteps: 12 }));
    expect(state.status).toBe('failed');
    expect(model.requests.length).toBeLessThan(12);
  });

  it('marks where the last click landed on the next screenshot, in the pixels it was aimed at, and says so', async () => {
    const model = scriptedModel([
      [{ name: 'click', arguments: { x: 120, y: 60 } }],
      [{ name: 'move', arguments: { x: 10, y: 10 } }],
      [{ name: 'done', arguments: { success: true, summary: 'Clicked.' } }],
    ]);
    const { desktop, shotParams } = fakeDesktop();
    await runDesktopTask(base(model, desktop));
    expect(shotParams[0]?.marker).toBeUndefined();
    expect(shotParams[1]?.marker).toEqual({ x: 120, y: 60, frame: { width: 640, height: 400 } });
    // A move is not a click: the screenshot after it is clean.
    expect(shotParams[2]?.marker).toBeUndefined();
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('A red ring marks where your last click landed, at (120, 60).');
    const plain = fakeDesktop();
    await runDesktopTask(base(scriptedModel([[{ name: 'click', arguments: { x: 1, y: 1 } }]]), plain.desktop, { markClicks: false }));
    expect(plain.shotParams.every((p) => p.marker === undefined)).toBe(true);
  });

  it('stops at the cost cap with the run folder saved, and goes on from it under a new cap without repeating an action', async () => {
    // gpt-4o-mini: 10k tokens in and 1k out cost $0.0021 a call, so a $0.004 cap stops the task after two calls.
    const price = { model: 'gpt-4o-mini', inputTokens: 10_000, outputTokens: 1_000 };
    const first = scriptedModel([[{ name: 'click', arguments: { x: 10, y: 10 } }], [{ name: 'click', arguments: { x: 20, y: 20 } }], [{ name: 'click', arguments: { x: 30, y: 30 } }]], true, price);
    const screen = fakeDesktop();
    const { state } = await runDesktopTask(base(first, screen.desktop, { maxCostUsd: 0.004 }));
    expect(state.status).toBe('stopped');
    expect(state.endReason).toBe(`Stopped at the cost cap: this turn spent $0.0042, and the cap is $0.0040. Everything so far is saved; continue with deputy desktop --resume ${runDir} --max-cost DOLLARS.`);
    expect(first.requests).toHaveLength(2);
    expect(screen.acts.map((a) => a.action)).toEqual([
      { kind: 'click', x: 10, y: 10 },
      { kind: 'click', x: 20, y: 20 },
    ]);

    const saved = await loadCappedDesktopTask(runDir);
    const next = scriptedModel([[{ name: 'click', arguments: { x: 30, y: 30 } }], [{ name: 'done', arguments: { success: true, summary: 'Three clicks.' } }]], true, price);
    const again = await runDesktopTask(base(next, screen.desktop, { maxCostUsd: 0.05, continueFrom: saved }));
    expect(again.state.status).toBe('completed');
    expect(JSON.stringify(next.requests[0]?.messages)).toContain('The cost cap was raised: go on with the task from where it stopped.');
    expect(screen.acts.map((a) => a.action)).toEqual([
      { kind: 'click', x: 10, y: 10 },
      { kind: 'click', x: 20, y: 20 },
      { kind: 'click', x: 30, y: 30 },
    ]);
    const lines = (await readFile(join(runDir, 'steps.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as StepLine);
    expect(lines.map((l) => [l.step, l.action])).toEqual([
      [0, 'click'],
      [1, 'click'],
      [2, 'click'],
      [3, 'done'],
    ]);
    // A task that did not stop at its cap is the record of a run: it does not go on.
    await expect(loadCappedDesktopTask(runDir)).rejects.toThrow(/ended completed .*not at its cost cap/);
  });
});
