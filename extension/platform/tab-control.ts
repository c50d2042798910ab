import { browser, type Tabs } from './browser';
import { extensionOrigin } from './runtime';
import { watchTabChanges } from './tab-changes';

/** Tab-level navigation for the page agent: the chrome.tabs calls, each narrow, each returning plain data. */
export interface TabState {
  id: number;
  url: string;
  title: string;
  status: string;
  active: boolean;
  windowId: number;
}

function toState(tab: Tabs.Tab): TabState {
  return {
    id: tab.id ?? -1,
    url: tab.url ?? tab.pendingUrl ?? '',
    title: tab.title ?? '',
    status: tab.status ?? 'complete',
    active: tab.active,
    windowId: tab.windowId ?? -1,
  };
}

export async function tabState(tabId: number): Promise<TabState | undefined> {
  try {
    return toState(await browser.tabs.get(tabId));
  } catch {
    return undefined;
  }
}

export async function listAllTabs(): Promise<TabState[]> {
  return (await browser.tabs.query({})).map(toState);
}

/**
 * The window's tabs as a task sees them: the user's and the task's pages. Deputy's own pages (the control page the
 * terminal drives it through, its options) are neither: they are left out, so no model is shown one or told of it
 * as one of the user's tabs, and a task cannot switch to one.
 */
export async function listWindowTabs(windowId: number): Promise<TabState[]> {
  const own = `${extensionOrigin()}/`;
  return (await browser.tabs.query({ windowId })).map(toState).filter((tab) => !tab.url.startsWith(own));
}

export async function navigateTab(tabId: number, url: string): Promise<void> {
  await browser.tabs.update(tabId, { url });
}

export function goBack(tabId: number): Promise<void> {
  return browser.tabs.goBack(tabId);
}

export function goForward(tabId: number): Promise<void> {
  return browser.tabs.goForward(tabId);
}

export function reloadTab(tabId: number): Promise<void> {
  return browser.tabs.reload(tabId);
}

/** Opens a tab; `active: false` leaves the user's tab in front (a form Deputy fills on its own). */
export async function createTab(url: string | undefined, windowId: number | undefined, active = true): Promise<TabState> {
  return toState(await browser.tabs.create({ ...(url ? { url } : {}), ...(windowId === undefined ? {} : { windowId }), active }));
}

export async function activateTab(tabId: number): Promise<void> {
  const tab = await browser.tabs.update(tabId, { active: true });
  if (tab.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true });
}

export function closeTab(tabId: number): Promise<void> {
  return browser.tabs.remove(tabId);
}

/** Waits, on the tab's events, until it has finished loading; undefined when still loading after `timeoutMs` or closed. */
export async function waitForTabLoad(tabId: number, timeoutMs: number): Promise<TabState | undefined> {
  const deadline = Date.now() + timeoutMs;
  const changes = watchTabChanges(tabId);
  try {
    for (;;) {
      const seen = changes.version();
      const state = await tabState(tabId);
      if (!state) return undefined;
      if (state.status === 'complete') return state;
      if (Date.now() >= deadline) return undefined;
      await changes.next(seen, Math.min(1000, deadline - Date.now()));
    }
  } finally {
    changes.stop();
  }
}

/**
 * Lists the frames of a tab that can run script. It injects at once (injectImmediately) rather than at document_idle,
 * because one frame that never finishes loading (an ad frame whose host does not resolve) would otherwise hold the
 * answer back forever; and it gives up after `timeoutMs` with the top frame alone.
 */
export async function listScriptableFrames(tabId: number, timeoutMs = 3000): Promise<number[]> {
  const listing = chrome.scripting
    .executeScript({ target: { tabId, allFrames: true }, func: () => true, injectImmediately: true })
    .then((results) => results.map((result) => result.frameId));
  const fallback = new Promise<number[]>((resolve) => setTimeout(() => resolve([0]), timeoutMs));
  return Promise.race([listing, fallback]);
}

/** The frame that holds a frame (-1 for the top frame), or undefined when the frame is gone. */
export async function parentFrameOf(tabId: number, frameId: number): Promise<number | undefined> {
  const details = await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null);
  return details ? details.parentFrameId : undefined;
}
