import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DesktopRuns } from '../../../../../native-host/desktop/agent/desktop-runs';
import { silentLogger } from '../../../../../native-host/log/logger';
import type { Provider } from '../../../../../shared/agent/providers/provider';
import { AppError } from '../../../../../shared/errors';
import type { DesktopTaskEvent, DesktopThumbnail } from '../../../../../shared/protocol';

/** A model that plans, then clicks, then finishes. */
function model(): Provider {
  const turns = [
    { name: 'update_plan', arguments: '{"explanation":"x","steps":[{"step":"Click","status":"in_progress"}]}' },
    { name: 'click', arguments: '{"x":5,"y":5}' },
    { name: 'done', arguments: '{"success":true,"summary":"Clicked."}' },
  ];
  let n = 0;
  return {
    label: 'scripted',
    model: 'scripted',
    vision: true,
    complete: () => Promise.resolve({ text: '', toolCalls: [{ id: `c${n}`, ...(turns[n++] ?? turns[2]!) }], usage: null, model: 'scripted', stopReason: null }),
  };
}

const desktop = {
  screenshot: () =>
    Promise.resolve({
      display: { id: '0', name: 's', x: 0, y: 0, width: 100, height: 100, scaleFactor: 1, primary: true },
      frame: { displayId: '0', width: 100, height: 100 },
      image: { mediaType: 'image/jpeg' as const, base64: 'AA==', bytes: 1 },
      captured: { width: 100, height: 100 },
      fingerprint: 'f',
      timings: { captureMs: 0, encodeMs: 0 },
    }),
  act: () => Promise.resolve({ performed: true, description: 'Clicked', ms: 1 }),
  onStop: () => () => undefined,
  cancel: () => Promise.resolve(0),
};

describe('DesktopRuns', () => {
  let root: string;
  let events: DesktopTaskEvent[];
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'deputy-runs-'));
    events = [];
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const runs = (createProvider: (settings: unknown) => Provider = () => model(), thumbnail?: (jpeg: string) => Promise<DesktopThumbnail>) =>
    new DesktopRuns({
      desktop,
      runsRoot: root,
      createProvider,
      emit: (e) => events.push(e),
      log: silentLogger,
      now: () => Date.parse('2026-01-02T03:04:05Z'),
      ...(thumbnail ? { thumbnail } : {}),
    });

  const until = async (test: () => boolean): Promise<void> => {
    for (let i = 0; i < 200 && !test(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('asks for approvals through events and goes on only with the answer for that id', async () => {
    const manager = runs();
    const { runId, runDir } = await manager.start({ task: 'Click', provider: {}, mode: 'ask' });
    expect(runDir).toBe(join(root, '2026-01-02T03-04-05-000Z-desktop'));
    await until(() => events.some((e) => e.kind === 'approval'));
    const first = events.find((e) => e.kind === 'approval');
    expect(manager.answer({ runId, id: 'not-asked', approved: true })).toBe(false);
    expect(manager.answer({ runId: 'other-run', id: first && 'id' in first ? first.id : '', approved: true })).toBe(false);
    expect(manager.answer({ runId, id: first && 'id' in first ? first.id : '', approved: true })).toBe(true);
    await until(() => events.filter((e) => e.kind === 'approval').length === 2);
    const second = events.filter((e) => e.kind === 'approval')[1];
    manager.answer({ runId, id: second && 'id' in second ? second.id : '', approved: true });
    await until(() => events.some((e) => e.kind === 'finished'));
    expect(events.at(-1)).toMatchObject({ kind: 'finished', status: 'completed', summary: 'Clicked.' });
    expect(events.some((e) => e.kind === 'trace')).toBe(true);
  });

  it('runs one task at a time, and a stopped task ends as stopped', async () => {
    const manager = runs();
    const { runId } = await manager.start({ task: 'Click', provider: {}, mode: 'ask' });
    await expect(manager.start({ task: 'Another', provider: {} })).rejects.toThrow(/already running/);
    await until(() => events.some((e) => e.kind === 'approval'));
    expect(manager.stop(runId)).toBe(true);
    await until(() => events.some((e) => e.kind === 'finished'));
    expect(events.at(-1)).toMatchObject({ kind: 'finished', status: 'stopped' });
    expect(manager.stop(runId)).toBe(false);
  });

  it('reports unusable provider settings at once, with the provider message', async () => {
    const manager = runs(() => {
      throw new AppError('bad_config', 'No API key for openai.');
    });
    await expect(manager.start({ task: 'Click', provider: { preset: 'openai' } })).rejects.toThrow('No API key for openai.');
    expect(events).toEqual([]);
  });

  it('sends a thumbnail of each step\'s screenshot with the PNG\'s path, and leaves out one too large for the panel', async () => {
    let made = 0;
    const manager = runs(undefined, (jpeg) => {
      made += 1;
      // The second screenshot's image comes out too large to send: it is left out, the run goes on.
      return Promise.resolve({ mediaType: 'image/jpeg', base64: made === 2 ? 'A'.repeat(70_000) : `thumb-of-${jpeg}`, width: 24, height: 24 });
    });
    const { runId, runDir } = await manager.start({ task: 'Click', provider: {}, mode: 'act' });
    await until(() => events.some((e) => e.kind === 'finished'));
    const shots = events.filter((e) => e.kind === 'screenshot');
    expect(made).toBe(3);
    expect(shots).toEqual([
      { runId, kind: 'screenshot', step: 0, pngPath: join(runDir, 'step-001.png'), thumbnail: { mediaType: 'image/jpeg', base64: 'thumb-of-AA==', width: 24, height: 24 } },
      { runId, kind: 'screenshot', step: 2, pngPath: join(runDir, 'step-003.png'), thumbnail: { mediaType: 'image/jpeg', base64: 'thumb-of-AA==', width: 24, height: 24 } },
    ]);
  });

  it('stops at the cost cap saying how to go on in the panel, then goes on in the same folder under a new cap', async () => {
    // Each answer costs 20k tokens in at gpt-4o-mini's price ($0.003): a cap of $0.005 stops after the second.
    const priced = (): Provider => {
      const base = model();
      return { ...base, model: 'gpt-4o-mini', complete: async (...args) => ({ ...(await base.complete(...args)), model: 'gpt-4o-mini', usage: { inputTokens: 20_000, outputTokens: 0 } }) };
    };
    const manager = runs(priced);
    const first = await manager.start({ task: 'Click', provider: {}, mode: 'act', maxCostUsd: 0.005 });
    await until(() => events.some((e) => e.kind === 'finished'));
    const stopped = events.find((e) => e.kind === 'finished');
    expect(stopped).toMatchObject({ status: 'stopped' });
    expect(stopped && 'summary' in stopped ? stopped.summary : '').toMatch(/^Stopped at the cost cap: .*set a new cap under the task in the side panel and press Continue\.$/);
    events.length = 0;
    const again = await manager.start({ task: 'Click', provider: {}, mode: 'act', maxCostUsd: 1, resumeRunDir: first.runDir });
    expect(again.runDir).toBe(first.runDir);
    await until(() => events.some((e) => e.kind === 'finished'));
    expect(events.at(-1)).toMatchObject({ kind: 'finished', status: 'completed', summary: 'Clicked.' });
    // Only a task stopped at its cap goes on, and only from this host's run folders.
    await expect(manager.start({ task: 'Click', provider: {}, resumeRunDir: first.runDir })).rejects.toThrow(/ended completed .*not at its cost cap/);
    await expect(manager.start({ task: 'Click', provider: {}, resumeRunDir: tmpdir() })).rejects.toThrow(/is not a desktop run folder of this host/);
  });
});
