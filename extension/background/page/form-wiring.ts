import type { ChannelHandlers, FormChannel } from '../../../shared/protocol';
import { closeTab, createTab, tabState } from '../../platform/tab-control';
import { fillForm } from './form-fill';
import type { PageAgent } from './page-agent';

/** Snapshots of a form page are read whole: a long form's fields must all be there to be found. */
const FORM_SNAPSHOT_TOKENS = 60_000;

/**
 * `form.fill` over the real browser: a background tab, the page agent's snapshots and actions. Served to the native
 * host (a loop run from the side panel) and to the extension's own pages (a `deputy loop` that started this browser).
 */
export function createFormHandlers(page: PageAgent): ChannelHandlers<FormChannel['methods']> {
  return {
    'form.fill': (request) =>
      fillForm(
        {
          openTab: async () => (await createTab(undefined, undefined, false)).id,
          closeTab: async (tabId) => {
            page.forget(tabId);
            await closeTab(tabId);
          },
          snapshot: (tabId) => page.snapshot(tabId, { mode: 'page', maxTokens: FORM_SNAPSHOT_TOKENS }),
          loaded: async (tabId) => (await tabState(tabId))?.status === 'complete',
          act: (tabId, action) => page.act(tabId, action),
          find: (tabId, text) => page.find(tabId, text),
          now: () => Date.now(),
          sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        },
        request,
      ),
  };
}
