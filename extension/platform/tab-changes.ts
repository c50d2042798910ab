import { type RequestEvents, requestEvents } from './request-events';

/**
 * Tells a waiter when something about one tab changed, so waits for a page end on the browser's own events instead of
 * polling the tab's state: tabs.onUpdated and onRemoved, webNavigation (committed, DOM ready, completed, failed,
 * history and fragment changes) and, for the answers an action waits for, webRequest's completions. Each event bumps a
 * version; a waiter reads the version before it looks at the tab, then waits for a later one, so an event between
 * the look and the wait is never missed.
 */
export interface TabChanges {
  version(): number;
  /** Resolves once the version is past `since`, or after `ms`. */
  next(since: number, ms: number): Promise<void>;
  stop(): void;
}

/** The version logic apart from the browser's events (tested on its own): `bump` is what each event calls. */
export function changeCounter(): TabChanges & { bump(): void } {
  let version = 0;
  const waiters = new Set<() => void>();
  return {
    version: () => version,
    bump() {
      version += 1;
      // Woken on the next task, once every listener of the same event has run (the request watch counts an answered
      // request in its own listener, which may come after this one).
      if (waiters.size > 0) setTimeout(() => [...waiters].forEach((wake) => wake()), 0);
    },
    next(since, ms) {
      if (version > since) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, ms));
        waiters.add(done);
      });
    },
    stop() {
      for (const wake of [...waiters]) wake();
    },
  };
}

/** A chrome event as this module uses it: the listeners' and filters' own types differ per event. */
interface BrowserEvent {
  addListener(...args: unknown[]): void;
  removeListener(listener: unknown): void;
}
const asEvent = (event: unknown): BrowserEvent | undefined => event as BrowserEvent | undefined;

/** Watches one tab's events while a wait is on; stop() removes every listener. */
export function watchTabChanges(tabId: number, events: RequestEvents = requestEvents): TabChanges {
  const counter = changeCounter();
  const forTab = (details: { tabId: number }): void => {
    if (details.tabId === tabId) counter.bump();
  };
  const forId = (id: number): void => {
    if (id === tabId) counter.bump();
  };
  const navigation = chrome.webNavigation;
  const subscriptions: [BrowserEvent | undefined, (arg: never) => void][] = [
    [asEvent(chrome.tabs?.onUpdated), forId],
    [asEvent(chrome.tabs?.onRemoved), forId],
    [asEvent(navigation?.onCommitted), forTab],
    [asEvent(navigation?.onDOMContentLoaded), forTab],
    [asEvent(navigation?.onCompleted), forTab],
    [asEvent(navigation?.onErrorOccurred), forTab],
    [asEvent(navigation?.onHistoryStateUpdated), forTab],
    [asEvent(navigation?.onReferenceFragmentUpdated), forTab],
  ];
  const added = subscriptions.filter(([event]) => event !== undefined);
  for (const [event, listener] of added) event?.addListener(listener);
  // The tab's requests come through its shared listeners: adding and removing webRequest listeners per wait would
  // clear every tab's back/forward cache (see request-events.ts).
  const unsubscribe = events.subscribe(tabId, { completed: () => counter.bump(), failed: () => counter.bump() });
  return {
    version: () => counter.version(),
    next: (since, ms) => counter.next(since, ms),
    stop() {
      unsubscribe();
      for (const [event, listener] of added) event?.removeListener(listener);
      counter.stop();
    },
  };
}
