import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchAnswers } from '../../../../../extension/content/actions/answer-log';

/**
 * A window whose resource timing the test writes: entries reach the page (and the observer's queue) when the test says
 * the page received an answer, as Chrome adds them once the whole answer is in the page.
 */
function fakeWindow(buffered: { name: string; responseEnd: number }[] = []) {
  let clock = 0;
  let queued: { name: string; responseEnd: number }[] = [];
  let callback: ((list: { getEntries: () => PerformanceEntryList }) => void) | undefined;
  class FakeObserver {
    constructor(cb: typeof callback) {
      callback = cb;
    }
    observe(options: { type: string; buffered?: boolean }): void {
      if (options.type === 'resource' && options.buffered) queued.push(...buffered);
    }
    takeRecords(): PerformanceEntryList {
      const taken = queued;
      queued = [];
      return taken as unknown as PerformanceEntryList;
    }
  }
  const win = { PerformanceObserver: FakeObserver, performance: { now: () => clock } } as unknown as Window;
  return {
    win,
    at: (ms: number) => void (clock = ms),
    /** The page received an answer at `responseEnd`; the observer's callback comes later or never. */
    receive: (name: string, responseEnd: number) => void queued.push({ name, responseEnd }),
    deliver: () => callback?.({ getEntries: () => queued.splice(0) as unknown as PerformanceEntryList }),
  };
}

describe('watchAnswers', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits until the page holds every answer the background saw, by address and count', async () => {
    const page = fakeWindow();
    const log = watchAnswers(page.win);
    let done: boolean | undefined;
    void log.received(['https://shop.test/api/pay', 'https://shop.test/api/cart', 'https://shop.test/api/cart'], 5000).then((got) => (done = got));
    await vi.advanceTimersByTimeAsync(200);
    expect(done).toBeUndefined();
    page.receive('https://shop.test/api/pay', 10);
    page.receive('https://shop.test/api/cart#top', 12);
    await vi.advanceTimersByTimeAsync(200);
    // One answer to the cart is still on its way to the page.
    expect(done).toBeUndefined();
    page.receive('https://shop.test/api/cart', 15);
    await vi.advanceTimersByTimeAsync(40);
    expect(done).toBe(true);
  });

  it('counts only answers received since the action began, and those the observer was already handed', async () => {
    const page = fakeWindow([{ name: 'https://shop.test/api/pay', responseEnd: 1 }]);
    const log = watchAnswers(page.win);
    // The answer from before the page's script ran counts for a look that is not about an action (a new page's load).
    await expect(log.received(['https://shop.test/api/pay'], 0)).resolves.toBe(true);
    page.at(100);
    log.actionBegins();
    page.receive('https://shop.test/api/pay', 50);
    page.deliver();
    // The same address asked again by the action: its earlier answers are not this one.
    let done: boolean | undefined;
    void log.received(['https://shop.test/api/pay'], 1000).then((got) => (done = got));
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toBeUndefined();
    page.receive('https://shop.test/api/pay', 120);
    page.deliver();
    await vi.advanceTimersByTimeAsync(40);
    expect(done).toBe(true);
  });

  it('gives up at the cap and says so, and asks nothing of a page with no answers to wait for', async () => {
    const page = fakeWindow();
    const log = watchAnswers(page.win);
    await expect(log.received([], 0)).resolves.toBe(true);
    const late = log.received(['https://shop.test/slow'], 300);
    await vi.advanceTimersByTimeAsync(400);
    await expect(late).resolves.toBe(false);
  });
});
