import { useEffect, useState } from 'preact/hooks';
import { activeTab, getTab, onTabActivated, onTabUpdated, type TabInfo } from '../platform/tabs';

/**
 * The tab the panel acts on: the one named by `?tab=` (the panel page opened in a tab of its own), else the active
 * tab of the window, followed as the user switches tabs or the page navigates.
 */
export function useTargetTab(fixedTabId: number | undefined): TabInfo | undefined {
  const [tab, setTab] = useState<TabInfo | undefined>(undefined);
  useEffect(() => {
    let disposed = false;
    const refresh = async (): Promise<void> => {
      const next = fixedTabId === undefined ? await activeTab() : await getTab(fixedTabId);
      if (!disposed) setTab(next);
    };
    void refresh();
    if (fixedTabId === undefined) onTabActivated(() => void refresh());
    onTabUpdated((tabId) => {
      if (fixedTabId === undefined || tabId === fixedTabId) void refresh();
    });
    return () => {
      disposed = true;
    };
  }, [fixedTabId]);
  return tab;
}

export function tabIdFromLocation(search: string): number | undefined {
  const value = new URLSearchParams(search).get('tab');
  if (value === null || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

export function siteOf(url: string | undefined): string {
  if (!url) return 'no page';
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : parsed.protocol.replace(':', ' page');
  } catch {
    return 'no page';
  }
}
