import { describe, expect, it } from 'vitest';
import { triggerStep } from '../../../../native-host/loop/job-steps';
import type { LoopContext } from '../../../../native-host/loop/loop-context';
import { parseLoopConfig } from '../../../../native-host/loop/load-loop-config';
import type { LoopState } from '../../../../native-host/loop/loop-state';
import type { LoopEvent } from '../../../../shared/protocol/loop-protocol';

// The trigger step's resume rule: a loop that stopped (crashed, was killed) while sending a POST or a form does not send
// it again, since the service may have it; one marked safe to repeat, or a command, is sent again.

function triggerContext(trigger: Record<string, unknown>, sending: boolean) {
  const config = parseLoopConfig({ repo: '/srv/decks', check: 'npm test', trigger, output: { url: 'https://svc.test/out.pptx' } }, 'test');
  const state: LoopState = {
    version: 1, loopId: '0123456789ab', repo: '/srv/decks', branch: 'main', config, startedAt: 0, updatedAt: 0, activeMs: 0, iteration: 1, step: 'trigger',
    history: [{ iteration: 1, startCommit: 'abc', failures: [], interruptedRuns: 0, ...(sending ? { triggerSending: true } : {}) }], pushedCommits: [], costUsd: 0,
  };
  const events: LoopEvent[] = [];
  const requests: string[] = [];
  const saved: boolean[] = [];
  const context = {
    state,
    deps: {
      fetch: (url: string) => {
        requests.push(url);
        return Promise.resolve(new Response('queued', { status: 202, statusText: 'Accepted' }));
      },
      run: () => {
        requests.push('command');
        return Promise.resolve({ exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, aborted: false });
      },
      now: () => 0,
      sleep: () => Promise.resolve(),
      env: {},
      signal: new AbortController().signal,
    },
    git: { changedPaths: () => Promise.resolve([]) },
    save: () => saved.push(state.history[0]?.triggerSending === true),
    emit: (event: Omit<LoopEvent, 'loopId' | 'at' | 'iteration'>) => events.push({ ...event, loopId: state.loopId, at: 0, iteration: state.iteration } as LoopEvent),
    finish: () => undefined,
  } as unknown as LoopContext;
  return { context, state, events, requests, saved };
}

describe('the trigger step on resume', () => {
  it('a POST the last run was sending when it stopped is not sent again: the loop says so and waits for its output', async () => {
    const { context, state, events, requests } = triggerContext({ url: 'https://svc.test/run', form: { client: 'acme' } }, true);
    expect(await triggerStep(context)).toBe('not sent again');
    expect(requests).toEqual([]);
    expect(state.step).toBe('output');
    expect(events).toEqual([expect.objectContaining({ type: 'notice', level: 'warn', message: expect.stringContaining('it is not sent again (it is not marked safe to repeat)') as unknown })]);
  });

  it('one marked safe to repeat, and a command, are sent again; the mark is set while sending and cleared after', async () => {
    for (const trigger of [{ url: 'https://svc.test/run', form: { client: 'acme' }, idempotent: true }, { command: 'node build.mjs' }]) {
      const { context, state, events, requests, saved } = triggerContext(trigger, true);
      expect(await triggerStep(context)).toMatch(/HTTP 202|finished/);
      expect(requests).toHaveLength(1);
      expect(saved).toContain(true);
      expect(state.history[0]?.triggerSending).toBeUndefined();
      expect(events.map((event) => event.type)).toEqual(['trigger.sent']);
    }
  });

  it('a first send saves the mark before the request goes out, so a crash mid-send is known on resume', async () => {
    const { context, state, requests, saved } = triggerContext({ url: 'https://svc.test/run', form: { client: 'acme' } }, false);
    expect(await triggerStep(context)).toBe('HTTP 202 Accepted');
    expect(requests).toEqual(['https://svc.test/run']);
    expect(saved[0]).toBe(true);
    expect(state.history[0]?.trigger).toBe('POST https://svc.test/run (form, 1 field(s)): HTTP 202 Accepted');
  });
});
