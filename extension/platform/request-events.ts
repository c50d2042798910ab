/** The fields of a webRequest event the watches read. */
export interface RequestEvent {
  requestId: string;
  type: string;
  frameId: number;
  url: string;
  method: string;
  error?: string;
}

/** What a watch of one tab's requests is told: a request began, was answered, or failed. */
export interface RequestHandlers {
  started?: (details: RequestEvent) => void;
  completed?: (details: RequestEvent) => void;
  failed?: (details: RequestEvent) => void;
}

/** One of chrome.webRequest's events as this module uses it (its listeners' and filters' types differ per event). */
export interface RequestEventSource {
  addListener(listener: (details: RequestEvent) => void, filter: { urls: string[]; tabId: number }): void;
  removeListener(listener: (details: RequestEvent) => void): void;
}

export interface RequestEventSources {
  onBeforeRequest: RequestEventSource;
  onCompleted: RequestEventSource;
  onErrorOccurred: RequestEventSource;
}

export interface RequestEvents {
  /** Tells `handlers` about the tab's requests until the returned function is called. */
  subscribe(tabId: number, handlers: RequestHandlers): () => void;
  /** Keeps the tab's listeners for `owner` (a task working in the tab), with or without a watch on, until release. */
  keep(owner: string, tabId: number): void;
  /** Lets go of every tab `owner` kept; a tab no watch and no other owner needs loses its listeners. */
  release(owner: string): void;
  /** How many tabs have listeners now (for tests and logs). */
  tabs(): number;
}

interface TabListeners {
  handlers: Set<RequestHandlers>;
  owners: Set<string>;
  remove(): void;
}

/**
 * One set of webRequest listeners per tab, shared by every watch of its requests (an action's, a settle's), and kept
 * while a task works in the tab. Chrome clears the back/forward cache of every tab, and has each renderer drop its
 * memory cache at its next navigation, whenever an extension adds or removes a webRequest listener (the browser's
 * webRequest AddEventListener and RemoveEventListener call ClearCacheOnNavigation): watches that each added and
 * removed their own made every "back" of a task a full reload of the page, and the user's own tabs lost their cached
 * pages at every step. Listeners are added only for a tab nothing listens to yet, and removed once neither a watch nor
 * a task needs them.
 */
export function createRequestEvents(sources: () => RequestEventSources | undefined): RequestEvents {
  const byTab = new Map<number, TabListeners>();
  const listen = (tabId: number, events: RequestEventSources): TabListeners => {
    const entry: TabListeners = { handlers: new Set(), owners: new Set(), remove: () => undefined };
    const each = (pick: (h: RequestHandlers) => ((details: RequestEvent) => void) | undefined) => (details: RequestEvent) => {
      for (const handlers of [...entry.handlers]) pick(handlers)?.(details);
    };
    const started = each((h) => h.started);
    const completed = each((h) => h.completed);
    const failed = each((h) => h.failed);
    const filter = { urls: ['<all_urls>'], tabId };
    events.onBeforeRequest.addListener(started, filter);
    events.onCompleted.addListener(completed, filter);
    events.onErrorOccurred.addListener(failed, filter);
    entry.remove = () => {
      events.onBeforeRequest.removeListener(started);
      events.onCompleted.removeListener(completed);
      events.onErrorOccurred.removeListener(failed);
    };
    byTab.set(tabId, entry);
    return entry;
  };
  const tabEntry = (tabId: number): TabListeners | undefined => {
    const found = byTab.get(tabId);
    if (found) return found;
    const events = sources();
    return events ? listen(tabId, events) : undefined;
  };
  const dropIfUnneeded = (tabId: number, entry: TabListeners): void => {
    if (entry.handlers.size > 0 || entry.owners.size > 0 || byTab.get(tabId) !== entry) return;
    byTab.delete(tabId);
    entry.remove();
  };
  return {
    subscribe(tabId, handlers) {
      const entry = tabEntry(tabId);
      if (!entry) return () => undefined;
      // The same handlers object may be subscribed once only: a copy makes each subscription its own.
      const own = { ...handlers };
      entry.handlers.add(own);
      return () => {
        entry.handlers.delete(own);
        dropIfUnneeded(tabId, entry);
      };
    },
    keep(owner, tabId) {
      tabEntry(tabId)?.owners.add(owner);
    },
    release(owner) {
      for (const [tabId, entry] of [...byTab]) {
        if (!entry.owners.delete(owner)) continue;
        dropIfUnneeded(tabId, entry);
      }
    },
    tabs: () => byTab.size,
  };
}

/** The browser's webRequest events, where this runtime has them. */
function browserSources(): RequestEventSources | undefined {
  if (typeof chrome === 'undefined' || typeof chrome.webRequest?.onBeforeRequest === 'undefined') return undefined;
  // chrome-types declares each event with its own details type; the handlers read the fields they share.
  return chrome.webRequest as unknown as RequestEventSources;
}

/** The extension's one set of tab request listeners (see createRequestEvents). */
export const requestEvents: RequestEvents = createRequestEvents(browserSources);
