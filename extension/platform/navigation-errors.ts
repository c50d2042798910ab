import { browser } from './browser';

/** Why a tab's page failed to load, as the browser said it (net::ERR_NAME_NOT_RESOLVED, ...), while the worker lives. */
const lastErrors = new Map<number, { url: string; error: string }>();

/**
 * Remembers the network error of each tab's last failed page load. Registered when the worker starts, like every
 * listener; a worker that restarted since knows only that the page failed (see loadFailure).
 */
export function trackNavigationErrors(): void {
  if (typeof chrome.webNavigation?.onErrorOccurred === 'undefined') return;
  chrome.webNavigation.onErrorOccurred.addListener((details) => {
    if (details.frameId !== 0) return;
    // A retry of the same failed address that was cancelled (the error page's own reload) says nothing new: the cause
    // the user needs is still the first one (net::ERR_CONNECTION_REFUSED, not net::ERR_ABORTED).
    const known = lastErrors.get(details.tabId);
    if (details.error === 'net::ERR_ABORTED' && known?.url === details.url) return;
    lastErrors.set(details.tabId, { url: details.url, error: details.error });
  });
  chrome.webNavigation.onCommitted.addListener((details) => {
    if (details.frameId === 0) lastErrors.delete(details.tabId);
  });
  browser.tabs.onRemoved.addListener((tabId) => lastErrors.delete(tabId));
}

/**
 * Whether the tab shows the browser's error page for a page that could not be loaded, and why when it is known.
 * Undefined when the page loaded (or is loading) normally.
 */
export async function loadFailure(tabId: number): Promise<{ url: string; error: string } | undefined> {
  if (typeof chrome.webNavigation?.getFrame === 'undefined') return undefined;
  const frame = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
  if (!frame?.errorOccurred) return undefined;
  const known = lastErrors.get(tabId);
  return { url: frame.url, error: known && known.url === frame.url ? known.error : 'the page could not be loaded' };
}
