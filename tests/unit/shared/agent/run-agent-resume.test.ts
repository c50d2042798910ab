import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import type { AgentState } from '../../../../shared/agent/agent-state';
import { resumeAgent, startAgent, withFollowUp } from '../../../../shared/agent/run-agent';
import { AppError } from '../../../../shared/errors';
import { call, harness } from './support/agent-harness';
import { type FakePage, createFakeWeb } from './support/fake-web';
import { providerFor } from './support/provider-clients';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const CART: FakePage[] = [
  {
    url: 'https://shop.example/mug',
    title: 'Red mug',
    elements: [{ ref: 2, role: 'button', name: 'Add to cart', to: 'https://shop.example/cart' }],
  },
  { url: 'https://shop.example/cart', title: 'Cart (1)', elements: [{ ref: 1, role: 'link', name: 'Checkout' }], body: '1 x Red mug' },
];

class Crash extends Error {}

describe('resuming a persisted task', () => {
  it('does not repeat an action when the worker died after sending it and before recording its result', async () => {
    const web = createFakeWeb(CART, 'https://shop.example/mug');
    const store: AgentState[] = [];
    let dead = false;
    const first = harness(web, providerFor('openai-stream', fake), {
      // The worker dies right after the click reached the page: the save that would record its result never lands.
      persist: (state) => {
        if (dead) return Promise.reject(new Crash('the service worker was killed'));
        if (state.steps.at(-1)?.calls[0]?.status === 'finished' && state.steps.at(-1)?.calls[0]?.name === 'click') {
          dead = true;
          return Promise.reject(new Crash('the service worker was killed'));
        }
        store.push(state);
        return Promise.resolve();
      },
    });
    fake.enqueue(call('click', { ref: 2 }));
    await expect(startAgent(first.deps, { taskId: 'r1', task: 'Add the red mug to the cart.', startUrl: 'https://shop.example/mug' })).rejects.toThrow(Crash);
    expect(web.actions).toEqual([{ kind: 'click', ref: 2, double: false }]);
    const lastSaved = store.at(-1);
    expect(lastSaved?.steps.at(-1)?.calls[0]?.status).toBe('started');

    // A new worker loads the saved state (through JSON, as chrome.storage would) and resumes.
    const second = harness(web, providerFor('anthropic-stream', fake));
    fake.enqueue(call('done', { success: true, summary: 'The mug is in the cart.' }));
    const state = await resumeAgent(second.deps, JSON.parse(JSON.stringify(lastSaved)));

    expect(state.status).toBe('completed');
    expect(web.actions).toHaveLength(1);
    expect(state.steps[0]?.calls[0]?.status).toBe('interrupted');
    // The model was told plainly, and saw the page as it is now.
    const resumedRequest = fake.requests[1]?.text ?? '';
    expect(resumedRequest).toContain('Deputy was restarted while this action was running, so it may or may not have happened. It was not repeated');
    expect(resumedRequest).toContain('Cart (1)');
    expect(second.trace[0]).toMatchObject({ type: 'task', resumed: true });
  });

  it('asks again for an approval that was pending when the browser closed, and acts once approved', async () => {
    const web = createFakeWeb(
      [{ url: 'https://shop.example/checkout', title: 'Checkout', elements: [{ ref: 9, role: 'button', name: 'Pay now', to: 'https://shop.example/paid' }] }],
      'https://shop.example/checkout',
    );
    const saves: AgentState[] = [];
    const first = harness(web, providerFor('openai-plain', fake), {
      persist: (state) => {
        saves.push(state);
        return Promise.resolve();
      },
      approve: () => {
        throw new Crash('the browser was closed');
      },
    });
    fake.enqueue(call('click', { ref: 9 }));
    const ended = await startAgent(first.deps, { taskId: 'r2', task: 'Pay.', startUrl: 'https://shop.example/checkout' }).catch((e: unknown) => e);
    expect(ended).toMatchObject({ status: 'failed' });
    // The last save before the failure is the one a real crash leaves behind.
    const pending = saves.find((s) => s.status === 'awaiting_approval');
    expect(pending?.steps[0]?.calls[0]?.status).toBe('awaiting_approval');
    expect(web.actions).toEqual([]);
    expect(saves.at(-1)?.status).toBe('failed');

    const second = harness(web, providerFor('openai-plain', fake), { approve: () => ({ approved: true }) });
    fake.enqueue(call('done', { success: true, summary: 'Paid.' }));
    const state = await resumeAgent(second.deps, pending);
    expect(second.approvals.map((a) => a.intent)).toEqual(['Click [9] button "Pay now"']);
    expect(web.actions).toEqual([{ kind: 'click', ref: 9, double: false }]);
    expect(state.status).toBe('completed');
  });

  it('finishes a task whose done call was saved just before the crash, without asking the model again', async () => {
    const web = createFakeWeb(CART, 'https://shop.example/mug');
    const store: AgentState[] = [];
    let killed = false;
    const first = harness(web, providerFor('openai-plain', fake), {
      persist: (state) => {
        killed ||= state.status === 'completed';
        if (killed) return Promise.reject(new Crash('killed before the final save'));
        store.push(state);
        return Promise.resolve();
      },
    });
    fake.enqueue(call('done', { success: true, summary: 'Nothing to do.' }));
    await expect(startAgent(first.deps, { taskId: 'r3', task: 'Look.', startUrl: 'https://shop.example/mug' })).rejects.toThrow(Crash);
    const second = harness(web, providerFor('openai-plain', fake));
    const state = await resumeAgent(second.deps, store.at(-1));
    expect(state.status).toBe('completed');
    expect(state.outcome).toEqual({ success: true, summary: 'Nothing to do.' });
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses a saved state that is not one, with a clear error', async () => {
    const web = createFakeWeb(CART, 'https://shop.example/mug');
    const h = harness(web, providerFor('openai-plain', fake));
    const error = await resumeAgent(h.deps, { version: 1, taskId: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toMatch(/^The saved task cannot be resumed: task: /);
  });
});

describe('the user stopping a task', () => {
  it('takes effect before the next action, even when the model already asked for it', async () => {
    const web = createFakeWeb(CART, 'https://shop.example/mug');
    let stop = false;
    const h = harness(web, providerFor('openai-stream', fake), { shouldStop: () => stop });
    fake.enqueue((request) => {
      // The user presses Stop while the model is thinking.
      expect(request.path).toBe('/v1/chat/completions');
      stop = true;
      return call('click', { ref: 2 });
    });
    const state = await startAgent(h.deps, { taskId: 's1', task: 'Add the mug.', startUrl: 'https://shop.example/mug' });
    expect(state.status).toBe('stopped');
    expect(state.endReason).toBe('Stopped by the user.');
    expect(web.actions).toEqual([]);
    expect(state.steps[0]?.calls[0]).toMatchObject({ status: 'skipped', result: { content: 'Stopped by the user.' } });
  });

  it('aborts a model call in flight through the signal', async () => {
    const web = createFakeWeb(CART, 'https://shop.example/mug');
    const controller = new AbortController();
    const h = harness(web, providerFor('anthropic-stream', fake), { signal: controller.signal });
    fake.enqueue(() => {
      controller.abort();
      return call('click', { ref: 2 });
    });
    const state = await startAgent(h.deps, { taskId: 's2', task: 'Add the mug.', startUrl: 'https://shop.example/mug' });
    expect(state.status).toBe('stopped');
    expect(web.actions).toEqual([]);
  });
});

describe('a follow-up to an ended task', () => {
  it('goes on with the earlier turns in the prompt, the follow-up after them, and ends again with its own outcome', async () => {
    const web = createFakeWeb(CART, 'https://shop.example/mug');
    const h = harness(web, providerFor('openai-plain', fake), { limits: { maxSteps: 2 } });
    fake.enqueue({ text: 'Adding it now.', ...call('click', { ref: 2 }) }, call('done', { success: true, summary: 'Added the mug.' }));
    const first = await startAgent(h.deps, { taskId: 't1', task: 'Add the red mug to the cart', startUrl: 'https://shop.example/mug' });
    expect(first.status).toBe('completed');

    const continued = withFollowUp(JSON.parse(JSON.stringify(first)), 'Now check out', 1_800_000_000_000);
    expect(continued).toMatchObject({ status: 'running', outcome: null, followUps: [{ text: 'Now check out', beforeStep: 2 }] });
    // The first turn used the whole step budget of 2: the follow-up gets a budget of its own.
    fake.enqueue(call('click', { ref: 1 }), call('done', { success: true, summary: 'At the checkout.' }));
    const second = await resumeAgent(h.deps, continued);

    expect(second.status).toBe('completed');
    expect(second.outcome?.summary).toBe('At the checkout.');
    expect(web.actions).toEqual([
      { kind: 'click', ref: 2, double: false },
      { kind: 'click', ref: 1, double: false },
    ]);
    expect(second.steps).toHaveLength(4);
    const prompt = fake.requests[2]?.text ?? '';
    for (const said of ['Add the red mug to the cart', 'Adding it now.', 'Added the mug.', 'Follow-up from the user', 'Now check out']) expect(prompt).toContain(said);
    // The follow-up comes after the earlier turn and before the page it is acted on.
    expect(prompt.indexOf('Added the mug.')).toBeLessThan(prompt.indexOf('Now check out'));
    expect(prompt).toContain('[Step 3 page');
    expect(prompt.indexOf('Now check out')).toBeLessThan(prompt.indexOf('[Step 3 page'));
    expect(fake.remaining()).toBe(0);
  });

  it('refuses a saved state it cannot read, saying so', () => {
    expect(() => withFollowUp({ version: 2 }, 'go on', 1)).toThrow(/cannot be continued/);
  });
});
