import type { Page } from 'puppeteer-core';

/**
 * Waits for a state, never for a time: asks `read` until it returns something truthy and returns that, or fails after
 * a generous cap naming what it waited for and the last value seen. The cap is for a machine under load (see
 * `npm run test:e2e:loaded`): a state that holds arrives well before it; only a state that never comes reaches it.
 */
export async function waitUntil<T>(what: string, read: () => T | Promise<T>, options: { timeoutMs?: number; everyMs?: number } = {}): Promise<Exclude<T, false | null | undefined>> {
  const { timeoutMs = 60_000, everyMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await read();
    if (last) return last as Exclude<T, false | null | undefined>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${JSON.stringify(last)?.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Waits until the page's document has stopped changing: no DOM mutation for `quietMs` in a row (a view that asked
 * storage or the host has shown their answers), with a generous cap on the whole wait.
 */
export async function waitForQuietDom(page: Page, options: { quietMs?: number; timeoutMs?: number } = {}): Promise<void> {
  const { quietMs = 300, timeoutMs = 60_000 } = options;
  const settled = await page.evaluate(
    (quiet, cap) =>
      new Promise<boolean>((resolve) => {
        let timer = setTimeout(done, quiet);
        const give = setTimeout(() => finish(false), cap);
        const observer = new MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(done, quiet);
        });
        function finish(ok: boolean): void {
          observer.disconnect();
          clearTimeout(timer);
          clearTimeout(give);
          resolve(ok);
        }
        function done(): void {
          finish(true);
        }
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      }),
    quietMs,
    timeoutMs,
  );
  if (!settled) throw new Error(`The page at ${page.url()} never stopped changing for ${quietMs} ms within ${timeoutMs} ms`);
}
