import { type RequestEvent, type RequestEvents, requestEvents } from './request-events';

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
const WATCHED: ReadonlySet<string> = new Set(['main_frame', 'sub_frame', 'xmlhttprequest', 'script']);
/** A request open longer than this is a long poll or a stream, not something the page waits for to render. */
const LONG_LIVED_MS = 10_000;

/**
 * Watches one tab's network requests (observing only: nothing is delayed or changed), so the page agent can wait for
 * the answers an action asked for (an autocomplete's suggestions, a single-page app's data) before it reads the page.
 * It hears the tab's requests through the tab's shared listeners (see request-events.ts), only while it is on.
 */
export function watchTabRequests(tabId: number, now: () => number = Date.now, events: RequestEvents = requestEvents): RequestWatch {
  const open = new Map<string, number>();
  const documents = new Set<string>();
  /** The top frame's own requests in flight (a fetch, an XHR, a script), by id: the address the page asked for. */
  const topFrame = new Map<string, string>();
  let answered: string[] = [];
  const sent = new Map<string, SentRequest>();
  const started = (details: RequestEvent): void => {
    // A redirect is the same request again: it keeps the time and the address it began with.
    if (!WATCHED.has(details.type) || open.has(details.requestId)) return;
    open.set(details.requestId, now());
    if (details.type === 'xmlhttprequest' && !READ_METHODS.has(details.method.toUpperCase()) && sent.size < SENT_KEPT) {
      sent.set(details.requestId, { method: details.method.toUpperCase(), url: withoutQuery(details.url), state: 'open' });
    }
    if (details.type === 'main_frame') documents.add(details.requestId);
    else if (details.frameId === 0 && details.type !== 'sub_frame') topFrame.set(details.requestId, details.url);
  };
  const ended = (details: Pick<RequestEvent, 'requestId' | 'error'>, state: SentRequest['state']): void => {
    const request = sent.get(details.requestId);
    if (request) {
      request.state = state;
      if (details.error !== undefined) request.error = details.error;
    }
    open.delete(details.requestId);
    documents.delete(details.requestId);
    topFrame.delete(details.requestId);
  };
  // Only watched requests were counted as begun: the end of any other finds nothing to end.
  const completed = (details: RequestEvent): void => {
    const url = topFrame.get(details.requestId);
    if (details.type === 'main_frame') answered = [];
    else if (url !== undefined) answered = [...answered, url].slice(-ANSWERED_KEPT);
    ended(details, 'answered');
  };
  const failed = (details: RequestEvent): void => ended(details, 'failed');
  const unsubscribe = events.subscribe(tabId, { started, completed, failed });
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
    stop: unsubscribe,
  };
}
