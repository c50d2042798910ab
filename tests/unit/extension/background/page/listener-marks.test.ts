import { describe, expect, it } from 'vitest';
import { LISTENER_SEARCH_MS, markListeners } from '../../../../../extension/background/page/listener-marks';

/** A debugger that lists `count` click listeners, each call moving a fake clock on by `callMs`. */
function fakeDebugger(count: number, listingMs: number) {
  let clock = 0;
  const handed: unknown[][] = [];
  const send = (method: string, params: Record<string, unknown>): Promise<unknown> => {
    switch (method) {
      case 'Runtime.evaluate':
        return Promise.resolve({ result: { objectId: 'doc' } });
      case 'DOMDebugger.getEventListeners':
        clock += listingMs;
        return Promise.resolve({ listeners: Array.from({ length: count }, (_, i) => ({ type: 'click', backendNodeId: i + 1 })) });
      case 'DOM.resolveNode':
        clock += 1;
        return Promise.resolve({ object: { objectId: `node-${String(params.backendNodeId)}` } });
      case 'Runtime.callFunctionOn':
        handed.push(params.arguments as unknown[]);
        return Promise.resolve({ result: { value: (params.arguments as unknown[]).length } });
      default:
        return Promise.resolve({});
    }
  };
  return { send, now: () => clock, handed };
}

describe('markListeners', () => {
  it('hands over the listened-to elements of a page even when listing them alone took the whole budget', async () => {
    // On a busy machine the listing can take longer than the budget: the search must not hand over an empty set,
    // which would replace the last search's marks and leave the page's span buttons and cells unnumbered.
    const fake = fakeDebugger(48, LISTENER_SEARCH_MS + 200);
    const search = await markListeners(fake.send, fake.now);
    expect(fake.handed).toHaveLength(1);
    expect(fake.handed[0]).toHaveLength(48);
    expect(search).toMatchObject({ marked: 48, listened: 48, complete: true });
  });

  it('stops resolving at its budget on a page with more listeners than one batch, and says it is incomplete', async () => {
    const fake = fakeDebugger(1000, LISTENER_SEARCH_MS + 200);
    const search = await markListeners(fake.send, fake.now);
    expect(fake.handed[0]?.length).toBeGreaterThan(0);
    expect(fake.handed[0]?.length).toBeLessThan(1000);
    expect(search?.complete).toBe(false);
  });
});
