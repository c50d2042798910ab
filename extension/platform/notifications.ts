/**
 * Desktop notifications, for approvals and questions that wait while no Deputy page is open to show them.
 */
export interface Notice {
  id: string;
  title: string;
  message: string;
}

/** True when a side panel, popup or Deputy page in a tab is open: it shows approvals itself. */
export async function hasOpenUiPage(): Promise<boolean> {
  const contexts = await chrome.runtime.getContexts({
    contextTypes: ['SIDE_PANEL', 'POPUP', 'TAB'],
  });
  return contexts.length > 0;
}

export async function showNotification(notice: Notice): Promise<void> {
  await chrome.notifications.create(notice.id, {
    type: 'basic',
    iconUrl: chrome.runtime.getURL('extension/assets/icon-128.png'),
    title: notice.title,
    message: notice.message,
    requireInteraction: true,
  });
}

export async function clearNotification(id: string): Promise<void> {
  await chrome.notifications.clear(id);
}

/** Ids of this extension's notifications on screen now. */
export async function notificationIds(): Promise<string[]> {
  return Object.keys(await chrome.notifications.getAll());
}

export function onNotificationClicked(listener: (id: string) => void): void {
  chrome.notifications.onClicked.addListener((id) => listener(id));
}
