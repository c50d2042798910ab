import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as NavigationErrors from '../../../../extension/platform/navigation-errors';

vi.mock('../../../../extension/platform/browser', () => ({ browser: { tabs: { onRemoved: { addListener: () => undefined } } } }));

type Listener = (details: { tabId: number; frameId: number; url: string; error?: string }) => void;

/** chrome.webNavigation as the module uses it: its two events, and the frame's state the browser reports. */
function fakeWebNavigation() {
  const listeners: { error: Listener[]; committed: Listener[] } = { error: [], committed: [] };
  const frame = { url: '', errorOccurred: false };
  (globalThis as unknown as { chrome: unknown }).chrome = {
    webNavigation: {
      onErrorOccurred: { addListener: (l: Listener) => listeners.error.push(l) },
      onCommitted: { addListener: (l: Listener) => listeners.committed.push(l) },
      getFrame: () => Promise.resolve(frame),
    },
  };
  return {
    fail(url: string, error: string, frameId = 0) {
      Object.assign(frame, { url, errorOccurred: true });
      for (const l of listeners.error) l({ tabId: 1, frameId, url, error });
    },
    commit(url: string) {
      Object.assign(frame, { url, errorOccurred: false });
      for (const l of listeners.committed) l({ tabId: 1, frameId: 0, url });
    },
  };
}

describe('loadFailure', () => {
  let nav: ReturnType<typeof fakeWebNavigation>;
  let mod: typeof NavigationErrors;
  beforeEach(async () => {
    vi.resetModules();
    nav = fakeWebNavigation();
    mod = await import('../../../../extension/platform/navigation-errors');
    mod.trackNavigationErrors();
  });

  it('says why the page failed, as the browser said it', async () => {
    nav.fail('http://shop.test:9/', 'net::ERR_CONNECTION_REFUSED');
    expect(await mod.loadFailure(1)).toEqual({ url: 'http://shop.test:9/', error: 'net::ERR_CONNECTION_REFUSED' });
  });

  it("keeps the first cause when the error page's retry of the same address is cancelled (net::ERR_ABORTED)", async () => {
    nav.fail('http://shop.test:9/', 'net::ERR_CONNECTION_REFUSED');
    nav.fail('http://shop.test:9/', 'net::ERR_ABORTED');
    expect(await mod.loadFailure(1)).toEqual({ url: 'http://shop.test:9/', error: 'net::ERR_CONNECTION_REFUSED' });
  });

  it('reports an aborted load of another address, and forgets a cause once a page has loaded', async () => {
    nav.fail('http://shop.test:9/', 'net::ERR_CONNECTION_REFUSED');
    nav.fail('http://other.test/', 'net::ERR_ABORTED');
    expect(await mod.loadFailure(1)).toEqual({ url: 'http://other.test/', error: 'net::ERR_ABORTED' });
    nav.commit('http://shop.test/');
    expect(await mod.loadFailure(1)).toBeUndefined();
    nav.fail('http://shop.test:9/', 'net::ERR_ABORTED');
    expect(await mod.loadFailure(1)).toEqual({ url: 'http://shop.test:9/', error: 'net::ERR_ABORTED' });
  });

  it("ignores a frame's failure: only the top page's load counts", async () => {
    nav.fail('http://ads.test/', 'net::ERR_BLOCKED_BY_CLIENT', 3);
    nav.commit('http://shop.test/');
    expect(await mod.loadFailure(1)).toBeUndefined();
  });
});
