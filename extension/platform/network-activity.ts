/** The requests of a tab that the page is still waiting for, while a watch is on. */
export interface RequestWatch {
  /** Requests started since the watch began and not finished, not counting long-lived ones (a long poll, a stream). */
  inFlight(): number;
  /** A page load of the tab's top frame is under way (its request has not been answered yet). */
  documentRequested(): boolean;
  /**
   * The addresses (as first asked for, before any redirect) of the requests of the top frame's document that were
   * answered while the watch is on, oldest first: what the page's script must have received before a look at the
   * page can show what it did with them. A new document in the top frame starts the list again.
   */
  answered(): string[];
  /**
   * The requests sent while the watch is on that ask the server to change something (a fetch or XHR whose method is
   * not GET, HEAD or OPTIONS: an order placed by script), and how each ended so far: the action's effect on the
   * server, which the page may not show.
   */
  sent(): SentRequest[];
  stop(): void;
}

/** A request that asks its server to change something (see RequestWatch.sent). */
export interface SentRequest {
  method: string;
  /** Its address without the query, which may carry what was sent. */
  url: string;
  state: 'answered' | 'open' | 'failed';
  /** Why it failed, as the browser says it (net::ERR_BLOCKED_BY_CLIENT: held by the egress guard). */
  error?: string;
}

/** Methods that only read: a request with one of them changes nothing on its server. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Requests that change something, kept per watch. */
const SENT_KEPT = 10;

function withoutQuery(url: string): string {
  const at = url.search(/[?#]/);
  return at < 0 ? url : url.slice(0, at);
}

/** Answered requests kept per watch: the newest, as many as a look may name (the settle channel's limit). */
const ANSWERED_KEPT = 200;

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
  /** The top frame's own requests in flight (a fetch, an XHR, a script), by id: the address the page asked for. */
  const topFrame = new Map<string, string>();
  let answered: string[] = [];
  const sent = new Map<string, SentRequest>();
  if (typeof chrome.webRequest?.onBeforeRequest === 'undefined') return { inFlight: () => 0, documentRequested: () => false, answered: () => [], sent: () => [], stop: () => undefined };
  const filter: chrome.webRequest.RequestFilter = { urls: ['<all_urls>'], tabId, types: WATCHED };
  const started = (details: { requestId: string; type: string; frameId: number; url: string; method: string }): undefined => {
    // A redirect is the same request again: it keeps the time and the address it began with.
    if (open.has(details.requestId)) return undefined;
    open.set(details.requestId, now());
    if (details.type === 'xmlhttprequest' && !READ_METHODS.has(details.method.toUpperCase()) && sent.size < SENT_KEPT) {
      sent.set(details.requestId, { method: details.method.toUpperCase(), url: withoutQuery(details.url), state: 'open' });
    }
    if (details.type === 'main_frame') documents.add(details.requestId);
    else if (details.frameId === 0 && details.type !== 'sub_frame') topFrame.set(details.requestId, details.url);
    return undefined;
  };
  const ended = (details: { requestId: string; error?: string }, state: SentRequest['state']): void => {
    const request = sent.get(details.requestId);
    if (request) {
      request.state = state;
      if (details.error !== undefined) request.error = details.error;
    }
    open.delete(details.requestId);
    documents.delete(details.requestId);
    topFrame.delete(details.requestId);
  };
  const completed = (details: { requestId: string; type: string }): void => {
    const url = topFrame.get(details.requestId);
    if (details.type === 'main_frame') answered = [];
    else if (url !== undefined) answered = [...answered, url].slice(-ANSWERED_KEPT);
    ended(details, 'answered');
  };
  const failed = (details: { requestId: string; error: string }): void => ended(details, 'failed');
  chrome.webRequest.onBeforeRequest.addListener(started, filter);
  chrome.webRequest.onCompleted.addListener(completed, filter);
  chrome.webRequest.onErrorOccurred.addListener(failed, filter);
  return {
    inFlight() {
      const cutoff = now() - LONG_LIVED_MS;
      let count = 0;
      for (const at of open.values()) if (at >= cutoff) count += 1;
      return count;
    },
    documentRequested: () => documents.size > 0,
    answered: () => [...answered],
    sent: () => [...sent.values()].map((request) => ({ ...request })),
    stop() {
      // chrome-types declares removeListener with the type of addListener (listener plus filter); it takes the listener.
      const remove = (event: { removeListener: (listener: never) => void }, listener: unknown): void => event.removeListener(listener as never);
      remove(chrome.webRequest.onBeforeRequest, started);
      remove(chrome.webRequest.onCompleted, completed);
      remove(chrome.webRequest.onErrorOccurred, failed);
    },
  };
}
