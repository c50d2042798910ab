import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import type { Screenshot } from '../../../../shared/agent/environment';
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

const pages = [
  { url: 'https://shop.example/a', title: 'A', elements: [{ ref: 1, role: 'link', name: 'To B', to: 'https://shop.example/b' }] },
  { url: 'https://shop.example/b', title: 'B', elements: [] },
];

describe('screenshots kept with the trace', () => {
  it('are taken beside the model turn, of the page the model was shown, before the action runs; a failed capture loses only the picture', async () => {
    const web = createFakeWeb(pages, 'https://shop.example/a');
    const events: string[] = [];
    let captures = 0;
    const environment = {
      ...web,
      observe: (options: Parameters<typeof web.observe>[0]) => {
        events.push(`observe screenshot=${options.screenshot} keep=${options.keep === true}`);
        return web.observe(options);
      },
      act: (action: Parameters<typeof web.act>[0], options: Parameters<typeof web.act>[1]) => {
        events.push(`act ${action.kind}`);
        return web.act(action, options);
      },
      capture: (): Promise<Screenshot | undefined> => {
        captures += 1;
        events.push(`capture of ${web.url()}`);
        return captures === 2 ? Promise.reject(new Error('quota')) : Promise.resolve({ mediaType: 'image/jpeg', base64: `shot-${captures}` });
      },
    };
    const kept: [number, string][] = [];
    const h = harness(environment, providerFor('openai-stream', fake), { keepScreenshot: (step, shot) => kept.push([step, shot.base64]) });
    fake.enqueue(call('click', { ref: 1 }), call('done', { success: true, summary: 'On B.' }));
    const state = await startAgent(h.deps, { taskId: 'kept', task: 'Go to B.', startUrl: 'https://shop.example/a' });
    expect(state.status).toBe('completed');
    // The observation itself does not wait for a capture (it is told one will be asked for, to take it beside its
    // reading of the page); the capture of page A is in before the click acts on it.
    expect(events).toEqual(['observe screenshot=false keep=true', 'capture of https://shop.example/a', 'act click', 'observe screenshot=false keep=true', 'capture of https://shop.example/b']);
    expect(kept).toEqual([[0, 'shot-1']]);
  });

  it('hold only the action: the gate looks and the start mark is saved while the capture is still being taken', async () => {
    const web = createFakeWeb(pages, 'https://shop.example/a');
    const events: string[] = [];
    let finishCapture: (() => void) | undefined;
    const environment = {
      ...web,
      gateFacts: () => {
        events.push('gate looks');
        return Promise.resolve({});
      },
      act: (action: Parameters<typeof web.act>[0], options: Parameters<typeof web.act>[1]) => {
        events.push(`act ${action.kind}`);
        return web.act(action, options);
      },
      capture: (): Promise<Screenshot | undefined> => {
        events.push(`capture of ${web.url()} begun`);
        return new Promise((resolve) => {
          finishCapture = () => {
            events.push('capture in');
            resolve({ mediaType: 'image/jpeg', base64: 'shot' });
          };
        });
      },
    };
    const kept: number[] = [];
    const h = harness(environment, providerFor('openai-stream', fake), {
      keepScreenshot: (step) => kept.push(step),
      persist: (state) => {
        const started = state.steps.at(-1)?.calls.some((c) => c.status === 'started');
        if (started) events.push('start mark saved');
        // The capture ends only once the call's start mark is saved: an action that waited for it first would hang.
        if (started && finishCapture) setTimeout(finishCapture, 0);
        return Promise.resolve();
      },
    });
    fake.enqueue(call('click', { ref: 1 }), call('done', { success: true, summary: 'On B.' }));
    const state = await startAgent(h.deps, { taskId: 'kept-beside', task: 'Go to B.', startUrl: 'https://shop.example/a' });
    expect(state.status).toBe('completed');
    const order = events.filter((e) => !e.startsWith('capture of https://shop.example/b'));
    expect(order.slice(0, 5)).toEqual(['capture of https://shop.example/a begun', 'gate looks', 'start mark saved', 'capture in', 'act click']);
    expect(kept[0]).toBe(0);
    // Every call waits for the kept screenshot, and the trace says how long it waited.
    const tool = h.trace.find((r) => r.type === 'tool' && r.name === 'click') as { phases?: Record<string, number> } | undefined;
    expect(tool?.phases?.['kept screenshot']).toBeGreaterThan(0);
  });
});
