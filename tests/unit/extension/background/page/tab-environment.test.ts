import { describe, expect, it, vi } from 'vitest';
import { blockedReason } from '../../../../../extension/background/page/page-notices';
import type { HeldRequest } from '../../../../../extension/background/egress/egress-guard';
import { createTabEnvironment, type TabEnvironmentDeps } from '../../../../../extension/background/page/tab-environment';
import type { TabState } from '../../../../../extension/platform/tab-control';
import { AppError } from '../../../../../shared/errors';

function environment(tab: Partial<TabState>, page: Partial<TabEnvironmentDeps> = {}) {
  const state: TabState = { id: 7, url: 'https://shop.test/', title: 'Shop', status: 'complete', active: true, windowId: 1, ...tab };
  const deps: TabEnvironmentDeps = {
    page: {
      snapshot: () => Promise.resolve({ text: 'Page: Shop — https://shop.test/\n[1] button "Buy"', url: state.url, title: state.title, elements: [], tokens: 10 }),
      act: () => Promise.resolve({ ok: true, message: 'ok', changed: true, evidence: [] }),
      restoreRefs: () => 0,
      effect: () => Promise.resolve(undefined),
      settle: () => Promise.resolve({ tab: { ...state }, loaded: true, waitedMs: 0, sawLoading: false, quiet: true }),
    },
    tabState: () => Promise.resolve({ ...state }),
    listWindowTabs: () => Promise.resolve([{ ...state }]),
    sleep: () => Promise.resolve(),
    capture: () => Promise.resolve(undefined),
    readyTimeoutMs: 0,
    ...page,
  };
  return createTabEnvironment(deps, 7);
}

describe('what the model is shown of a tab', () => {
  it('tells it about a browser page it cannot read (the New Tab page, a blank tab) and to navigate, instead of failing', async () => {
    const shown = await environment({ url: 'chrome://newtab/', title: 'New Tab' }).observe({ screenshot: false });
    expect(shown).toMatchObject({ status: 'blocked', url: 'chrome://newtab/', elements: [] });
    expect(shown.text).toBe(
      'Page: New Tab — chrome://newtab/\n(Deputy cannot read or act on this page: it is a page of the browser itself (chrome://newtab/), which no extension may read. Use navigate to open the web page the task needs.)',
    );
    expect((await environment({ url: 'about:blank#deputy-1', title: '' }).observe({ screenshot: false })).text).toContain('the tab is blank');
  });

  it('says why a page could not be loaded', async () => {
    const shown = await environment({}, { loadFailure: () => Promise.resolve({ url: 'https://shop.test/', error: 'net::ERR_CONNECTION_REFUSED' }) }).observe({ screenshot: false });
    expect(shown.status).toBe('unreachable');
    expect(shown.text).toContain('This page could not be loaded: net::ERR_CONNECTION_REFUSED (https://shop.test/)');
  });

  it('shows a page that is still loading as far as it has come, and says so under the first line', async () => {
    const shown = await environment({ status: 'loading' }).observe({ screenshot: false });
    expect(shown.status).toBe('loading');
    expect(shown.text.split('\n')).toEqual([
      'Page: Shop — https://shop.test/',
      '(The page is still loading: what follows is what it shows so far. Use wait to give it more time, or go on with what is here.)',
      '[1] button "Buy"',
    ]);
  });

  it('reports a loading page that cannot answer yet as loading, and a closed tab as the end', async () => {
    const silent = {
      page: {
        snapshot: () => Promise.reject(new AppError('unavailable', 'The page does not answer')),
        act: () => Promise.reject(new Error('no')),
        restoreRefs: () => 0,
        effect: () => Promise.resolve(undefined),
        settle: () => Promise.reject(new Error('no')),
      },
    };
    expect((await environment({ status: 'loading' }, silent).observe({ screenshot: false })).status).toBe('loading');
    await expect(environment({}, { tabState: () => Promise.resolve(undefined) }).observe({ screenshot: false })).rejects.toThrow('The tab the task worked in was closed.');
  });

  it('takes the screenshot to keep beside the snapshot when told to, hands it over once, and takes a new one after', async () => {
    const order: string[] = [];
    let shots = 0;
    let readPage: () => void = () => undefined;
    const env = environment(
      {},
      {
        capture: () => {
          shots += 1;
          order.push(`capture ${shots}`);
          return Promise.resolve({ mediaType: 'image/jpeg', base64: `shot-${shots}` });
        },
        page: {
          snapshot: () => {
            order.push('snapshot begun');
            return new Promise((resolve) => (readPage = () => resolve({ text: 'Page: Shop — https://shop.test/', url: 'https://shop.test/', title: 'Shop', elements: [], tokens: 3 })));
          },
          act: () => Promise.resolve({ ok: true, message: 'ok', changed: true, evidence: [] }),
          restoreRefs: () => 0,
          effect: () => Promise.resolve(undefined),
          settle: () => Promise.reject(new Error('not used')),
        },
      },
    );
    const looked = env.observe({ screenshot: false, keep: true });
    await vi.waitFor(() => expect(order).toContain('snapshot begun'));
    // The capture is under way before the snapshot is in: the step does not wait for it after.
    expect(order).toEqual(['capture 1', 'snapshot begun']);
    readPage();
    expect((await looked).screenshot).toBeUndefined();
    expect(await env.capture?.()).toEqual({ mediaType: 'image/jpeg', base64: 'shot-1' });
    expect(await env.capture?.()).toEqual({ mediaType: 'image/jpeg', base64: 'shot-2' });
    // A look not told to keep takes none beside its snapshot.
    const plain = env.observe({ screenshot: false });
    await vi.waitFor(() => expect(order.filter((o) => o === 'snapshot begun')).toHaveLength(2));
    readPage();
    await plain;
    expect(shots).toBe(2);
  });

  it('knows which pages no extension may read', () => {
    expect(blockedReason('https://example.com/')).toBeNull();
    expect(blockedReason('file:///home/ada/page.html')).toBeNull();
    expect(blockedReason('https://chromewebstore.google.com/detail/x')).toMatch(/extension store/);
    expect(blockedReason('edge://settings')).toMatch(/page of the browser itself/);
    expect(blockedReason('view-source:https://a.test/')).toBe('extensions may not read view-source pages');
  });
});

describe("the task's tabs and what the egress guard held", () => {
  const shop: TabState = { id: 7, url: 'https://shop.test/', title: 'Shop', status: 'complete', active: true, windowId: 1 };
  const bank: TabState = { id: 8, url: 'https://bank.test/', title: 'My bank — balance', status: 'complete', active: false, windowId: 1 };
  const popup: TabState = { id: 9, url: 'https://evil.test/collect?x=1', title: 'Blocked', status: 'complete', active: false, windowId: 1 };

  function guarded(held: Partial<HeldRequest> | null = null) {
    const acts: [number, Record<string, unknown>][] = [];
    const resent: [number, string][] = [];
    const adopted: number[] = [];
    const released: string[] = [];
    const request: HeldRequest | undefined = held
      ? { id: 'h1', url: 'https://evil.test/collect?x=1', address: 'https://evil.test/collect', origin: 'https://evil.test', withQuery: true, method: 'GET', type: 'main_frame', fields: [], tabId: 7, newTab: false, formData: null, rawBody: false, at: 0, taskId: 't', ...held }
      : undefined;
    let tabs = [shop, bank, popup];
    const deps: TabEnvironmentDeps = {
      page: {
        snapshot: () => Promise.resolve({ text: 'Page: Shop — https://shop.test/\n[1] link "Track"', url: shop.url, title: shop.title, elements: [], tokens: 10 }),
        act: (tabId, action) => {
          acts.push([tabId, action]);
          if ((action as { kind: string }).kind === 'tab_close') tabs = tabs.filter((t) => t.id !== (action as { tabId: number }).tabId);
          return Promise.resolve({ ok: true, message: `did ${(action as { kind: string }).kind}`, changed: true, evidence: [] });
        },
        restoreRefs: () => 0,
        effect: () => Promise.resolve(undefined),
        settle: () => Promise.resolve({ tab: shop, loaded: true, waitedMs: 0, sawLoading: false, quiet: true }),
      },
      tabState: (id) => Promise.resolve(tabs.find((t) => t.id === id)),
      listWindowTabs: () => Promise.resolve(tabs),
      sleep: () => Promise.resolve(),
      capture: () => Promise.resolve(undefined),
      egress: {
        taskId: 't',
        guard: {
          setScope: () => Promise.resolve(),
          adopt: (_taskId, tabId) => {
            adopted.push(tabId);
            return Promise.resolve();
          },
          tabsOf: () => [7, 9],
          heldSince: () => request,
          unreported: () => [],
          release: (id) => void released.push(id),
          watchNewTabs: () => Promise.resolve(() => Promise.resolve()),
        },
        resubmit: (tabId, url) => {
          resent.push([tabId, url]);
          return Promise.resolve(true);
        },
        now: () => 1,
        sleep: () => Promise.resolve(),
      },
    };
    return { env: createTabEnvironment(deps, 7), acts, resent, adopted, released };
  }

  it("shows the task's own tabs with their addresses, counts the user's, and lists their titles only on request", async () => {
    const { env } = guarded();
    const seen = await env.observe({ screenshot: false });
    expect(seen.tabs?.map((t) => t.id)).toEqual([7, 9]);
    expect(seen.otherTabs).toBe(1);
    expect(JSON.stringify(seen)).not.toContain('bank.test');
    const listed = await env.act({ kind: 'tab_list' }, {});
    expect(listed.evidence).toEqual([
      "tab 7 (the task's, current): Shop — https://shop.test/",
      "tab 9 (the task's): Blocked — https://evil.test/collect?x=1",
      'tab 8: My bank — balance',
    ]);
  });

  it('reports a held page load with the action, without its query, and puts the tab back when refused', async () => {
    const { env, acts, released } = guarded({});
    const outcome = await env.act({ kind: 'click', ref: 1, double: false }, {});
    expect(outcome.blocked).toEqual({ id: 'h1', address: 'https://evil.test/collect', origin: 'https://evil.test', withQuery: true, method: 'GET', type: 'main_frame', fields: [], tabId: 7, newTab: false });
    const blocked = outcome.blocked;
    if (!blocked) throw new Error('nothing held');
    // The tab shows the error page under the held address (the fake tab 7 says shop): nothing to put back.
    expect((await env.resolveBlocked?.(blocked, false, {}))?.message).toBe('the page stays as it was');
    expect(released).toEqual(['h1']);
    expect(acts.map(([, a]) => a.kind)).toEqual(['click']);
  });

  it('approved, opens a held page load again, sends a held form post again from its page, and moves to a new tab', async () => {
    const get = guarded({ tabId: 9, newTab: true });
    const blocked = (await get.env.act({ kind: 'click', ref: 1, double: false }, {})).blocked;
    if (!blocked) throw new Error('nothing held');
    await get.env.resolveBlocked?.(blocked, true, {});
    expect(get.acts.at(-1)).toEqual([9, { kind: 'navigate', url: 'https://evil.test/collect?x=1' }]);
    expect(get.env.currentTabId()).toBe(9);

    const post = guarded({ method: 'POST', fields: ['card'], formData: { card: ['4111'] }, url: 'https://evil.test/collect', withQuery: false });
    const held = (await post.env.act({ kind: 'click', ref: 1, double: false }, {})).blocked;
    if (!held) throw new Error('nothing held');
    expect((await post.env.resolveBlocked?.(held, true, {}))?.message).toBe('sent the form again to https://evil.test/collect');
    expect(post.resent).toEqual([[7, 'https://evil.test/collect']]);

    const refused = guarded({ tabId: 9, newTab: true });
    const popupHeld = (await refused.env.act({ kind: 'click', ref: 1, double: false }, {})).blocked;
    if (!popupHeld) throw new Error('nothing held');
    expect((await refused.env.resolveBlocked?.(popupHeld, false, {}))?.message).toBe('the tab the page opened for it was closed');
    expect(refused.acts.at(-1)).toEqual([9, { kind: 'tab_close', tabId: 9 }]);
  });
});
