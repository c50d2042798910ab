import { describe, expect, it } from 'vitest';
import type { HeldRequest } from '../../../../../extension/background/egress/egress-guard';
import { type TaskEgress, heldDuring } from '../../../../../extension/background/egress/task-egress';

const request: HeldRequest = {
  id: 'r',
  url: 'https://evil.test/collect',
  address: 'https://evil.test/collect',
  origin: 'https://evil.test',
  withQuery: false,
  method: 'GET',
  type: 'main_frame',
  fields: [],
  tabId: 9,
  newTab: true,
  formData: null,
  rawBody: false,
  at: 0,
  taskId: 't',
};

/** An egress whose guard holds a request from `heldAt` ms on (never when undefined), on a clock that sleeps exactly. */
function egressHolding(heldAt: number | undefined): { egress: TaskEgress; clock: () => number } {
  let now = 0;
  const egress = {
    taskId: 't',
    guard: { heldSince: () => (heldAt !== undefined && now >= heldAt ? request : undefined) },
    now: () => now,
    sleep: (ms: number) => {
      now += ms;
      return Promise.resolve();
    },
  } as unknown as TaskEgress;
  return { egress, clock: () => now };
}

describe('what the egress guard held during an action', () => {
  // Every case: whether the action may open a window, how many the browser saw it open (unknown where not watched),
  // and when the guard holds a request (at once, a moment later, after the grace, never).
  const cases = [true, false].flatMap((mayOpenWindow) =>
    [undefined, 0, 1].flatMap((openedTabs) => [0, 60, 400, undefined].map((heldAt) => ({ mayOpenWindow, openedTabs, heldAt }))),
  );

  it.each(cases)('may open a window $mayOpenWindow, opened $openedTabs, held at $heldAt ms', async ({ mayOpenWindow, openedTabs, heldAt }) => {
    const { egress, clock } = egressHolding(heldAt);
    const found = await heldDuring(egress, 0, 7, mayOpenWindow, openedTabs);
    // A window that may have been opened is waited for (up to the grace), unless the browser saw none opened.
    const waits = mayOpenWindow && openedTabs !== 0;
    if (heldAt === 0) {
      expect(found).toBe(request);
      expect(clock()).toBe(0);
    } else if (waits && heldAt !== undefined && heldAt <= 250) {
      // The wait ends as soon as the guard holds the new window's request, not at the end of the grace.
      expect(found).toBe(request);
      expect(clock()).toBeGreaterThanOrEqual(heldAt);
      expect(clock()).toBeLessThan(heldAt + 30);
    } else {
      expect(found).toBeUndefined();
      expect(clock()).toBe(waits ? 250 : 0);
    }
  });

  it('asks about a request carrying a secret first, whenever it was made', async () => {
    const { egress } = egressHolding(undefined);
    const secret = { ...request, id: 'secret' };
    const found = await heldDuring({ ...egress, secrets: { takeHeld: () => secret } } as unknown as TaskEgress, 0, 7, true, 0);
    expect(found).toBe(secret);
  });
});
