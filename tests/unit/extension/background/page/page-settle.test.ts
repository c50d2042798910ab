import { describe, expect, it } from 'vitest';
import { settleTab, type SettlePorts } from '../../../../../extension/background/page/page-settle';
import type { TabState } from '../../../../../extension/platform/tab-control';

/** A tab on a fake clock: its status, its open requests and its DOM change as the test's timeline says. */
function fakePorts(timeline: { loadedAt?: number; answeredAt?: number; quietAfterMs?: number } = {}) {
  let now = 0;
  const calls = { sleeps: 0, domQuiet: [] as { capMs: number; graceFrames: number }[] };
  const tab = (): TabState => ({ id: 1, url: 'https://spa.test/', title: 'App', status: now >= (timeline.loadedAt ?? 0) ? 'complete' : 'loading', active: true, windowId: 1 });
  const ports: SettlePorts = {
    tabState: () => Promise.resolve(tab()),
    inFlight: () => (timeline.answeredAt !== undefined && now < timeline.answeredAt ? 1 : 0),
    domQuiet: (_tabId, options) => {
      calls.domQuiet.push(options);
      now += timeline.quietAfterMs ?? 0;
      return Promise.resolve({ mutations: timeline.quietAfterMs ? 12 : 0, timedOut: false });
    },
    sleep: (ms) => {
      calls.sleeps += 1;
      now += ms;
      return Promise.resolve();
    },
    now: () => now,
  };
  return { ports, calls };
}

const LIMITS = { loadCapMs: 15_000, quietCapMs: 3000 };

describe('settleTab', () => {
  it('settles at once when the page is loaded and waits for nothing, with no fixed wait', async () => {
    const { ports, calls } = fakePorts();
    expect(await settleTab(ports, 1, LIMITS)).toMatchObject({ loaded: true, quiet: true, waitedMs: 0 });
    expect(calls).toEqual({ sleeps: 0, domQuiet: [] });
  });

  it('waits for a page to load, then for the answers it asked for, then for the DOM to go quiet', async () => {
    const { ports, calls } = fakePorts({ loadedAt: 2000, answeredAt: 3000, quietAfterMs: 200 });
    const settled = await settleTab(ports, 1, LIMITS);
    expect(settled).toMatchObject({ loaded: true, quiet: true });
    // 2 s to load, 1 s for the data, 0.2 s for the app to render it.
    expect(settled.waitedMs).toBe(3200);
    expect(calls.domQuiet).toEqual([{ capMs: 2000, graceFrames: 2 }]);
    // The trace says where the wait went, and the parts add up to it.
    expect(settled.parts).toEqual({ loading: 2000, requests: 1000, script: 0, quiet: 200 });
  });

  it('hands the look the answers the browser saw, so the page is looked at once it holds them, not frames after the network', async () => {
    // A button that posts with fetch and navigates once answered: the browser reports the answer before the page's
    // script has it (on a busy machine, frames before): the look is told which answers to wait for.
    const { ports, calls } = fakePorts({ answeredAt: 1500 });
    ports.answered = () => (ports.now() >= 1500 ? ['https://shop.test/api/pay'] : []);
    const settled = await settleTab(ports, 1, LIMITS);
    expect(settled).toMatchObject({ loaded: true, quiet: true });
    expect(calls.domQuiet).toEqual([{ capMs: 1500, graceFrames: 2, answered: ['https://shop.test/api/pay'] }]);
  });

  it('waits for the page a navigation loads when the page began it on an answer, while it was being looked at', async () => {
    // Placed by fetch: the answer comes at 1.5 s, the page goes to its receipt on it, and the receipt loads by 4 s.
    const { ports, calls } = fakePorts({ answeredAt: 1500 });
    const tabState = ports.tabState.bind(ports);
    let navigatedAt: number | undefined;
    const domQuiet = ports.domQuiet.bind(ports);
    ports.domQuiet = async (tabId, options) => {
      const dom = await domQuiet(tabId, options);
      navigatedAt ??= ports.now();
      return dom;
    };
    ports.tabState = async (id) => {
      const tab = await tabState(id);
      if (navigatedAt === undefined || tab === undefined) return tab;
      return ports.now() < 4000 ? { ...tab, status: 'loading' } : { ...tab, url: 'https://spa.test/receipt' };
    };
    const settled = await settleTab(ports, 1, LIMITS);
    expect(settled).toMatchObject({ loaded: true, quiet: true, sawLoading: true, tab: { url: 'https://spa.test/receipt' } });
    expect(settled.waitedMs).toBeGreaterThanOrEqual(4000);
    // The receipt is looked at too, once it has loaded.
    expect(calls.domQuiet.length).toBe(2);
  });

  it("counts the wait for a new page's script apart from its loading and its going quiet", async () => {
    const { ports } = fakePorts({ loadedAt: 1000, quietAfterMs: 40 });
    const domQuiet = ports.domQuiet.bind(ports);
    ports.domQuiet = async (tabId, options) => (ports.now() < 1300 ? undefined : domQuiet(tabId, options));
    const settled = await settleTab(ports, 1, LIMITS);
    const parts = settled.parts ?? { loading: 0, requests: 0, script: 0, quiet: 0 };
    expect(parts).toMatchObject({ loading: 1000, requests: 0, quiet: 40 });
    expect(parts.script).toBeGreaterThanOrEqual(300);
    expect(parts.loading + parts.requests + parts.script + parts.quiet).toBe(settled.waitedMs);
  });

  it('gives up at the load cap and says the page is still loading', async () => {
    const { ports } = fakePorts({ loadedAt: 25_000 });
    expect(await settleTab(ports, 1, LIMITS)).toMatchObject({ loaded: false, quiet: false, waitedMs: 15_000 });
  });

  it('counts a page that was requested but not answered yet as loading, though the tab still shows the old one', async () => {
    const { ports } = fakePorts();
    let requested = true;
    ports.documentRequested = () => requested;
    const { sleep, now } = { sleep: ports.sleep.bind(ports), now: ports.now.bind(ports) };
    ports.sleep = async (ms) => {
      await sleep(ms);
      requested = now() < 500;
    };
    expect((await settleTab(ports, 1, LIMITS)).waitedMs).toBe(500);
  });

  it('stops waiting for answers at the quiet cap (a long poll that never ends counts as quiet by then)', async () => {
    const { ports } = fakePorts({ answeredAt: 60_000 });
    expect(await settleTab(ports, 1, LIMITS)).toMatchObject({ loaded: true, quiet: false, waitedMs: 3000 });
  });

  it('does not wait again for the end of a page that was already loading before the action (HTML that streams)', async () => {
    const { ports } = fakePorts({ loadedAt: 25_000 });
    expect(await settleTab(ports, 1, { ...LIMITS, alreadyLoading: true })).toMatchObject({ loaded: true, sawLoading: false, waitedMs: 0 });
    // A new page the action asked for is still waited for.
    ports.documentRequested = () => ports.now() < 800;
    expect(await settleTab(ports, 1, { ...LIMITS, alreadyLoading: true })).toMatchObject({ loaded: true, sawLoading: true, waitedMs: 800 });
  });
  it('looks at a page that loaded during the settle before calling it quiet: the fetch its load handler started is seen late', async () => {
    // The tab reports it has loaded before the request its load handler sent reaches the background (a busy machine):
    // the request becomes visible only once the page has been looked at, and is then waited for.
    const { ports, calls } = fakePorts({ loadedAt: 1000 });
    let looked = false;
    const domQuiet = ports.domQuiet.bind(ports);
    ports.domQuiet = async (tabId, options) => {
      looked = true;
      return domQuiet(tabId, options);
    };
    ports.inFlight = () => (looked && ports.now() < 2500 ? 1 : 0);
    const settled = await settleTab(ports, 1, LIMITS);
    expect(settled).toMatchObject({ loaded: true, quiet: true, sawLoading: true });
    expect(settled.waitedMs).toBeGreaterThanOrEqual(2500);
    expect(calls.domQuiet.length).toBe(2);
  });

  it('does not look again at a page that was already loaded when the action began (a click that changed nothing)', async () => {
    const { ports, calls } = fakePorts();
    expect(await settleTab(ports, 1, LIMITS)).toMatchObject({ loaded: true, quiet: true, sawLoading: false, waitedMs: 0 });
    expect(calls.domQuiet).toEqual([]);
  });
  it("asks a new page again until its script answers, then waits for the requests its load handler sent", async () => {
    // On a busy machine the tab reports 'complete' before the content script of the new document answers and before
    // the request its load handler sent is seen: neither the first look's silence nor the empty request list is quiet.
    const { ports, calls } = fakePorts({ loadedAt: 1000 });
    const domQuiet = ports.domQuiet.bind(ports);
    ports.domQuiet = async (tabId, options) => (ports.now() < 1400 ? (calls.domQuiet.push(options), undefined) : domQuiet(tabId, options));
    ports.inFlight = () => (ports.now() >= 1400 && ports.now() < 2600 ? 1 : 0);
    const settled = await settleTab(ports, 1, LIMITS);
    expect(settled).toMatchObject({ loaded: true, quiet: true, sawLoading: true });
    expect(settled.waitedMs).toBeGreaterThanOrEqual(2600);
  });

  it('gives up asking a page whose script never answers at the quiet cap, and says it is not quiet', async () => {
    const { ports } = fakePorts({ loadedAt: 500 });
    ports.domQuiet = () => Promise.resolve(undefined);
    expect(await settleTab(ports, 1, LIMITS)).toMatchObject({ loaded: true, quiet: false, waitedMs: 3500 });
  });
  it("settles the browser's error page at once: it never answers, and is not asked again", async () => {
    const { ports } = fakePorts({ loadedAt: 500 });
    ports.domQuiet = () => Promise.resolve(undefined);
    ports.showsError = () => Promise.resolve(true);
    expect(await settleTab(ports, 1, LIMITS)).toMatchObject({ loaded: true, quiet: true, waitedMs: 500 });
  });
});
