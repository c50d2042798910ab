import { describe, expect, it } from 'vitest';
import { DesktopRunLog, applyDesktopEvent, newDesktopRun } from '../../../../../extension/background/host/desktop-run-log';
import { createDesktopUiHandlers } from '../../../../../extension/background/host/desktop-ui-handlers';
import { DEFAULT_SETTINGS, DESKTOP_RUN_MAX_SHOTS, DESKTOP_RUN_MAX_STEPS, type DesktopRunRecord, type Settings } from '../../../../../shared/protocol';
import { memoryStore } from '../support/memory-store';

const tool = (step: number, callId: string, name: string, args: unknown, extra: Record<string, unknown> = {}) => ({
  runId: 'r1',
  kind: 'trace' as const,
  record: { type: 'tool', at: 10 + step, step, callId, name, arguments: JSON.stringify(args), status: 'finished', ok: true, content: `did ${name}`, ...extra },
});
const thumb = { mediaType: 'image/jpeg' as const, base64: 'AAAA', width: 240, height: 150 };

function setup() {
  const store = memoryStore();
  const sent: DesktopRunRecord[] = [];
  let now = 1000;
  const log = new DesktopRunLog({ store, broadcast: (record) => sent.push(record), now: () => (now += 1) });
  return { store, sent, log };
}

describe('the desktop run log the side panel reads', () => {
  it('folds steps, screenshots, cards and the end into one record, and sends each version', async () => {
    const { log, sent } = setup();
    await log.begin({ runId: 'r1', runDir: '/runs/a-desktop', task: 'Click the red button', mode: 'ask' });
    await log.apply({ runId: 'r1', kind: 'approval', id: 'a1', intent: 'Follow this plan: click the button', reason: 'Ask first mode', classes: ['act'] });
    expect((await log.current())?.approval).toMatchObject({ id: 'a1', intent: 'Follow this plan: click the button' });
    const plan = { explanation: 'One click.', steps: [{ step: 'Click', status: 'in_progress' }] };
    await log.apply({ runId: 'r1', kind: 'trace', record: { type: 'reply', step: 0, toolCalls: [{ id: 'c1', name: 'update_plan', arguments: JSON.stringify(plan) }] } });
    // Shown as proposed, while its approval is pending.
    expect(await log.current()).toMatchObject({ plan, approval: { id: 'a1' } });
    await log.apply(tool(0, 'c1', 'update_plan', plan));
    await log.apply({ runId: 'r1', kind: 'screenshot', step: 1, pngPath: '/runs/a-desktop/step-002.png', thumbnail: thumb });
    await log.apply(tool(1, 'c2', 'click', { x: 320, y: 200 }));
    await log.apply({ runId: 'r1', kind: 'finished', status: 'completed', summary: 'Clicked it.', runDir: '/runs/a-desktop', stoppedByHotkey: false });
    const record = await log.current();
    expect(record).toMatchObject({ runId: 'r1', task: 'Click the red button', mode: 'ask', status: 'completed', summary: 'Clicked it.', runDir: '/runs/a-desktop', approval: null });
    expect(record?.steps.map((s) => [s.step, s.action, s.ok])).toEqual([
      [0, 'update_plan', true],
      [1, 'click', true],
    ]);
    expect(record?.shots).toEqual([{ step: 1, pngPath: '/runs/a-desktop/step-002.png', thumbnail: thumb }]);
    expect(sent.at(-1)).toEqual(record);
    expect(record?.plan).toEqual(plan);
    expect(sent.length).toBe(7);
  });

  it('keeps an event that arrives before desktop.run answered, then adds the task text to it', async () => {
    const { log } = setup();
    await log.apply(tool(0, 'c1', 'wait', { seconds: 1 }));
    await log.begin({ runId: 'r1', runDir: '/runs/b', task: 'Wait', mode: 'act' });
    expect(await log.current()).toMatchObject({ task: 'Wait', mode: 'act', runDir: '/runs/b', steps: [{ action: 'wait' }] });
  });

  it('stays bounded however long the run: the latest steps and screenshots, with a count of those let go', () => {
    let record: DesktopRunRecord = newDesktopRun('r1', 0);
    for (let i = 0; i < DESKTOP_RUN_MAX_STEPS + 25; i += 1) {
      record = applyDesktopEvent(record, tool(i, `c${i}`, 'type', { text: 'x'.repeat(5000) }, { content: 'y'.repeat(5000) }), i);
      record = applyDesktopEvent(record, { runId: 'r1', kind: 'screenshot', step: i, pngPath: `/p/${i}.png`, thumbnail: { ...thumb, base64: 'A'.repeat(50_000) } }, i);
    }
    expect(record.steps).toHaveLength(DESKTOP_RUN_MAX_STEPS);
    expect(record.droppedSteps).toBe(25);
    expect(record.steps[0]?.step).toBe(25);
    expect(record.shots.map((s) => s.step)).toEqual(Array.from({ length: DESKTOP_RUN_MAX_SHOTS }, (_, i) => DESKTOP_RUN_MAX_STEPS + 25 - DESKTOP_RUN_MAX_SHOTS + i));
    expect(record.steps.every((s) => s.arguments.length <= 300 && (s.result?.length ?? 0) <= 300)).toBe(true);
    // Well under the 1 MB a runtime message may carry.
    expect(JSON.stringify(record).length).toBeLessThan(400_000);
  });

  it('a new run replaces the finished one; events of other runs and bad events are ignored', async () => {
    const { log } = setup();
    await log.begin({ runId: 'r1', runDir: '/a', task: 'One', mode: 'act' });
    await log.apply({ runId: 'r1', kind: 'finished', status: 'failed', summary: 'No.', runDir: '/a', stoppedByHotkey: true });
    await log.begin({ runId: 'r2', runDir: '/b', task: 'Two', mode: 'act' });
    expect(await log.apply({ kind: 'nonsense' })).toBeUndefined();
    expect(await log.current()).toMatchObject({ runId: 'r2', task: 'Two', status: 'running', steps: [] });
  });

  it('marks a running run failed when the host goes away or was restarted under it', async () => {
    const { log, store } = setup();
    await log.begin({ runId: 'r1', runDir: '/a', task: 'One', mode: 'act' });
    await log.hostStatus({ state: 'connected', updatedAt: 1 });
    expect((await log.current())?.status).toBe('running');
    await log.hostStatus({ state: 'disconnected', message: 'The host exited', updatedAt: 2 });
    expect((await log.current())?.status).toBe('failed');
    expect((await log.current())?.summary).toContain('The host exited');

    // A service worker that restarted finds a run it never heard of still marked running: its host is gone too.
    const restarted = new DesktopRunLog({ store, broadcast: () => undefined, now: () => 5 });
    await store.set('desktopRun', { ...(await restarted.current()), status: 'running', summary: null });
    await restarted.hostStatus({ state: 'connected', updatedAt: 3 });
    expect((await restarted.current())?.status).toBe('failed');
    expect((await restarted.current())?.summary).toContain('restarted');
  });
});

describe('the side panel\'s desktop methods in the background', () => {
  const provider: Settings['provider'] = {
    preset: 'custom',
    baseUrl: 'http://127.0.0.1:9/v1',
    model: 'vision-model',
    apiKey: 'sk-secret',
    stream: true,
    openaiApi: 'chat',
    toolCalling: 'native',
    vision: false,
    timeoutMs: 60_000,
    maxRetries: 0,
  };

  function handlers(saved: Settings['provider'], maxCostUsd: number | null = null) {
    const { log } = setup();
    const calls: [string, unknown][] = [];
    const host = {
      call: ((method: string, params: unknown) => {
        calls.push([method, params]);
        if (method === 'desktop.run') return Promise.resolve({ runId: 'r9', runDir: '/runs/r9' });
        if (method === 'desktop.answer') return Promise.resolve({ accepted: true });
        return Promise.resolve({ stopped: true });
      }) as never,
    };
    const settings = { get: (): Promise<Settings> => Promise.resolve({ ...DEFAULT_SETTINGS, provider: saved, maxCostUsd }) };
    return { calls, log, ui: createDesktopUiHandlers({ host, settings, log }) };
  }

  it('sends the saved model, key included, to the host, whatever the panel sent', async () => {
    const { calls, log, ui } = handlers(provider);
    const started = await ui['desktop.run']({ task: 'Open the editor', mode: 'act', provider: { preset: 'openai', apiKey: 'from-panel' }, dryRun: false, width: 1280, quality: 70 });
    expect(started).toEqual({ runId: 'r9', runDir: '/runs/r9' });
    expect(calls[0]?.[0]).toBe('desktop.run');
    expect((calls[0]?.[1] as { provider: unknown }).provider).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', model: 'vision-model', apiKey: 'sk-secret' });
    expect(await log.current()).toMatchObject({ runId: 'r9', task: 'Open the editor', mode: 'act', status: 'running' });
  });

  it('sends the cost cap of Settings with the run, and none when none is set', async () => {
    const capped = handlers(provider, 0.5);
    await capped.ui['desktop.run']({ task: 'Open the editor', mode: 'act', provider: null, dryRun: false, width: 1280, quality: 70 });
    expect(capped.calls[0]?.[1]).toMatchObject({ maxCostUsd: 0.5 });
    const free = handlers(provider);
    await free.ui['desktop.run']({ task: 'Open the editor', mode: 'act', provider: null, dryRun: false, width: 1280, quality: 70 });
    expect(free.calls[0]?.[1]).not.toHaveProperty('maxCostUsd');
  });

  it('says to choose a provider in Settings when none is saved, and starts nothing', async () => {
    const { calls, ui } = handlers(null);
    const failure: unknown = await ui['desktop.run']({ task: 'x', mode: 'ask', provider: null, dryRun: false, width: 1280, quality: 70 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'bad_config' });
    expect(String(failure)).toContain('Settings');
    expect(calls).toEqual([]);
  });

  it('drops an answered card at once and marks a stop as requested', async () => {
    const { log, ui } = handlers(provider);
    await ui['desktop.run']({ task: 'x', mode: 'ask', provider: null, dryRun: false, width: 1280, quality: 70 });
    await log.apply({ runId: 'r9', kind: 'question', id: 'q1', question: 'Which file?' });
    expect((await log.current())?.question?.text).toBe('Which file?');
    expect(await ui['desktop.answer']({ runId: 'r9', id: 'q1', text: 'notes.txt' })).toEqual({ accepted: true });
    expect((await log.current())?.question).toBeNull();
    await ui['desktop.stop']({ runId: 'r9' });
    expect((await log.current())?.stopRequested).toBe(true);
  });
});
