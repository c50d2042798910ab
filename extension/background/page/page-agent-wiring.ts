import { loadFailure } from '../../platform/navigation-errors';
import { watchTabRequests } from '../../platform/network-activity';
import { watchTabActivity } from '../../platform/tab-activity';
import { watchTabChanges } from '../../platform/tab-changes';
import { sendToFrame } from '../../platform/tabs';
import {
  activateTab,
  closeTab,
  createTab,
  goBack,
  goForward,
  listScriptableFrames,
  listWindowTabs,
  navigateTab,
  reloadTab,
  tabState,
  waitForTabLoad,
} from '../../platform/tab-control';
import { PageAgent } from './page-agent';
import type { PageInput } from '../input/page-input';

/**
 * The page agent over the real browser: content frames through chrome.tabs messaging, tabs through chrome.tabs, and
 * trusted input, dialogs, file pickers and downloads through the debugger.
 */
export function createPageAgent(input: PageInput): PageAgent {
  return new PageAgent({
    input,
    frames: { listFrames: listScriptableFrames, sendToFrame },
    tabs: {
      state: tabState,
      list: listWindowTabs,
      navigate: navigateTab,
      back: goBack,
      forward: goForward,
      reload: reloadTab,
      create: createTab,
      activate: activateTab,
      close: closeTab,
      waitForLoad: waitForTabLoad,
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: () => Date.now(),
    watchRequests: (tabId) => watchTabRequests(tabId),
    watchActivity: (tabId) => watchTabActivity(tabId),
    watchChanges: (tabId) => watchTabChanges(tabId),
    loadFailure,
  });
}
