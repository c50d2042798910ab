import { describe, expect, it } from 'vitest';
import { blockedReason } from '../../../../extension/background/page-notices';
import { createTabEnvironment, type TabEnvironmentDeps } from '../../../../extension/background/tab-environment';
import type { TabState } from '../../../../extension/platform/tab-control';
import { AppError } from '../../../../shared/errors';

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

  it('knows which pages no extension may read', () => {
    expect(blockedReason('https://example.com/')).toBeNull();
    expect(blockedReason('file:///home/ada/page.html')).toBeNull();
    expect(blockedReason('https://chromewebstore.google.com/detail/x')).toMatch(/extension store/);
    expect(blockedReason('edge://settings')).toMatch(/page of the browser itself/);
    expect(blockedReason('view-source:https://a.test/')).toBe('extensions may not read view-source pages');
  });
});
