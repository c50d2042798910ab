import { AppError } from '../../shared/errors';
import type { ActionOutcome, Observation, ObservedElement, ObservedTab, Screenshot } from '../../shared/agent/environment';
import type { WebAction, WebEnvironment } from '../../shared/agent/web-environment';
import type { TabState } from '../platform/tab-control';
import type { PageAgent } from './page-agent';

export interface TabEnvironmentDeps {
  page: Pick<PageAgent, 'snapshot' | 'act' | 'restoreRefs'>;
  tabState: (tabId: number) => Promise<TabState | undefined>;
  listWindowTabs: (windowId: number) => Promise<TabState[]>;
  sleep: (ms: number) => Promise<void>;
  /** A JPEG of the tab as the user sees it, or nothing when it is not in front. */
  capture: (tabId: number) => Promise<Screenshot | undefined>;
  /** How long to wait for a page that does not answer yet (just navigated, content script still loading). */
  readyTimeoutMs?: number;
}

/** Takes a snapshot, waiting while the page cannot answer yet: right after a navigation its script may still load. */
async function snapshotWhenReady(deps: TabEnvironmentDeps, tabId: number): Promise<Awaited<ReturnType<PageAgent['snapshot']>>> {
  const deadline = Date.now() + (deps.readyTimeoutMs ?? 5000);
  for (;;) {
    try {
      return await deps.page.snapshot(tabId, { mode: 'viewport' });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'unavailable' || Date.now() >= deadline) throw error;
      await deps.sleep(100);
    }
  }
}

/** A tab that the agent drives and the tab it is on now (a new or switched tab moves the agent along). */
export interface TabEnvironment extends WebEnvironment {
  currentTabId(): number;
  /** Numbers from a snapshot taken before a restart, so the action the task was about to take still names its element. */
  restoreRefs(url: string, elements: readonly ObservedElement[]): number;
}

/**
 * The agent core's web environment over the page agent: observe() is a viewport snapshot with tab-wide numbers plus
 * the window's tabs; act() is one verified page action. It follows the agent when an action opens or switches tabs.
 */
export function createTabEnvironment(deps: TabEnvironmentDeps, startTabId: number): TabEnvironment {
  let tabId = startTabId;
  return {
    currentTabId: () => tabId,
    restoreRefs: (url, elements) => deps.page.restoreRefs(tabId, url, elements),
    async observe(options): Promise<Observation> {
      const snapshot = await snapshotWhenReady(deps, tabId);
      // Taken only when the task asked for screenshots and the model accepts images (the loop decides).
      const screenshot = options.screenshot ? await deps.capture(tabId) : undefined;
      const tab = await deps.tabState(tabId);
      const tabs: ObservedTab[] = tab
        ? (await deps.listWindowTabs(tab.windowId)).map((t) => ({ id: t.id, title: t.title, url: t.url, active: t.id === tabId }))
        : [];
      return {
        url: snapshot.url,
        title: snapshot.title,
        text: snapshot.text,
        elements: snapshot.elements.map(({ ref, role, name, inputType, autocomplete, frameId }) => ({
          ref,
          role,
          name,
          frame: frameId,
          ...(inputType === undefined ? {} : { inputType }),
          ...(autocomplete === undefined ? {} : { autocomplete }),
        })),
        tabs,
        ...(screenshot ? { screenshot } : {}),
      };
    },
    async act(action: WebAction): Promise<ActionOutcome> {
      const outcome = await deps.page.act(tabId, action);
      if (outcome.tabId !== undefined) tabId = outcome.tabId;
      return { ok: outcome.ok, message: outcome.message, changed: outcome.changed, evidence: outcome.evidence };
    },
  };
}
