import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import type { AgentState } from '../../../../shared/agent/agent-state';
import { startAgent } from '../../../../shared/agent/run-agent';
import { call, harness } from './support/agent-harness';
import { createFakeWeb } from './support/fake-web';
import { providerFor } from './support/provider-clients';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const PAGES = [
  {
    url: 'https://shop.example/',
    title: 'Shop',
    elements: [
      { ref: 1, role: 'textbox', name: 'Search' },
      { ref: 2, role: 'button', name: 'Go', to: 'https://shop.example/results' },
    ],
  },
  { url: 'https://shop.example/results', title: 'Results', elements: [{ ref: 1, role: 'link', name: 'Bottle' }] },
];

describe('saving the task state', () => {
  it('saves twice a step: the mark before the action (with the reply) and its result, so a crash never repeats an action', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/');
    const h = harness(web, providerFor('openai-stream', fake));
    fake.enqueue(
      call('type', { ref: 1, text: 'bottle' }),
      call('click', { ref: 2 }),
      call('done', { success: true, summary: 'Found it.' }),
    );
    const state = await startAgent(h.deps, { taskId: 't', task: 'Find a bottle', startUrl: 'https://shop.example/' });
    expect(state.status).toBe('completed');
    // Each action's step: its reply and mark together, then its result; the done step the same; the end once.
    const calls = h.saved.map((s) => s.steps.at(-1)?.calls[0]?.status ?? 'none');
    expect(calls.filter((status) => status === 'started')).toHaveLength(3);
    expect(h.saved.length).toBeLessThanOrEqual(3 * 2 + 2);
    // The mark holds the reply: what was about to run is on disk before it runs.
    const marks = h.saved.filter((s) => s.steps.at(-1)?.calls[0]?.status === 'started');
    expect(marks.map((s) => s.steps.at(-1)?.reply?.toolCalls[0]?.name)).toEqual(['type', 'click', 'done']);
  });

  it("writes a call's result while the page is looked at again, and asks the model again only once it is in", async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/');
    const events: string[] = [];
    let release: (() => void) | null = null;
    const observe = web.observe.bind(web);
    // The write of the click's result is held until the next look at the page has begun: a loop that waited for the
    // write before looking would never get there (and the test would time out).
    web.observe = (options) => {
      events.push('observe');
      const done = observe(options);
      if (release) {
        events.push(`model asked ${fake.requests.length} times when the result is written`);
        release();
        release = null;
      }
      return done;
    };
    const saved: AgentState[] = [];
    const h = harness(web, providerFor('openai-stream', fake), {
      persist: (state) => {
        const first = state.steps.at(-1)?.calls[0];
        if (first?.name === 'click' && first.status === 'finished' && !saved.some((s) => s.steps.at(-1)?.calls[0]?.status === 'finished')) {
          saved.push(state);
          events.push('result write begun');
          return new Promise<void>((resolve) => (release = resolve));
        }
        saved.push(state);
        return Promise.resolve();
      },
    });
    fake.enqueue(call('click', { ref: 2 }), call('done', { success: true, summary: 'Found it.' }));
    const state = await startAgent(h.deps, { taskId: 't', task: 'Find a bottle', startUrl: 'https://shop.example/' });
    expect(state.status).toBe('completed');
    expect(events).toEqual(['observe', 'result write begun', 'observe', 'model asked 1 times when the result is written']);
    // Written in the order made: the click's result before the done step's mark.
    const statuses = saved.map((s) => `${s.steps.at(-1)?.calls[0]?.name}:${s.steps.at(-1)?.calls[0]?.status}`);
    expect(statuses.indexOf('click:finished')).toBeLessThan(statuses.indexOf('done:started'));
  });

  it('fails the task when the write it did not wait for failed, before asking the model again', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/');
    const h = harness(web, providerFor('openai-stream', fake), {
      persist: (state) => {
        const first = state.steps.at(-1)?.calls[0];
        if (first?.name === 'click' && first.status === 'finished') return Promise.reject(new Error('storage is full'));
        return Promise.resolve();
      },
    });
    fake.enqueue(call('click', { ref: 2 }), call('done', { success: true, summary: 'Found it.' }));
    const state = await startAgent(h.deps, { taskId: 't', task: 'Find a bottle', startUrl: 'https://shop.example/' });
    expect(state.status).toBe('failed');
    expect(state.endReason).toContain('storage is full');
    expect(fake.requests).toHaveLength(1);
  });

  it('saves what a paused task holds before it holds', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/');
    let holds = 0;
    let heldAt = -1;
    const h = harness(web, providerFor('openai-stream', fake), {
      // The user paused the task as the model answered: the loop holds before the first action.
      untilResumed: async (beforeHold) => {
        holds += 1;
        if (holds !== 2) return;
        await beforeHold();
        heldAt = h.saved.length - 1;
      },
    });
    fake.enqueue(call('type', { ref: 1, text: 'bottle' }), call('done', { success: true, summary: 'Typed.' }));
    await startAgent(h.deps, { taskId: 't', task: 'Type bottle', startUrl: 'https://shop.example/' });
    const held = h.saved[heldAt];
    expect(held?.steps.at(-1)?.calls[0]).toMatchObject({ name: 'type', status: 'proposed' });
  });
});
