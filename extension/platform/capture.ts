/**
 * A screenshot of what the user sees in a window: only the window's active tab can be captured, so the caller says
 * which tab it wants and gets nothing when that tab is not in front.
 */
export async function captureTabIfVisible(tabId: number, quality = 60): Promise<{ mediaType: 'image/jpeg'; base64: string } | undefined> {
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab?.active) return undefined;
  const dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, { format: 'jpeg', quality }).catch(() => undefined);
  const base64 = dataUrl?.replace(/^data:image\/jpeg;base64,/, '');
  return base64 ? { mediaType: 'image/jpeg', base64 } : undefined;
}
