import { browser } from './browser';

/**
 * The browser side of the egress guard: declarativeNetRequest session rules (enforced by the browser itself, per
 * request and per redirect hop), what webRequest reports about requests those rules blocked (the form fields a post
 * carried), and the tab events that tell which tabs a task's tabs opened.
 */

export type DnrRule = chrome.declarativeNetRequest.Rule;

/** A request the browser blocked for one of this extension's rules (net::ERR_BLOCKED_BY_CLIENT). */
export interface BlockedRequest {
  requestId: string;
  url: string;
  method: string;
  type: 'main_frame' | 'sub_frame' | 'ping';
  tabId: number;
  frameId: number;
  /** The form fields it carried, with their values: kept in the worker's memory only, to send them again if approved. */
  formData: Record<string, string[]> | null;
  /** It carried a body that is not form fields (a file, raw bytes): it cannot be sent again as it was. */
  rawBody: boolean;
  at: number;
}

export async function replaceSessionRules(removeRuleIds: number[], addRules: DnrRule[]): Promise<void> {
  await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds, addRules });
}

export async function sessionRuleIds(): Promise<number[]> {
  return (await chrome.declarativeNetRequest.getSessionRules()).map((rule) => rule.id);
}

export async function allTabIds(): Promise<number[]> {
  return (await browser.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
}

const TYPES: chrome.webRequest.ResourceType[] = ['main_frame', 'sub_frame', 'ping'];

/**
 * Calls `listener` for every main-frame, frame or ping request the browser blocked for an extension, with what it
 * would have sent. webRequest only observes here: the blocking is the rules' own. Registered at worker start.
 */
export function onRequestBlocked(listener: (request: BlockedRequest) => void): void {
  if (typeof chrome.webRequest?.onBeforeRequest === 'undefined') return;
  const seen = new Map<string, Omit<BlockedRequest, 'at'>>();
  chrome.webRequest.onBeforeRequest.addListener(
    (details) => {
      if (details.tabId < 0) return undefined;
      const body = details.requestBody;
      seen.set(details.requestId, {
        requestId: details.requestId,
        url: details.url,
        method: details.method.toUpperCase(),
        type: details.type as BlockedRequest['type'],
        tabId: details.tabId,
        frameId: details.frameId,
        formData: body?.formData ? (body.formData as Record<string, string[]>) : null,
        rawBody: Boolean(body?.raw?.length),
      });
      // Requests that never end (a page left open) must not pile up.
      if (seen.size > 500) seen.delete(seen.keys().next().value ?? '');
      return undefined;
    },
    { urls: ['<all_urls>'], types: TYPES },
    ['requestBody'],
  );
  const forget = (details: { requestId: string }): void => void seen.delete(details.requestId);
  chrome.webRequest.onCompleted.addListener(forget, { urls: ['<all_urls>'], types: TYPES });
  chrome.webRequest.onErrorOccurred.addListener(
    (details) => {
      const request = seen.get(details.requestId);
      seen.delete(details.requestId);
      if (details.error !== 'net::ERR_BLOCKED_BY_CLIENT' || details.tabId < 0) return;
      listener({
        ...(request ?? { requestId: details.requestId, method: 'GET', type: details.type as BlockedRequest['type'], frameId: details.frameId, formData: null, rawBody: false }),
        url: details.url,
        tabId: details.tabId,
        at: Date.now(),
      });
    },
    { urls: ['<all_urls>'], types: TYPES },
  );
}

/** How long a new tab's creation waits for the page-opened event that names its real opener. */
const OPENER_WAIT_MS = 2000;

/**
 * A tab was opened; `openerTabId` is the tab that opened it (a link with a target, window.open), when one did.
 *
 * For a window a page opens, Chromium's `tabs.onCreated` may name the wrong opener: the tab created or active before
 * it, not the page's (seen in Chromium 14x: a page's `window.open` in tab A reported opener B, the tab opened just
 * before). `webNavigation.onCreatedNavigationTarget` names the real one, and fires for every window a page opens.
 * So a tab created with an opener waits for that event and takes its source; only a tab no page opened (the
 * extension's own, the browser's new-tab command) falls back on the opener the tab event gave. Until the listener is
 * called the tab is nobody's, and the guard's rule for new tabs holds its loads.
 */
export function onTabOpened(listener: (tabId: number, openerTabId: number | undefined) => void): void {
  const named = new Set<number>();
  const waiting = new Map<number, ReturnType<typeof setTimeout>>();
  browser.tabs.onCreated.addListener((tab) => {
    const tabId = tab.id;
    if (tabId === undefined || named.has(tabId)) return;
    if (tab.openerTabId === undefined) {
      listener(tabId, undefined);
      return;
    }
    const hint = tab.openerTabId;
    waiting.set(
      tabId,
      setTimeout(() => {
        waiting.delete(tabId);
        if (!named.has(tabId)) listener(tabId, hint);
      }, OPENER_WAIT_MS),
    );
  });
  // A window opened by a page names its real opener here, whatever the tab event said (or did not say).
  const stopWaiting = (tabId: number): void => {
    clearTimeout(waiting.get(tabId));
    waiting.delete(tabId);
  };
  chrome.webNavigation?.onCreatedNavigationTarget?.addListener((details) => {
    named.add(details.tabId);
    stopWaiting(details.tabId);
    listener(details.tabId, details.sourceTabId);
  });
  browser.tabs.onRemoved.addListener((tabId) => {
    named.delete(tabId);
    stopWaiting(tabId);
  });
}

export function onTabClosed(listener: (tabId: number) => void): void {
  browser.tabs.onRemoved.addListener((tabId) => listener(tabId));
}

/** Loads an address in a tab again (a held page load the user approved, a tab of the user's the guard held by mistake). */
export async function reopenInTab(tabId: number, url: string): Promise<void> {
  await browser.tabs.update(tabId, { url });
}

// chrome-types declares `func` as taking no arguments although `args` are passed to it.
type InjectedFunc = () => void;

function postForm(url: string, fields: Record<string, string[]>): boolean {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = url;
  form.style.display = 'none';
  for (const [name, values] of Object.entries(fields)) {
    for (const value of values) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
  }
  document.body.append(form);
  form.submit();
  return true;
}

/** Sends a held form post again from the tab's page, with the fields it carried, once the user approved it. */
export async function resubmitForm(tabId: number, url: string, fields: Record<string, string[]>): Promise<boolean> {
  const [result] = await chrome.scripting.executeScript({
    target: { tabId, frameIds: [0] },
    args: [url, fields],
    func: postForm as unknown as InjectedFunc,
  });
  return result?.result === true;
}
