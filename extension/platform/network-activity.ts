/** The requests of a tab that the page is still waiting for, while a watch is on. */
export interface RequestWatch {
  /** Requests started since the watch began and not finished, not counting long-lived ones (a long poll, a stream). */
  inFlight(): number;
  /** A page load of the tab's top frame is under way (its request has not been answered yet). */
  documentRequested(): boolean;
  stop(): void;
}

/** Requests whose answer changes what a page shows: documents, frames, scripts, and its own fetch/XHR calls. */
const WATCHED: chrome.webRequest.ResourceType[] = ['main_frame', 'sub_frame', 'xmlhttprequest', 'script'];
/** A request open longer than this is a long poll or a stream, not something the page waits for to render. */
const LONG_LIVED_MS = 10_000;

/**
 * Watches one tab's network requests (observing only: nothing is delayed or changed), so the page agent can wait for
 * the answers an action asked for (an autocomplete's suggestions, a single-page app's data) before it reads the page.
 * The listeners exist only while the watch is on and only for that tab.
 */
export function watchTabRequests(tabId: number, now: () => number = Date.now): RequestWatch {
  const open = new Map<string, number>();
  const documents = new Set<string>();
  if (typeof chrome.webRequest?.onBeforeRequest === 'undefined') return { inFlight: () => 0, documentRequested: () => false, stop: () => undefined };
  const filter: chrome.webRequest.RequestFilter = { urls: ['<all_urls>'], tabId, types: WATCHED };
  const started = (details: { requestId: string; type: string }): undefined => {
    open.set(details.requestId, now());
    if (details.type === 'main_frame') documents.add(details.requestId);
    return undefined;
  };
  const ended = (details: { requestId: string }): void => {
    open.delete(details.requestId);
    documents.delete(details.requestId);
  };
  chrome.webRequest.onBeforeRequest.addListener(started, filter);
  chrome.webRequest.onCompleted.addListener(ended, filter);
  chrome.webRequest.onErrorOccurred.addListener(ended, filter);
  return {
    inFlight() {
      const cutoff = now() - LONG_LIVED_MS;
      let count = 0;
      for (const at of open.values()) if (at >= cutoff) count += 1;
      return count;
    },
    documentRequested: () => documents.size > 0,
    stop() {
      // chrome-types declares removeListener with the type of addListener (listener plus filter); it takes the listener.
      const remove = (event: { removeListener: (listener: never) => void }, listener: unknown): void => event.removeListener(listener as never);
      remove(chrome.webRequest.onBeforeRequest, started);
      remove(chrome.webRequest.onCompleted, ended);
      remove(chrome.webRequest.onErrorOccurred, ended);
    },
  };
}
