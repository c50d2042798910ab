import { describe, expect, it } from 'vitest';
import { changeCounter } from '../../../../extension/platform/tab-changes';
import { settleTab, type SettlePorts } from '../../../../extension/background/page/page-settle';
import type { TabState } from '../../../../extension/platform/tab-control';

describe('changeCounter', () => {
  it('wakes a waiter on the next event, and at once for an event after the version it read', async () => {
    const changes = changeCounter();
    const seen = changes.version();
    changes.bump();
    // The event came between the look and the wait: the wait does not start.
    await changes.next(seen, 60_000);
    let woke = false;
    const waiting = changes.next(changes.version(), 60_000).then(() => (woke = true));
    await Promise.resolve();
    expect(woke).toBe(false);
    changes.bump();
    await waiting;
    expect(woke).toBe(true);
  });

  it('ends a wait with no event at its time limit, and every wait on stop', async () => {
    const changes = changeCounter();
    const started = Date.now();
    await changes.next(changes.version(), 30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const waiting = changes.next(changes.version(), 60_000);
    changes.stop();
    await waiting;
  });
});

describe('settleTab on the tab events', () => {
  it('waits for the load event instead of polling, and looks once it comes', async () => {
    const changes = changeCounter();
    let status = 'loading';
    let looks = 0;
    const ports: SettlePorts = {
      tabState: () => {
        looks += 1;
        return Promise.resolve({
          id: 1,
          url: 'https://shop.test/',
          title: 'Shop',
          status,
          active: true,
          windowId: 1,
        } satisfies TabState);
      },
      domQuiet: () => Promise.resolve({ mutations: 0, timedOut: false }),
      changes,
      sleep: () => Promise.reject(new Error('no polling when the events are there')),
      now: Date.now,
    };
    const settling = settleTab(ports, 1, { loadCapMs: 15_000, quietCapMs: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Only the first look: nothing happened, so nothing is looked at again.
    expect(looks).toBe(1);
    status = 'complete';
    changes.bump();
    const settled = await settling;
    expect(settled).toMatchObject({ loaded: true, sawLoading: true, quiet: true });
  });
});
