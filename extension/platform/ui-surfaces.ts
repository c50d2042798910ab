import { browser } from './browser';

/**
 * Side panel, popup, toolbar action and context menu: the surfaces through which the user reaches Deputy.
 */
export function hasSidePanel(): boolean {
  return typeof chrome.sidePanel?.open === 'function';
}

/** Must be called synchronously inside a user gesture (a click handler), before any await. */
export function openSidePanel(target: { tabId: number } | { windowId: number }): Promise<void> {
  return chrome.sidePanel.open(target);
}

export function openPanelOnActionClick(): Promise<void> {
  return chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
}

/** Where the side panel cannot open (some Brave versions), the toolbar button opens the popup instead. */
export function useActionPopup(path: string): Promise<void> {
  return chrome.action.setPopup({ popup: path });
}

export function setBadge(text: string, color = '#2563eb'): Promise<void> {
  return Promise.all([chrome.action.setBadgeText({ text }), chrome.action.setBadgeBackgroundColor({ color })]).then(
    () => undefined,
  );
}

export type MenuContext = 'page' | 'frame' | 'selection';

export interface MenuItem {
  id: string;
  title: string;
  contexts: [MenuContext, ...MenuContext[]];
}

export async function createMenuItems(items: MenuItem[]): Promise<void> {
  await browser.contextMenus.removeAll();
  for (const item of items) browser.contextMenus.create({ id: item.id, title: item.title, contexts: item.contexts });
}

export interface MenuClick {
  menuItemId: string;
  frameId: number | undefined;
  pageUrl: string | undefined;
  frameUrl: string | undefined;
  selectionText: string | undefined;
}

export function onMenuClicked(listener: (click: MenuClick, tab: { id: number; windowId: number } | undefined) => void): void {
  browser.contextMenus.onClicked.addListener((info, tab) => {
    listener(
      {
        menuItemId: String(info.menuItemId),
        frameId: info.frameId,
        pageUrl: info.pageUrl,
        frameUrl: info.frameUrl,
        selectionText: info.selectionText,
      },
      tab?.id === undefined || tab.windowId === undefined ? undefined : { id: tab.id, windowId: tab.windowId },
    );
  });
}

export async function openTab(url: string): Promise<void> {
  await browser.tabs.create({ url });
}

/**
 * Opens the side panel on a tab and brings that tab forward; where the panel cannot open (outside a user gesture,
 * some Brave versions) the panel's page opens in a tab instead. Call it first thing in the event handler, before any
 * await: the side panel opens only while the user's gesture lasts.
 */
export function openPanelOnTab(tabId: number, fallbackUrl: string): Promise<void> {
  const opened = hasSidePanel() ? chrome.sidePanel.open({ tabId }) : Promise.reject(new Error('This browser has no side panel.'));
  return opened.then(
    async () => {
      const tab = await browser.tabs.update(tabId, { active: true });
      if (tab.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true });
    },
    () => openTab(fallbackUrl),
  );
}
