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
  {
    url: 'https://shop.example/a',
    title: 'A',
    elements: [{ ref: 1, role: 'link', name: 'To B', to: 'https://shop.example/b' }],
  },
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
        return captures === 2
          ? Promise.reject(new Error('quota'))
          : Promise.resolve({ mediaType: 'image/jpeg', base64: `shot-${captures}` });
      },
    };
    const kept: [number, string][] = [];
    const h = harness(environment, providerFor('openai-stream', fake), {
      keepScreenshot: (step, shot) => kept.push([step, shot.base64]),
    });
    fake.enqueue(call('click', { ref: 1 }), call('done', { success: true, summary: 'On B.' }));
    const state = await startAgent(h.deps, { taskId: 'kept', task: 'Go to B.', startUrl: 'https://shop.example/a' });
    expect(state.status).toBe('completed');
    // The observation itself does not wait for a capture (it is told one will be asked for, to take it beside its
    // reading of the page); the capture of page A is in before the click acts on it.
    expect(events).toEqual([
      'observe screenshot=false keep=true',
      'capture of https://shop.example/a',
      'act click',
      'observe screenshot=false keep=true',
      'capture of https://shop.example/b',
    ]);
    expect(kept).toEqual([[0, 'shot-1']]);
  });

  it('hold nothing of the step: the gate looks, the start mark is saved and the action runs while the capture is still being taken', async () => {
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
        // The capture of the page the model was shown ends only once the action has run: an action that waited for it
        // would never run.
        finishCapture?.();
        return web.act(action, options);
      },
      capture: (): Promise<Screenshot | undefined> => {
        events.push(`capture of ${web.url()} begun`);
        // Only the first look's capture is held (until the action); the next one is in at once.
        if (events.includes('act click'))
          return Promise.resolve({ mediaType: 'image/jpeg', base64: `shot of ${web.url()}` });
        return new Promise((resolve) => {
          finishCapture = () => {
            finishCapture = undefined;
            events.push('capture in');
            resolve({ mediaType: 'image/jpeg', base64: `shot of ${web.url()}` });
          };
        });
      },
    };
    const kept: [number, string][] = [];
    const h = harness(environment, providerFor('openai-stream', fake), {
      keepScreenshot: (step, shot) => kept.push([step, shot.base64]),
      persist: (state) => {
        if (state.steps.at(-1)?.calls.some((c) => c.status === 'started')) events.push('start mark saved');
        return Promise.resolve();
      },
    });
    fake.enqueue(call('click', { ref: 1 }), call('done', { success: true, summary: 'On B.' }));
    const state = await startAgent(h.deps, {
      taskId: 'kept-beside',
      task: 'Go to B.',
      startUrl: 'https://shop.example/a',
    });
    expect(state.status).toBe('completed');
    const order = events.filter((e) => !e.startsWith('capture of https://shop.example/b') && e !== 'start mark saved');
    expect(order.slice(0, 4)).toEqual([
      'capture of https://shop.example/a begun',
      'gate looks',
      'act click',
      'capture in',
    ]);
    expect(events.indexOf('start mark saved')).toBeLessThan(events.indexOf('act click'));
    // The picture is still step 0's, kept before the next look (it was begun before the action).
    expect(kept[0]).toEqual([0, 'shot of https://shop.example/a']);
    const tool = h.trace.find((r) => r.type === 'tool' && r.name === 'click') as
      { phases?: Record<string, number> } | undefined;
    expect(tool?.phases?.['kept screenshot']).toBeUndefined();
  });
});
