import { describe, expect, it } from 'vitest';
import { createLoopUiHandlers } from '../../../../../extension/background/host/loop-ui-handlers';

const SAVED = { preset: 'openai' as const, model: 'gpt-4.1', apiKey: 'sk-saved' };

function handlers(provider: typeof SAVED | null) {
  const calls: Array<[string, unknown]> = [];
  const loop = createLoopUiHandlers({
    host: {
      call: ((method: string, params: unknown) => {
        calls.push([method, params]);
        return Promise.resolve({ loopId: 'l1' });
      }) as never,
    },
    settings: { get: () => Promise.resolve({ provider } as never) },
  });
  return { loop, calls };
}

describe('loop.start from the side panel', () => {
  it("adds the model saved in Settings for the research step, and drops whatever model the panel sent", async () => {
    const { loop, calls } = handlers(SAVED);
    await loop['loop.start']({ config: { repo: '/srv/app', check: 'npm test' }, resume: false, restart: false, provider: { preset: 'custom', apiKey: 'sk-from-page' } });
    expect(calls).toEqual([['loop.start', { config: { repo: '/srv/app', check: 'npm test' }, resume: false, restart: false, provider: SAVED }]]);
  });

  it('sends no key when research is off or no model is saved (the host then says research was skipped)', async () => {
    const off = handlers(SAVED);
    await off.loop['loop.start']({ config: { repo: '/srv/app', check: 'npm test', research: { enabled: false } }, resume: false, restart: false });
    expect(off.calls[0]?.[1]).not.toHaveProperty('provider');
    const none = handlers(null);
    await none.loop['loop.start']({ config: { repo: '/srv/app' }, resume: true, restart: false, provider: SAVED });
    expect(none.calls[0]?.[1]).toEqual({ config: { repo: '/srv/app' }, resume: true, restart: false });
  });
});
