import { browser } from './browser';

/** Chrome allows two captures a second (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND); more fail. */
const CAPTURE_INTERVAL_MS = 600;
let lastCapture = 0;
const CAPTURE_TIMEOUT_MS = 3000;
/** Captures refused for the quota are tried again this many times in all, each after waiting its turn. */
const CAPTURE_ATTEMPTS = 4;

/** Sends one DevTools command to the tab, through a debugger attachment the caller already holds. */
export type DevtoolsSend = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

type Jpeg = { mediaType: 'image/jpeg'; base64: string };

/**
 * A screenshot of what the user sees in a window: only the window's active tab can be captured, so the caller says
 * which tab it wants and gets nothing when that tab is not in front. With the tab's debugger attachment (`devtools`),
 * the page's own surface is captured, which no quota limits, so a step never waits its turn for its screenshot;
 * without it, captures are spaced to the browser's quota, so a fast run of steps still gets one for each.
 */
export async function captureTabIfVisible(tabId: number, quality = 60, devtools?: DevtoolsSend): Promise<Jpeg | undefined> {
  const tab = await browser.tabs.get(tabId).catch(() => undefined);
  if (!tab?.active) return undefined;
  if (devtools) {
    const shot = await captureSurface(devtools, quality);
    if (shot !== 'failed') return shot;
  }
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

/**
 * The tab's viewport as the page draws it (what captureVisibleTab shows of an active tab), through the debugger:
 * undefined when the page draws no frame in time (frozen under a dialog that opened meanwhile), 'failed' when the
 * debugger refused (detached meanwhile), so the caller can take the quota-bound way instead.
 */
async function captureSurface(devtools: DevtoolsSend, quality: number): Promise<Jpeg | undefined | 'failed'> {
  let timer: number | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, CAPTURE_TIMEOUT_MS)));
  const taken = devtools('Page.captureScreenshot', { format: 'jpeg', quality, optimizeForSpeed: true }).then(
    (answer) => {
      const data = (answer as { data?: unknown } | undefined)?.data;
      return typeof data === 'string' && data !== '' ? ({ mediaType: 'image/jpeg', base64: data } as const) : ('failed' as const);
    },
    () => 'failed' as const,
  );
  try {
    return await Promise.race([taken, late]);
  } finally {
    clearTimeout(timer);
  }
}
