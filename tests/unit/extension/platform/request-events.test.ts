import { describe, expect, it } from 'vitest';
import {
  createRequestEvents,
  type RequestEvent,
  type RequestEventSource,
} from '../../../../extension/platform/request-events';

type Listener = (details: RequestEvent) => void;

/** chrome.webRequest's three events, counting every listener added and removed (each one clears the browser's caches). */
function fakeSources() {
  const calls = { added: 0, removed: 0 };
  const listeners = new Map<Listener, number>();
  const source = (): RequestEventSource & { fire(tabId: number, details: RequestEvent): void } => {
    const own = new Map<Listener, number>();
    return {
      addListener(listener, filter) {
        calls.added += 1;
        own.set(listener, filter.tabId);
        listeners.set(listener, filter.tabId);
      },
      removeListener(listener) {
        calls.removed += 1;
        own.delete(listener);
        listeners.delete(listener);
      },
      fire(tabId, details) {
        for (const [listener, tab] of own) if (tab === tabId) listener(details);
      },
    };
  };
  const sources = { onBeforeRequest: source(), onCompleted: source(), onErrorOccurred: source() };
  return { sources, calls, live: () => listeners.size };
}

const request = (id: string): RequestEvent => ({
  requestId: id,
  type: 'xmlhttprequest',
  frameId: 0,
  url: `https://shop.test/${id}`,
  method: 'GET',
});

describe('the tabs’ shared request listeners', () => {
  it("adds a tab's listeners once for every watch of it, and removes them when the last watch of a tab no task keeps ends", () => {
    const fake = fakeSources();
    const events = createRequestEvents(() => fake.sources);
    const heard: string[] = [];
    const first = events.subscribe(1, { started: (d) => heard.push(`first ${d.requestId}`) });
    const second = events.subscribe(1, { completed: (d) => heard.push(`second ${d.requestId}`) });
    expect(fake.calls.added).toBe(3);
    fake.sources.onBeforeRequest.fire(1, request('a'));
    fake.sources.onCompleted.fire(1, request('a'));
    // Another tab's requests reach none of tab 1's watches.
    fake.sources.onBeforeRequest.fire(2, request('b'));
    expect(heard).toEqual(['first a', 'second a']);
    first();
    expect(fake.calls.removed).toBe(0);
    fake.sources.onBeforeRequest.fire(1, request('c'));
    expect(heard).toEqual(['first a', 'second a']);
    second();
    expect(fake.calls.removed).toBe(3);
    expect(fake.live()).toBe(0);
    expect(events.tabs()).toBe(0);
  });

  it("keeps a task's tab listening between its watches, so a step's waits add and remove none, until the task lets go", () => {
    const fake = fakeSources();
    const events = createRequestEvents(() => fake.sources);
    events.keep('task-1', 1);
    events.keep('task-1', 1);
    events.keep('task-2', 1);
    for (let step = 0; step < 5; step += 1) {
      const stop = events.subscribe(1, {});
      stop();
    }
    expect(fake.calls).toEqual({ added: 3, removed: 0 });
    events.release('task-1');
    expect(fake.calls.removed).toBe(0);
    // A watch still on keeps them past the last task's release, and takes them down when it ends.
    const stop = events.subscribe(1, {});
    events.release('task-2');
    expect(fake.calls.removed).toBe(0);
    stop();
    expect(fake.calls).toEqual({ added: 3, removed: 3 });
    // Releasing a task that kept nothing changes nothing.
    events.release('task-3');
    expect(fake.calls).toEqual({ added: 3, removed: 3 });
  });

  it('gives each subscription its own turn even when two share one handlers object, and does nothing without webRequest', () => {
    const fake = fakeSources();
    const events = createRequestEvents(() => fake.sources);
    let count = 0;
    const handlers = { started: () => (count += 1) };
    const a = events.subscribe(1, handlers);
    const b = events.subscribe(1, handlers);
    fake.sources.onBeforeRequest.fire(1, request('a'));
    expect(count).toBe(2);
    a();
    fake.sources.onBeforeRequest.fire(1, request('b'));
    expect(count).toBe(3);
    b();
    const none = createRequestEvents(() => undefined);
    none.keep('task-1', 1);
    none.subscribe(1, handlers)();
    expect(none.tabs()).toBe(0);
  });
});
