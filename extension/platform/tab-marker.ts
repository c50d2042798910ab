import type { InjectedFunc } from './main-world';

/**
 * Marks for the tab a task controls: the toolbar button's badge and tooltip for that tab alone, and a thin outline
 * drawn over the page. The outline is an element of its own in a closed shadow root, aria-hidden (so the snapshot the
 * model reads leaves it out) and pointer-events none (so it never takes a click or a hit test from the page).
 */
export interface TabBadge {
  text: string;
  color: string;
  title: string;
}

const MARKER_TAG = 'deputy-tab-marker';

/** Sets the badge of one tab, or gives the tab back the badge and title every tab shares (`null`). */
export async function setTabBadge(tabId: number, badge: TabBadge | null): Promise<void> {
  if (badge) {
    await Promise.all([
      chrome.action.setBadgeText({ tabId, text: badge.text }),
      chrome.action.setBadgeBackgroundColor({ tabId, color: badge.color }),
      chrome.action.setTitle({ tabId, title: badge.title }),
    ]);
    return;
  }
  const title = (chrome.runtime.getManifest().action as { default_title?: string } | undefined)?.default_title ?? 'Deputy';
  // Without text the tab's own badge is cleared and the shared one (waiting approvals) shows again.
  await Promise.all([chrome.action.setBadgeText({ tabId }), chrome.action.setTitle({ tabId, title })]);
}

/** Draws (or removes) the outline on the tab's top page; a page that cannot be scripted is left as it is. */
export async function setPageOutline(tabId: number, on: boolean): Promise<boolean> {
  try {
    await chrome.scripting.executeScript({ target: { tabId }, func: drawOutline as unknown as InjectedFunc, args: [MARKER_TAG, on] });
    return true;
  } catch {
    return false;
  }
}

/** Runs in the page: one marker at most, replaced on each call so a second call never stacks a second frame. */
function drawOutline(tag: string, on: boolean): void {
  for (const old of Array.from(document.querySelectorAll(tag))) old.remove();
  if (!on) return;
  const host = document.createElement(tag);
  host.setAttribute('aria-hidden', 'true');
  host.setAttribute('inert', '');
  host.style.cssText = 'all: initial; position: fixed; inset: 0; pointer-events: none; z-index: 2147483647; display: block;';
  const frame = document.createElement('div');
  frame.style.cssText =
    'position: fixed; inset: 0; pointer-events: none; box-sizing: border-box; border: 3px solid rgba(37, 99, 235, 0.75); box-shadow: inset 0 0 14px rgba(37, 99, 235, 0.3);';
  host.attachShadow({ mode: 'closed' }).append(frame);
  document.documentElement.append(host);
}
