import type { Logger } from '../../../shared/logger';
import type { Launch } from '../../../shared/protocol';
import type { MenuClick, MenuItem } from '../../platform/ui-surfaces';

export const AUTOMATE_CHAT_MENU: MenuItem = {
  id: 'deputy-automate-chat',
  title: 'Automate this chat',
  contexts: ['page', 'frame', 'selection'],
};

export interface AutomateChatDeps {
  hasSidePanel: () => boolean;
  openSidePanel: (target: { tabId: number }) => Promise<void>;
  /** Where there is no side panel, the panel's page opens in a tab of its own. */
  openPanelInTab: (tabId: number) => Promise<void>;
  saveLaunch: (launch: Launch) => Promise<void>;
  announce: (launch: Launch) => void;
  now: () => number;
  log: Logger;
}

/**
 * "Automate this chat": opens the side panel on the clicked tab with the chat flow preselected. The panel must be
 * opened synchronously, inside the click's user gesture, so that call comes before anything is awaited.
 */
export function handleAutomateChatClick(
  deps: AutomateChatDeps,
  click: MenuClick,
  tab: { id: number } | undefined,
): Promise<Launch | undefined> {
  if (click.menuItemId !== AUTOMATE_CHAT_MENU.id || !tab) return Promise.resolve(undefined);
  const opened = deps.hasSidePanel()
    ? deps.openSidePanel({ tabId: tab.id }).catch((error: unknown) => {
        deps.log.warn('side panel did not open; opening the panel page in a tab', { error: String(error) });
        return deps.openPanelInTab(tab.id);
      })
    : deps.openPanelInTab(tab.id);
  const launch: Launch = {
    tabId: tab.id,
    flow: 'chat',
    at: deps.now(),
    ...(click.frameId === undefined ? {} : { frameId: click.frameId }),
    ...(click.pageUrl === undefined ? {} : { pageUrl: click.pageUrl }),
    ...(click.selectionText === undefined ? {} : { selectionText: click.selectionText.slice(0, 2000) }),
  };
  return deps
    .saveLaunch(launch)
    .then(() => deps.announce(launch))
    .then(() => opened)
    .then(() => launch);
}
