export interface SettleReport {
  /** DOM mutations seen from the start of the watch until the page went quiet. */
  mutations: number;
  /** True when the page was still changing when the cap ran out. */
  timedOut: boolean;
  /** How long the settle took, from the call of settle(). */
  waitedMs: number;
}

export interface SettleOptions {
  /** The longest wait. */
  capMs: number;
  /** Once the page has changed, how long it must stay unchanged to count as settled. */
  quietMs?: number;
  /**
   * How long to wait for a first change when none has come yet. Nothing changing within one frame is the common
   * case (a value typed, a box checked) and settles at once; a field that says it shows suggestions gets longer.
   */
  graceMs?: number;
}

/** The time one frame takes to render; a page's reaction to an event lands within it when it is synchronous. */
export const FRAME_MS = 20;
const QUIET_MS = 150;
const POLL_MS = 20;

/**
 * Starts counting DOM mutations (before an action, so none is missed), and afterwards waits until the page is quiet:
 * when nothing changes within the grace period it settles at once, with no fixed minimum; once something changes it
 * waits until nothing has changed for `quietMs`, up to `capMs`. The evidence read back then reflects what the action
 * did rather than a half-rendered page.
 */
export function watchSettle(doc: Document): { settle(options: SettleOptions): Promise<SettleReport>; stop(): void } {
  let mutations = 0;
  let lastChange = 0;
  const observer = new MutationObserver((records) => {
    mutations += records.length;
    lastChange = Date.now();
  });
  observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  return {
    stop: () => observer.disconnect(),
    settle(options) {
      const started = Date.now();
      const quietMs = options.quietMs ?? QUIET_MS;
      const graceMs = Math.min(options.graceMs ?? FRAME_MS, options.capMs);
      return new Promise((resolve) => {
        const check = (): void => {
          const now = Date.now();
          // Mutation records are delivered at the end of the task that made them, so a change made in the frame after
          // the action is already counted here.
          const quiet = mutations === 0 ? now - started >= graceMs : now - lastChange >= quietMs;
          if (quiet || now - started >= options.capMs) {
            observer.disconnect();
            resolve({ mutations, timedOut: !quiet, waitedMs: now - started });
            return;
          }
          setTimeout(check, mutations === 0 ? Math.min(POLL_MS, graceMs) : POLL_MS);
        };
        if (graceMs === 0 && mutations === 0) check();
        else setTimeout(check, Math.min(POLL_MS, graceMs));
      });
    },
  };
}
