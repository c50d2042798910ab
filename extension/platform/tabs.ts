import { browser, type Tabs } from './browser';

export interface TabInfo {
  id: number;
  windowId: number;
  url: string | undefined;
  title: string | undefined;
  active: boolean;
}

function toInfo(tab: Tabs.Tab): TabInfo | undefined {
  if (tab.id === undefined || tab.windowId === undefined) return undefined;
  return { id: tab.id, windowId: tab.windowId, url: tab.url, title: tab.title, active: tab.active };
}

export async function getTab(tabId: number): Promise<TabInfo | undefined> {
  try {
    return toInfo(await browser.tabs.get(tabId));
  } catch {
    return undefined;
  }
}

export async function activeTab(): Promise<TabInfo | undefined> {
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
  return tab ? toInfo(tab) : undefined;
}

/** Sends one message to one frame's content script and returns its reply. */
export function sendToFrame(tabId: number, frameId: number, message: unknown): Promise<unknown> {
  return browser.tabs.sendMessage(tabId, message, { frameId });
}

/**
 * Lists the frames of a tab that can run script, without the webNavigation permission: scripting.executeScript with
 * allFrames reports one result per frame, with its id.
 */
export async function listFrames(tabId: number): Promise<number[]> {
  const results = await chrome.scripting.executeScript({
    target: { tabId, allFrames: true },
    func: () => true,
  });
  return results.map((result) => result.frameId);
}

export function onTabActivated(listener: (tabId: number) => void): void {
  browser.tabs.onActivated.addListener((info) => listener(info.tabId));
}

export function onTabUpdated(listener: (tabId: number, url: string | undefined) => void): void {
  browser.tabs.onUpdated.addListener((tabId, change) => {
    if (change.url !== undefined || change.status === 'complete') listener(tabId, change.url);
  });
}

export function onTabRemoved(listener: (tabId: number) => void): void {
  browser.tabs.onRemoved.addListener((tabId) => listener(tabId));
}
