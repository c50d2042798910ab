import { withoutHash } from '../../../shared/agent/web-address';
/** The page's script is reached by its answers only through its own task queue: how long a look waits for that. */
const POLL_MS = 20;
/** Answers remembered per document (a page that polls forever must not grow this without end). */
const KEPT = 2000;

export interface AnswerLog {
  /** Notes the start of an action: only answers to requests begun from now on count for it (see received). */
  actionBegins(): void;
  /**
   * Resolves true once this document has received an answer to each request the background saw answered (by URL,
   * as many times as listed), counting the answers received since the last action began here (all of them when none
   * has); false at the cap. By when the answer came, not when its request began: a request the page sent just before
   * the action, which the background saw answered during it, counts.
   */
  received(urls: readonly string[], capMs: number): Promise<boolean>;
}

/**
 * The answers this document has received to its own requests (fetch, XHR, scripts), as its resource timing records
 * them: an entry is added once the whole answer is in the page, not when the network finished it. The background
 * learns that a request was answered from the browser's network events, which come before the page's script has
 * run on the answer, and on a busy machine long before: a look for what the answer changed (a fetch that then
 * navigates) waits until the page holds the answer, not for a number of frames that may pass first.
 */
export function watchAnswers(win: Window): AnswerLog {
  const answers: { url: string; answeredAt: number }[] = [];
  let since = 0;
  const note = (entries: PerformanceEntryList): void => {
    for (const entry of entries) answers.push({ url: withoutHash(entry.name), answeredAt: (entry as PerformanceResourceTiming).responseEnd });
    if (answers.length > KEPT) answers.splice(0, answers.length - KEPT);
  };
  // Started when Deputy first acts on or looks at this document, not on every page the user opens; buffered, so the
  // answers the document received before count too.
  let observer: PerformanceObserver | null | undefined;
  const observing = (): PerformanceObserver | null => {
    if (observer !== undefined) return observer;
    try {
      const Observer = (win as Window & typeof globalThis).PerformanceObserver;
      observer = new Observer((list) => note(list.getEntries()));
      observer.observe({ type: 'resource', buffered: true });
    } catch {
      // A frame without resource timing: the look waits for frames alone, as it did before.
      observer = null;
    }
    return observer;
  };
  const missing = (urls: readonly string[]): number => {
    // Entries not yet handed to the observer's callback are taken now: the callback comes in a later task.
    const records = observing()?.takeRecords();
    if (records) note(records);
    const counts = new Map<string, number>();
    for (const answer of answers) if (answer.answeredAt >= since) counts.set(answer.url, (counts.get(answer.url) ?? 0) + 1);
    let short = 0;
    for (const url of urls) {
      const key = withoutHash(url);
      const left = counts.get(key) ?? 0;
      if (left > 0) counts.set(key, left - 1);
      else short += 1;
    }
    return short;
  };
  return {
    actionBegins() {
      observing();
      since = win.performance.now();
    },
    received(urls, capMs) {
      if (urls.length === 0 || !observing() || missing(urls) === 0) return Promise.resolve(true);
      const started = Date.now();
      return new Promise((resolve) => {
        const look = (): void => {
          if (missing(urls) === 0) resolve(true);
          else if (Date.now() - started >= capMs) resolve(false);
          else setTimeout(look, POLL_MS);
        };
        setTimeout(look, POLL_MS);
      });
    },
  };
}
