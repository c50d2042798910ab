import type { SentRequest } from '../../platform/network-activity';
import type { TabActivity } from '../../platform/tab-activity';

/** The words a step says when its action changed nothing anyone could see. */
export const NO_EFFECT_MESSAGE = ': no visible effect (nothing on the page changed)';
export const NO_EFFECT_LINE = 'no visible effect';

/** Errors of a page load that mean the page stayed as it was on purpose: a 204 answer, a load that became a download. */
const QUIET_LOAD_ERRORS = /ERR_ABORTED|ERR_BLOCKED_BY_RESPONSE/;

/** What the background saw of the tab around an action, beside what the acting frame saw of its DOM. */
export interface TabFacts {
  /** The action ran in the top frame, whose address is the tab's. */
  topFrame: boolean;
  urlBefore: string | undefined;
  urlAfter: string | undefined;
  /** What webNavigation reported while the action ran and settled; absent where it is not watched (unit tests). */
  activity?: TabActivity | undefined;
  /** A navigation the acting page itself began (its Navigation API), when it said so. */
  navigation?: { url: string; sameDocument: boolean } | undefined;
  /** The next page was still loading when the settle gave up waiting. */
  stillLoading: boolean;
  /** Requests sent while the action ran and settled that ask their server to change something (a POST by script). */
  sent?: SentRequest[] | undefined;
}

/** Lines for the requests an action sent, at most: a page that posts in a loop is not listed whole. */
const SENT_LINES = 3;

/** The tab's side of the verdict: whether it changed, and the lines that say how. */
export function tabEffect(facts: TabFacts): { changed: boolean; lines: string[] } {
  const lines: string[] = [];
  let changed = false;
  const activity = facts.activity;
  const moved = facts.topFrame && facts.urlAfter !== undefined && facts.urlBefore !== undefined && facts.urlAfter !== facts.urlBefore;
  if (moved) {
    lines.push(`URL is now ${facts.urlAfter}`);
    changed = true;
  }
  if (activity && activity.committed.length > 0) {
    changed = true;
    // A form posted to its own address, or a reload, brings a new page under the same address: it still navigated.
    if (!moved) lines.push(`the page loaded anew at ${activity.committed[activity.committed.length - 1]?.url ?? facts.urlAfter}`);
  } else if (activity && activity.sameDocument.length > 0) {
    changed = true;
    if (!moved) lines.push(`the page changed its address within the page (now ${activity.sameDocument[activity.sameDocument.length - 1]})`);
  }
  for (const tab of activity?.opened ?? []) {
    changed = true;
    lines.push(`the page opened a new tab (tab ${tab.tabId})${tab.url ? ` at ${tab.url}` : ''}: switch to it with the tabs tool to work there`);
  }
  for (const failure of activity?.failed ?? []) {
    if (QUIET_LOAD_ERRORS.test(failure.error)) continue;
    changed = true;
    lines.push(`loading ${failure.url} failed: ${failure.error}`);
  }
  if (facts.stillLoading || activity?.pending) {
    changed = true;
    // Where the tab is going, when the browser said so: the step says where the action went, loaded or not.
    const going = activity?.pendingUrl ?? (facts.navigation && !facts.navigation.sameDocument ? facts.navigation.url : undefined);
    lines.push(going && going !== facts.urlAfter ? `the next page is still loading (going to ${going})` : 'the next page is still loading');
  }
  // The page said it was leaving, and the browser reported nothing yet that says how it ended: the step says so
  // rather than "nothing changed", and the next look shows where the tab is.
  const confirmed = changed || (activity?.failed.length ?? 0) > 0;
  if (facts.navigation && !facts.navigation.sameDocument && !confirmed && facts.topFrame) {
    changed = true;
    lines.push(`the page began going to ${facts.navigation.url}`);
  }
  // A request that changes something on the server is the action's effect there, whether the page shows it or not (an
  // order a page places with fetch, then leaves once answered): never "nothing changed".
  for (const request of (facts.sent ?? []).slice(0, SENT_LINES)) {
    changed = true;
    const what = `${request.method} ${request.url}`;
    lines.push(
      request.state === 'answered'
        ? `the page sent ${what} (answered)`
        : request.state === 'open'
          ? `the page sent ${what} and is still waiting for the answer`
          : `the page's ${what} failed${request.error ? `: ${request.error}` : ''}`,
    );
  }
  return { changed, lines };
}

/** The frame's report on its action, as the content script sends it. */
export interface FrameReport {
  ok: boolean;
  message: string;
  changed: boolean;
  evidence: string[];
  flagsNoEffect?: boolean | undefined;
  inputPath?: string | undefined;
}

/**
 * The verdict on an action, decided by the background once the tab has settled: the frame's evidence and the tab's
 * (a navigation, a new tab, a page that still loads), and "no visible effect" only when neither saw anything.
 */
export function finalVerdict(report: FrameReport, tab: { changed: boolean; lines: string[] }): { message: string; changed: boolean; evidence: string[] } {
  const changed = report.changed || tab.changed;
  const evidence = [...report.evidence];
  for (const line of tab.lines) {
    // The frame may have seen the new address itself (a pushState): one line for it is enough.
    const url = line.startsWith('URL is now ') ? line.slice('URL is now '.length) : undefined;
    if (evidence.includes(line) || (url !== undefined && evidence.some((known) => known.includes(url)))) continue;
    evidence.push(line);
  }
  const silent = !changed && report.flagsNoEffect === true;
  if (silent) evidence.push(NO_EFFECT_LINE);
  const message = `${report.message}${silent ? NO_EFFECT_MESSAGE : ''}${report.inputPath ? ` (${report.inputPath})` : ''}`;
  return { message, changed, evidence };
}

/** A verdict corrected by an effect found after it was written (a download the click started): never "no effect". */
export function withEffect<T extends { message: string; changed: boolean; evidence: string[] }>(outcome: T, lines: string[]): T {
  return {
    ...outcome,
    changed: true,
    message: outcome.message.replace(NO_EFFECT_MESSAGE, ''),
    evidence: [...outcome.evidence.filter((line) => line !== NO_EFFECT_LINE), ...lines],
  };
}

/**
 * How long a step whose action showed no effect looks again for one the browser sees begin a moment later: a button
 * whose handler navigates, opens a tab or posts from a short timer. Only such steps wait (an action that changed
 * something ends as before), and the look ends at the first sign of one. A change to the page's own content after
 * the settle is not counted: a page that ticks (a clock, a feed) would make every idle click look effective.
 */
export const LATE_EFFECT_MS = 1500;
const LATE_POLL_MS = 50;

/**
 * Waits up to `capMs` until `changed` says the tab acted (tabEffect over the tab's facts as they are now: a load, an
 * address, a tab, a post); true when it did.
 */
export async function lateTabEffect(ports: { changed(): boolean; sleep(ms: number): Promise<void>; now(): number }, capMs = LATE_EFFECT_MS): Promise<boolean> {
  const started = ports.now();
  for (;;) {
    if (ports.changed()) return true;
    if (ports.now() - started >= capMs) return false;
    await ports.sleep(LATE_POLL_MS);
  }
}

/** How long a navigation the page said it began may take to show in the browser's own events, under load. */
export const NAVIGATION_START_GRACE_MS = 5000;

/**
 * Whether the settle should still wait for a navigation: the browser reports one begun and not ended, or the page
 * said it began one the browser has not reported on yet (its events come separately from the frame's reply, and
 * under load later), for a few seconds.
 */
export function navigationPending(
  activity: { seen(): TabActivity } | undefined,
  navigation: { url: string; sameDocument: boolean } | undefined,
  since: number,
  now: () => number,
): () => boolean {
  return () => {
    const seen = activity?.seen();
    if (seen?.pending) return true;
    if (!activity || !seen || !navigation || navigation.sameDocument) return false;
    const ended = seen.committed.length > 0 || seen.failed.length > 0;
    return !ended && now() - since < NAVIGATION_START_GRACE_MS;
  };
}
