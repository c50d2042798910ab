/**
 * What the browser saw a tab do while an action ran, apart from its DOM: page loads begun, committed and failed in its
 * top frame, same-document address changes (pushState, a #fragment), and tabs or windows it opened.
 */
export interface TabActivity {
  /** Top-frame page loads that committed (the tab shows a new document), in order. */
  committed: { url: string; transition: string }[];
  /** Address changes within the document (history.pushState/replaceState, a fragment), in order. */
  sameDocument: string[];
  /** Tabs or windows the tab's page opened. */
  opened: { tabId: number; url: string }[];
  /** Top-frame page loads that failed or were cancelled (a 204, a download, a net error). */
  failed: { url: string; error: string }[];
  /** A top-frame page load was begun and has neither committed nor failed yet. */
  pending: boolean;
  /** The address of the latest such load, while one is pending. */
  pendingUrl?: string;
}

export interface TabActivityWatch {
  seen(): TabActivity;
  stop(): void;
}

const KEPT = 10;

/** The fields of a webNavigation event this watch reads. */
interface FrameEvent {
  tabId: number;
  frameId: number;
  url: string;
}

/**
 * Watches one tab's navigations through webNavigation (observing only) while an action runs, so the verdict on the
 * action is the tab's whole story and not only what its old document saw before it went away. Listeners exist only
 * while the watch is on.
 */
export function watchTabActivity(tabId: number): TabActivityWatch {
  const activity: TabActivity = { committed: [], sameDocument: [], opened: [], failed: [], pending: false };
  const nav = typeof chrome === 'undefined' ? undefined : chrome.webNavigation;
  if (!nav?.onBeforeNavigate) return { seen: () => structuredClone(activity), stop: () => undefined };
  const open = new Set<string>();
  const key = (details: { url: string }): string => details.url;
  const before = (details: FrameEvent): void => {
    if (details.tabId !== tabId || details.frameId !== 0) return;
    open.add(key(details));
  };
  const committed = (details: FrameEvent & { transitionType: string }): void => {
    if (details.tabId !== tabId || details.frameId !== 0) return;
    // A redirect commits under its final address: every load begun before this commit is over.
    open.clear();
    if (activity.committed.length < KEPT) activity.committed.push({ url: details.url, transition: details.transitionType });
  };
  const sameDocument = (details: FrameEvent & { transitionType: string }): void => {
    if (details.tabId !== tabId || details.frameId !== 0) return;
    if (activity.sameDocument.length < KEPT) activity.sameDocument.push(details.url);
  };
  const failed = (details: FrameEvent & { error: string }): void => {
    if (details.tabId !== tabId || details.frameId !== 0) return;
    // A load that failed while another was begun after it leaves that one pending. A failure under an address never
    // begun (the load was redirected first) ends them all: a tab loads one top-frame page at a time.
    if (!open.delete(key(details))) open.clear();
    if (activity.failed.length < KEPT) activity.failed.push({ url: details.url, error: details.error });
  };
  const created = (details: { tabId: number; sourceTabId: number; url: string }): void => {
    if (details.sourceTabId !== tabId) return;
    if (activity.opened.length < KEPT) activity.opened.push({ tabId: details.tabId, url: details.url });
  };
  // chrome-types declares these events' listeners with every field of their details; the handlers read a few.
  type Listened = { addListener: (listener: never) => void; removeListener: (listener: never) => void };
  const pairs: [Listened, unknown][] = [
    [nav.onBeforeNavigate, before],
    [nav.onCommitted, committed],
    [nav.onHistoryStateUpdated, sameDocument],
    [nav.onReferenceFragmentUpdated, sameDocument],
    [nav.onErrorOccurred, failed],
    [nav.onCreatedNavigationTarget, created],
  ];
  for (const [event, listener] of pairs) event.addListener(listener as never);
  return {
    seen: () => {
      const latest = [...open].pop();
      return { ...structuredClone(activity), pending: open.size > 0, ...(latest ? { pendingUrl: latest } : {}) };
    },
    stop() {
      for (const [event, listener] of pairs) event.removeListener(listener as never);
    },
  };
}
