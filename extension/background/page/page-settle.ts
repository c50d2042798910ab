import type { TabChanges } from '../../platform/tab-changes';
import type { TabState } from '../../platform/tab-control';

/** What settling a tab needs: its state, the requests its page waits for, and its top frame's DOM. */
export interface SettlePorts {
  tabState(tabId: number): Promise<TabState | undefined>;
  /** The page's open requests since the action began (see RequestWatch); absent when not watched. */
  inFlight?: () => number;
  /** A new page was requested and has not answered yet: the tab still shows the old one, but it is on its way. */
  documentRequested?: () => boolean;
  /** A navigation of the tab was begun (as the browser or the page reported it) and has not committed or failed yet. */
  navigationPending?: () => boolean;
  /**
   * The tab shows a page no content script answers from (the browser's error page, a page of the browser itself, an
   * extension store): nothing there will answer or send anything, so it is not asked again.
   */
  showsError?: () => Promise<boolean>;
  /**
   * The addresses of the top frame's requests answered since the action began (see RequestWatch.answered): the frame
   * is looked at once its page holds them; absent when not watched.
   */
  answered?: () => string[];
  /**
   * Waits until the top frame holds the answers named (the network reports one before the page's script has it) and
   * then its DOM stops changing; undefined when the frame does not answer (still loading).
   */
  domQuiet(tabId: number, options: { capMs: number; graceFrames: number; answered?: string[] }): Promise<{ mutations: number; timedOut: boolean } | undefined>;
  /**
   * The tab's events (loads, navigations, answered requests): waits end on the next one instead of a poll. Without
   * them (unit tests, a runtime without the events) the tab is looked at every POLL_MS.
   */
  changes?: Pick<TabChanges, 'version' | 'next'>;
  sleep(ms: number): Promise<void>;
  now(): number;
}

export interface SettleLimits {
  /** How long to wait for the page to finish loading. */
  loadCapMs: number;
  /**
   * The page was still loading when the action began (HTML that streams for long): only a new page the action asked
   * for is waited for, not the end of this one, which the model was already told about.
   */
  alreadyLoading?: boolean;
  /** How long to wait, once loaded, for its requests to be answered and its DOM to go quiet. */
  quietCapMs: number;
}

export interface Settled {
  /** The tab as it is now; undefined when it was closed. */
  tab: TabState | undefined;
  /** False when it was still loading at the load cap: what is read of it may be incomplete. */
  loaded: boolean;
  /** A page load was under way at some point: the action (or something) sent the tab to a page. */
  sawLoading: boolean;
  /** False when requests were still open or the DOM still changing at the cap. */
  quiet: boolean;
  waitedMs: number;
  /** Where the wait went, for the trace: loading, the page's requests, its script not answering yet, its DOM going quiet. */
  parts?: SettleParts;
}

/** Adds a settle's parts to an action's timings, as parts of its settle (the trace prints them under it). */
export function addSettleParts(timings: Record<string, number>, parts: SettleParts | undefined): void {
  if (!parts) return;
  for (const part of ['loading', 'requests', 'script', 'quiet'] as const) {
    if (parts[part] > 0) timings[`${SETTLE_PART}${part}`] = (timings[`${SETTLE_PART}${part}`] ?? 0) + parts[part];
  }
}

/** The prefix of a settle's parts in an action's timings: parts of 'tab settle (after act)', not beside it. */
export const SETTLE_PART = 'of which settle: ';

export interface SettleParts {
  loading: number;
  requests: number;
  script: number;
  quiet: number;
}

const POLL_MS = 50;
/**
 * With events, the longest a wait goes without looking at the tab again: only a change no event reports (a request
 * passing the long-lived mark) waits this long.
 */
const BACKSTOP_MS = 1000;
/**
 * After an answer arrives, the page's own code needs to run and render it: the first change is waited for until the
 * page has rendered this many frames (no fixed tail: a page that shows nothing new settles two frames later).
 */
const AFTER_ANSWER_FRAMES = 2;

/**
 * Waits for a tab to settle after a navigation or an action: until it has loaded (capped), then until the requests
 * the action started have been answered and the DOM has stopped changing (capped). Nothing is waited for that is not
 * happening: a loaded page with nothing in flight and nothing changing settles at once. One module for every caller,
 * so what "settled" means is the same after a click, a navigation and a wait.
 */
export async function settleTab(ports: SettlePorts, tabId: number, limits: SettleLimits): Promise<Settled> {
  const started = ports.now();
  const changes = ports.changes;
  // The version is read before each look at the tab, so an event after the look ends the wait that follows it.
  let seen = changes?.version() ?? 0;
  const nextChange = async (deadline: number): Promise<void> => {
    if (changes) await changes.next(seen, Math.min(BACKSTOP_MS, Math.max(0, deadline - ports.now())));
    else await ports.sleep(POLL_MS);
    seen = changes?.version() ?? 0;
  };
  const parts: SettleParts = { loading: 0, requests: 0, script: 0, quiet: 0 };
  let mark = started;
  const lap = (part: keyof SettleParts): void => {
    const at = ports.now();
    parts[part] += at - mark;
    mark = at;
  };
  let tab = await ports.tabState(tabId);
  const loadDeadline = started + limits.loadCapMs;
  const loading = (state: TabState | undefined): boolean =>
    state !== undefined &&
    ((state.status === 'loading' && limits.alreadyLoading !== true) || ports.documentRequested?.() === true || ports.navigationPending?.() === true);
  let sawLoading = false;
  let quiet = false;
  for (;;) {
    const loadedNow = loading(tab);
    sawLoading ||= loadedNow;
    while (loading(tab) && ports.now() < loadDeadline) {
      await nextChange(loadDeadline);
      tab = await ports.tabState(tabId);
    }
    const loaded = tab !== undefined && !loading(tab);
    lap('loading');
    if (!tab || !loaded) return { tab, loaded, sawLoading, quiet: false, waitedMs: ports.now() - started, parts };
    quiet = await untilQuiet(ports, tabId, limits.quietCapMs, loadedNow, { nextChange, lap });
    tab = (await ports.tabState(tabId)) ?? tab;
    // A navigation that began while the page was being looked at is what the action did too (an order placed by fetch,
    // whose page then goes to its receipt once answered): its page is waited for as well, within the same load cap.
    if (!loading(tab) || ports.now() >= loadDeadline) break;
    lap('quiet');
  }
  lap('quiet');
  return { tab, loaded: !loading(tab), sawLoading, quiet, waitedMs: ports.now() - started, parts };
}

/**
 * Once the tab has loaded: waits until the requests seen are answered and the top frame's DOM is quiet, up to
 * `capMs`; true when it got there. A page that loaded during the settle (`justLoaded`) is looked at before it is
 * called quiet: the requests its load handlers start (a single-page app fetching its data) reach the background only
 * after the tab reports it has loaded, later still on a busy machine, where the page's script may not even answer
 * yet. The look (once the page holds what was answered, two rendered frames of it) lets them arrive; then they are
 * waited for.
 */
async function untilQuiet(
  ports: SettlePorts,
  tabId: number,
  capMs: number,
  justLoaded: boolean,
  wait: { nextChange: (deadline: number) => Promise<void>; lap: (part: keyof SettleParts) => void },
): Promise<boolean> {
  const { nextChange, lap } = wait;
  const quietDeadline = ports.now() + capMs;
  let waitedForNetwork = justLoaded;
  while (ports.now() < quietDeadline) {
    if ((ports.inFlight?.() ?? 0) > 0) {
      waitedForNetwork = true;
      await nextChange(quietDeadline);
      lap('requests');
      continue;
    }
    if (!waitedForNetwork) return true;
    // Answers came in (or a new page loaded): once the page holds them, let it render them, then look again
    // (rendering may ask for more).
    const answered = ports.answered?.() ?? [];
    const dom = await ports.domQuiet(tabId, {
      capMs: Math.max(0, quietDeadline - ports.now()),
      graceFrames: AFTER_ANSWER_FRAMES,
      ...(answered.length > 0 ? { answered } : {}),
    });
    lap(dom ? 'quiet' : 'script');
    // Requests seen by now (some only reach the background late) are waited for, then the page is looked at again.
    if ((ports.inFlight?.() ?? 0) > 0) continue;
    if (!dom) {
      // The page's script does not answer yet: a new document on a busy machine, whose own load handlers (and the
      // requests they send) may not have run either. It is asked again until it answers, within the cap; the browser's
      // error page never answers, and is settled as it is.
      if ((await ports.showsError?.()) === true) return true;
      await ports.sleep(POLL_MS);
      lap('script');
      continue;
    }
    waitedForNetwork = false;
    if (!dom.timedOut) return true;
  }
  return false;
}
