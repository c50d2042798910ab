import { browser } from './browser';

/** Chrome allows two captures a second (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND); more fail. */
const CAPTURE_INTERVAL_MS = 600;
let lastCapture = 0;
const CAPTURE_TIMEOUT_MS = 3000;
/** Captures refused for the quota are tried again this many times in all, each after waiting its turn. */
const CAPTURE_ATTEMPTS = 4;

/**
 * A screenshot of what the user sees in a window: only the window's active tab can be captured, so the caller says
 * which tab it wants and gets nothing when that tab is not in front. Captures are spaced to the browser's quota, so a
 * fast run of steps still gets one for each.
 */
export async function captureTabIfVisible(tabId: number, quality = 60): Promise<{ mediaType: 'image/jpeg'; base64: string } | undefined> {
  const tab = await browser.tabs.get(tabId).catch(() => undefined);
  if (!tab?.active) return undefined;
  const wait = lastCapture + CAPTURE_INTERVAL_MS - Date.now();
  lastCapture = Date.now() + Math.max(0, wait);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  // A page that draws no frame (frozen under a JavaScript dialog that opened meanwhile) would hold the capture forever.
  const capture = (): Promise<string | undefined> =>
    Promise.race([browser.tabs.captureVisibleTab(tab.windowId, { format: 'jpeg', quality }), new Promise<undefined>((resolve) => setTimeout(resolve, CAPTURE_TIMEOUT_MS))]);
  // The quota is counted by the browser, on its own clock: a capture that still lands too close to the last waits its
  // turn again (a few times) rather than leaving the step without its screenshot.
  let dataUrl: string | undefined;
  for (let attempt = 0; attempt < CAPTURE_ATTEMPTS; attempt += 1) {
    const outcome = await capture().then(
      (url) => ({ url, retry: false }),
      (error: unknown) => ({ url: undefined, retry: /MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(String(error)) }),
    );
    dataUrl = outcome.url;
    if (!outcome.retry) break;
    await new Promise((resolve) => setTimeout(resolve, CAPTURE_INTERVAL_MS));
    lastCapture = Date.now();
  }
  const base64 = dataUrl?.replace(/^data:image\/jpeg;base64,/, '');
  return base64 ? { mediaType: 'image/jpeg', base64 } : undefined;
}
