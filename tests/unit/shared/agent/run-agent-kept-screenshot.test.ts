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
        events.push(`observe screenshot=${options.screenshot}`);
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
    // The observation itself no longer waits for a capture; the capture of page A is in before the click acts on it.
    expect(events).toEqual(['observe screenshot=false', 'capture of https://shop.example/a', 'act click', 'observe screenshot=false', 'capture of https://shop.example/b']);
    expect(kept).toEqual([[0, 'shot-1']]);
  });
});
