import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchTabRequests } from '../../../../extension/platform/network-activity';

type Listener = (details: Record<string, unknown>) => void;

/** chrome.webRequest with its three events, each calling its listeners as the browser would; the filter is the test's. */
function fakeWebRequest() {
  const events = { onBeforeRequest: new Set<Listener>(), onCompleted: new Set<Listener>(), onErrorOccurred: new Set<Listener>() };
  const event = (set: Set<Listener>) => ({ addListener: (listener: Listener) => set.add(listener), removeListener: (listener: Listener) => set.delete(listener) });
  vi.stubGlobal('chrome', { webRequest: { onBeforeRequest: event(events.onBeforeRequest), onCompleted: event(events.onCompleted), onErrorOccurred: event(events.onErrorOccurred) } });
  const fire = (set: Set<Listener>, details: Record<string, unknown>) => set.forEach((listener) => listener(details));
  return {
    begin: (id: string, url: string, type = 'xmlhttprequest', method = 'GET', frameId = 0) => fire(events.onBeforeRequest, { requestId: id, url, type, method, frameId }),
    complete: (id: string, type = 'xmlhttprequest') => fire(events.onCompleted, { requestId: id, type }),
    fail: (id: string, error: string) => fire(events.onErrorOccurred, { requestId: id, error }),
    listeners: () => events.onBeforeRequest.size + events.onCompleted.size + events.onErrorOccurred.size,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('watchTabRequests', () => {
  it("names the top frame's answered requests by the address first asked for, and starts again with a new document", () => {
    const web = fakeWebRequest();
    const watch = watchTabRequests(1);
    web.begin('1', 'https://shop.test/api/pay', 'xmlhttprequest', 'POST');
    // A redirect is the same request: it keeps its first address.
    web.begin('1', 'https://shop.test/api/pay/done');
    web.begin('2', 'https://ads.test/frame.js', 'script', 'GET', 3);
    web.begin('3', 'https://shop.test/app.js', 'script');
    expect(watch.inFlight()).toBe(3);
    web.complete('1');
    web.complete('2');
    web.complete('3');
    // The subframe's script is not the top page's to wait for.
    expect(watch.answered()).toEqual(['https://shop.test/api/pay', 'https://shop.test/app.js']);
    web.begin('4', 'https://shop.test/next', 'main_frame');
    expect(watch.documentRequested()).toBe(true);
    web.complete('4', 'main_frame');
    expect(watch.answered()).toEqual([]);
    watch.stop();
    expect(web.listeners()).toBe(0);
  });

  it('lists the requests that ask a server to change something, with how each ended, and leaves out reads', () => {
    const web = fakeWebRequest();
    const watch = watchTabRequests(1);
    web.begin('1', 'https://shop.test/api/pay?card=4111', 'xmlhttprequest', 'post');
    web.begin('2', 'https://shop.test/api/search?q=kettle');
    web.begin('3', 'https://evil.test/collect', 'xmlhttprequest', 'PUT');
    web.begin('4', 'https://shop.test/api/item/7', 'xmlhttprequest', 'DELETE');
    expect(watch.sent()).toEqual([
      { method: 'POST', url: 'https://shop.test/api/pay', state: 'open' },
      { method: 'PUT', url: 'https://evil.test/collect', state: 'open' },
      { method: 'DELETE', url: 'https://shop.test/api/item/7', state: 'open' },
    ]);
    web.complete('1');
    web.complete('2');
    web.fail('3', 'net::ERR_BLOCKED_BY_CLIENT');
    expect(watch.sent()).toEqual([
      { method: 'POST', url: 'https://shop.test/api/pay', state: 'answered' },
      { method: 'PUT', url: 'https://evil.test/collect', state: 'failed', error: 'net::ERR_BLOCKED_BY_CLIENT' },
      { method: 'DELETE', url: 'https://shop.test/api/item/7', state: 'open' },
    ]);
    watch.stop();
  });
});
