import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiChatProvider } from '../../../../../shared/agent/providers/openai-chat-provider';
import type { ShellTaskEvent } from '../../../../../shared/protocol/shell-protocol';
import { ShellRuns } from '../../../../../native-host/shell/agent/shell-runs';
import { createValidator } from '../../../../../native-host/shell/command-validator';
import { silentLogger } from '../../../../../native-host/log/logger';
import { type FakeProvider, startFakeProvider } from '../../../../fixtures/fake-provider/fake-provider-server';
import { openAiClient } from '../../../shared/agent/support/provider-clients';

let fake: FakeProvider;
let dir: string;
beforeEach(async () => {
  fake = await startFakeProvider();
  dir = await mkdtemp(join(tmpdir(), 'deputy-shell-runs-cap-'));
});
afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const call = (name: string, args: unknown) => ({ toolCalls: [{ name, arguments: args }] });

describe("the side panel's shell sessions under a cost cap", () => {
  it('stop at the cap, say how to go on, and go on in the same open session (its process still running) under a new cap', async () => {
    const events: ShellTaskEvent[] = [];
    let onFinished: (() => void) | undefined;
    const provider = createOpenAiChatProvider({ client: openAiClient(fake), model: 'gpt-4o-mini' });
    const runs = new ShellRuns({
      sessionsRoot: join(dir, 'sessions'),
      rulesFile: join(dir, 'rules.json'),
      createProvider: () => provider,
      createValidator: () => createValidator(provider, { timeoutMs: 5000, now: () => Date.now() }),
      emit: (event) => {
        events.push(event);
        if (event.kind === 'finished') onFinished?.();
      },
      home: dir,
      localUser: 'tester',
      env: process.env,
      log: silentLogger,
      now: () => Date.now(),
    });
    const finished = (): Promise<void> => new Promise((resolve) => (onFinished = resolve));
    const answerAll = setInterval(() => {
      for (const event of events) if (event.kind === 'approval') runs.answer({ sessionId: event.sessionId, id: event.id, approved: true });
    }, 20);
    try {
      // gpt-4o-mini: 10k tokens in and 1k out cost $0.0021 a call, so a $0.004 cap stops the task after two calls.
      const priced = { usage: { input: 10_000, output: 1_000 } };
      fake.enqueue({ ...call('run', { command: 'sleep 30', background: true }), ...priced }, { ...call('run', { command: 'echo second' }), ...priced });
      let ended = finished();
      const { sessionId } = runs.start({ objective: 'Start a sleeper, then echo.', target: { kind: 'local' }, mode: 'ask', provider: {}, maxCostUsd: 0.004 });
      await ended;
      const stop = events.filter((e) => e.kind === 'finished').at(-1);
      expect(stop).toMatchObject({ status: 'stopped' });
      expect(stop?.kind === 'finished' ? stop.summary : '').toMatch(/^Stopped at the cost cap: .* Everything so far is saved; continue with deputy shell --resume \S+ --max-cost DOLLARS \(or Resume in the side panel's Shell view\)\.$/);

      fake.drop();
      fake.enqueue(call('report', { success: true, summary: 'Both done.' }));
      ended = finished();
      await runs.resume({ sessionId, provider: {}, maxCostUsd: 0.05 });
      await ended;
      expect(events.filter((e) => e.kind === 'finished').at(-1)).toMatchObject({ status: 'completed', summary: 'Both done.' });
      expect(fake.requests.at(-1)?.text).toContain('The cost cap was raised: go on with the task from where it stopped.');
      // The same session went on: the sleeper it started before the cap still runs in it.
      expect(runs.output(sessionId, 'p1', 100)).toBe('');
      expect((await runs.kill(sessionId, 'p1')).status).toBe('killed');
      // A session that did not stop at its cap is not resumed while open.
      await expect(runs.resume({ sessionId, provider: {} })).rejects.toThrow(/only a session interrupted by a restart, or stopped at its cost cap, can be resumed/);
    } finally {
      clearInterval(answerAll);
      await runs.closeAll();
    }
  });
});
