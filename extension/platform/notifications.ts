import { browser } from './browser';

/**
 * Desktop notifications, for approvals and questions that wait while no Deputy page is open to show them.
 */
export interface Notice {
  id: string;
  title: string;
  message: string;
}

/** True when a side panel, popup or Deputy page in a tab is open: it shows approvals itself (a Chrome-only call). */
export async function hasOpenUiPage(): Promise<boolean> {
  const contexts = await chrome.runtime.getContexts({
    contextTypes: ['SIDE_PANEL', 'POPUP', 'TAB'],
  });
  return contexts.length > 0;
}

export async function showNotification(notice: Notice): Promise<void> {
  // chrome.*: requireInteraction (the notice stays until answered) is Chrome's alone.
  await chrome.notifications.create(notice.id, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('extension/assets/icon-128.png'),
    title: notice.title,
    message: notice.message,
    requireInteraction: true,
  });
}

export async function clearNotification(id: string): Promise<void> {
  await browser.notifications.clear(id);
}

/** Ids of this extension's notifications on screen now. */
export async function notificationIds(): Promise<string[]> {
  return Object.keys(await browser.notifications.getAll());
}

export function onNotificationClicked(listener: (id: string) => void): void {
  browser.notifications.onClicked.addListener((id) => listener(id));
}

/** The user closed a notification (not the browser closing it). */
export function onNotificationClosedByUser(listener: (id: string) => void): void {
  browser.notifications.onClosed.addListener((id, byUser) => {
    if (byUser) listener(id);
  });
}
