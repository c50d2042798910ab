import { extensionUrl } from '../platform/runtime';
import { hasSidePanel, openSidePanel, openTab } from '../platform/ui-surfaces';
import type { BackgroundClient } from '../ui/background-client';
import { HostStatusLine } from '../ui/host-status-line';
import { useHostStatus } from '../ui/use-host-status';
import { siteOf, useTargetTab } from '../ui/use-target-tab';

/** The quick launcher, and the fallback where the side panel cannot open. */
export function PopupApp(props: { client: BackgroundClient }) {
  const status = useHostStatus(props.client);
  const tab = useTargetTab(undefined);
  const openPanel = (): void => {
    if (!tab) return;
    // Opening the panel must happen inside this click; where it cannot, the panel's page opens in a tab.
    const fallback = (): Promise<void> => openTab(extensionUrl(`extension/sidepanel/index.html?tab=${tab.id}`));
    const opened = hasSidePanel() ? openSidePanel({ tabId: tab.id }).catch(fallback) : fallback();
    void opened.then(() => window.close());
  };
  return (
    <main class="app">
      <header class="app__header">
        <h1 class="app__title">Deputy</h1>
        <span class="site">{siteOf(tab?.url)}</span>
      </header>
      <HostStatusLine status={status} onRetry={() => void props.client.call('host.reconnect', {})} />
      <button type="button" class="button" onClick={openPanel}>
        Open side panel
      </button>
    </main>
  );
}
