import { AppError } from '../../../shared/errors';
import type { PageAction, PageOutcome } from '../../../shared/perception/page-action';
import type { TabState } from '../../platform/tab-control';
import type { TabChanges } from '../../platform/tab-changes';
import type { Settled } from './page-settle';

/** The chrome.tabs calls the page agent needs, passed in so tests can drive it with fakes. */
export interface TabPorts {
  state(tabId: number): Promise<TabState | undefined>;
  list(windowId: number): Promise<TabState[]>;
  navigate(tabId: number, url: string): Promise<void>;
  back(tabId: number): Promise<void>;
  forward(tabId: number): Promise<void>;
  reload(tabId: number): Promise<void>;
  create(url: string | undefined, windowId: number | undefined): Promise<TabState>;
  activate(tabId: number): Promise<void>;
  close(tabId: number): Promise<void>;
  /** Resolves with the tab once it has finished loading, or undefined after `timeoutMs`. */
  waitForLoad(tabId: number, timeoutMs: number): Promise<TabState | undefined>;
}

type TabAction = Extract<PageAction, { kind: 'navigate' | 'back' | 'forward' | 'reload' | 'tab_new' | 'tab_switch' | 'tab_close' | 'tab_list' }>;

function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('invalid_params', `${JSON.stringify(url)} is not a full address: include the scheme, e.g. https://example.com/`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new AppError('forbidden', `only http and https addresses can be opened, not ${parsed.protocol}`);
  }
  return parsed.href;
}

function isWebPage(url: string): boolean {
  return /^https?:/i.test(url);
}

/** Waits for a tab to settle after a navigation (see settleTab). */
export type SettleTab = (tabId: number) => Promise<Settled>;

/** How long a navigation may take before the model is told the page is still loading, and decides. */
export const NAVIGATION_CAP_MS = 15_000;

async function settled(settle: SettleTab, tabId: number, before: TabState | undefined, verb: string, failure: (tabId: number) => Promise<string | undefined>): Promise<PageOutcome> {
  const after = await settle(tabId);
  const state = after.tab;
  const changed = !!state && (!before || state.url !== before.url || state.title !== before.title);
  const evidence = state ? [`URL is ${state.url}`, `title is ${JSON.stringify(state.title)}`] : [];
  const error = await failure(tabId);
  if (error) {
    // The browser shows its error page: a step the model can react to (retry, another address), not the task's end.
    return { ok: false, message: `${verb}, but the page could not be loaded: ${error}`, changed, evidence };
  }
  if (!after.loaded) evidence.push(`the page is still loading after ${Math.round(after.waitedMs / 1000)} s: what it shows so far is in the snapshot`);
  if (!changed) evidence.push('no visible effect');
  return { ok: true, message: verb, changed, evidence };
}

/**
 * Waits, briefly, until a history navigation shows on the tab: a page restored from the back/forward cache makes no
 * request to watch, and the tab may still show the old address when goBack has returned.
 */
async function historyMoved(deps: TabActionDeps, tabId: number, before: TabState | undefined): Promise<void> {
  // On the tab's events when there are (the next one is a sign to look again), every 25 ms otherwise.
  const changes = deps.watchChanges?.(tabId);
  const deadline = Date.now() + 1000;
  try {
    for (let waited = 0; waited < 1000 && Date.now() < deadline; waited += 25) {
      const seen = changes?.version() ?? 0;
      const now = await deps.tabs.state(tabId);
      if (!now || !before || now.url !== before.url || now.status === 'loading') return;
      await (changes ? changes.next(seen, deadline - Date.now()) : deps.sleep(25));
    }
  } finally {
    changes?.stop();
  }
}

/** What running a tab action needs besides the tabs: how to settle a tab, and why its page failed to load, if it did. */
export interface TabActionDeps {
  tabs: TabPorts;
  sleep: (ms: number) => Promise<void>;
  /** The tab's events, so waits for a history move end on them; polled without. */
  watchChanges?: (tabId: number) => TabChanges;
  settle: SettleTab;
  loadFailure: (tabId: number) => Promise<string | undefined>;
}

/** Navigation and tab management, with the resulting URL and title as evidence. */
export async function runTabAction(deps: TabActionDeps, tabId: number, action: TabAction): Promise<PageOutcome> {
  const { tabs, settle, loadFailure } = deps;
  const before = await tabs.state(tabId);
  switch (action.kind) {
    case 'navigate': {
      const url = checkUrl(action.url);
      await tabs.navigate(tabId, url);
      return settled(settle, tabId, before, `Opened ${url}`, loadFailure);
    }
    case 'back':
    case 'forward':
    case 'reload': {
      try {
        await (action.kind === 'back' ? tabs.back(tabId) : action.kind === 'forward' ? tabs.forward(tabId) : tabs.reload(tabId));
      } catch (error) {
        const why = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
        const hint = action.kind === 'back' ? ' (the task opened this tab here, or the page replaced its history entries by script); open the page you want with navigate' : '';
        throw new AppError('not_found', `cannot go ${action.kind}: ${why}${hint}`);
      }
      if (action.kind !== 'reload') await historyMoved(deps, tabId, before);
      if (action.kind === 'back' && before && isWebPage(before.url)) {
        const landed = await tabs.state(tabId);
        // The entry before the first page of a task is the blank tab it started in (or a browser page): going there
        // leaves the web, so the tab is put back where it was and the model is told why.
        if (landed && !isWebPage(landed.url)) {
          await tabs.forward(tabId);
          await historyMoved(deps, tabId, landed);
          await settle(tabId);
          return {
            ok: false,
            changed: false,
            message: `cannot go back: the page before ${before.url} in this tab is ${landed.url === 'about:blank' || landed.url === '' ? 'a blank tab' : `the browser page ${landed.url}`}, not a web page, so the tab stayed where it was; open the page you want with navigate`,
            evidence: [`URL is ${before.url}`],
          };
        }
      }
      return settled(settle, tabId, before, action.kind === 'reload' ? 'Reloaded the page' : `Went ${action.kind}`, loadFailure);
    }
    case 'tab_new': {
      const url = action.url ? checkUrl(action.url) : undefined;
      const tab = await tabs.create(url, before?.windowId);
      const outcome = await settled(settle, tab.id, undefined, `Opened a new tab ${tab.id}${url ? ` at ${url}` : ''}; actions now go to it`, loadFailure);
      return { ...outcome, tabId: tab.id };
    }
    case 'tab_switch': {
      const target = await tabs.state(action.tabId);
      if (!target) throw new AppError('not_found', `there is no tab ${action.tabId}: pick one from the tab list`);
      await tabs.activate(action.tabId);
      return { ok: true, message: `Switched to tab ${action.tabId}; actions now go to it`, changed: true, evidence: [`URL is ${target.url}`, `title is ${JSON.stringify(target.title)}`], tabId: action.tabId };
    }
    case 'tab_list': {
      // Titles only: the addresses of the user's other tabs say more than a task needs to pick one.
      const all = before ? await tabs.list(before.windowId) : [];
      return { ok: true, message: `${all.length} tab${all.length === 1 ? '' : 's'} open in this window`, changed: false, evidence: all.map((t) => `tab ${t.id}${t.id === tabId ? ' (current)' : ''}: ${t.title.slice(0, 100)}`) };
    }
    case 'tab_close': {
      const target = await tabs.state(action.tabId);
      if (!target) throw new AppError('not_found', `there is no tab ${action.tabId}: pick one from the tab list`);
      await tabs.close(action.tabId);
      const rest = before ? await tabs.list(before.windowId) : [];
      const next = action.tabId === tabId ? rest.find((t) => t.active) : undefined;
      return {
        ok: true,
        message: `Closed tab ${action.tabId}${next ? `; actions now go to tab ${next.id}` : ''}`,
        changed: true,
        evidence: next ? [`URL is ${next.url}`] : [],
        ...(next ? { tabId: next.id } : {}),
      };
    }
  }
}
