export interface SettleReport {
  /** DOM mutations seen from the start of the watch until the page went quiet. */
  mutations: number;
  /** True when the page was still changing when the cap ran out. */
  timedOut: boolean;
}

/**
 * Starts counting DOM mutations before an action, and afterwards waits until the page has been quiet for `quietMs`
 * (or `capMs` has passed), so the evidence read back reflects what the action did rather than a half-rendered page.
 */
export function watchSettle(doc: Document, quietMs = 200): { settle(capMs: number): Promise<SettleReport> } {
  let mutations = 0;
  let lastChange = Date.now();
  const observer = new MutationObserver((records) => {
    mutations += records.length;
    lastChange = Date.now();
  });
  observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  return {
    settle(capMs) {
      const started = Date.now();
      return new Promise((resolve) => {
        const check = (): void => {
          const now = Date.now();
          const quiet = now - lastChange >= quietMs && now - started >= Math.min(quietMs, capMs);
          if (quiet || now - started >= capMs) {
            observer.disconnect();
            resolve({ mutations, timedOut: !quiet });
            return;
          }
          setTimeout(check, 40);
        };
        check();
      });
    },
  };
}
