import { AppError, toErrorShape } from '../../shared/errors';
import type { ActionOutcome, Observation, ObservedElement, ObservedTab, PageStatus, Screenshot } from '../../shared/agent/environment';
import type { WebAction, WebEnvironment } from '../../shared/agent/web-environment';
import type { TaskFile } from '../../shared/protocol';
import type { TabState } from '../platform/tab-control';
import type { PageAgent } from './page-agent';
import type { PageInput } from './page-input';
import { NOTICES, blockedReason, downloadsText, noticeText } from './page-notices';

export interface TabEnvironmentDeps {
  page: Pick<PageAgent, 'snapshot' | 'act' | 'restoreRefs'>;
  tabState: (tabId: number) => Promise<TabState | undefined>;
  listWindowTabs: (windowId: number) => Promise<TabState[]>;
  sleep: (ms: number) => Promise<void>;
  /** A JPEG of the tab as the user sees it, or nothing when it is not in front. */
  capture: (tabId: number) => Promise<Screenshot | undefined>;
  /** How long to wait for a page that does not answer yet (just navigated, content script still loading). */
  readyTimeoutMs?: number;
  /** Why the tab's page failed to load, when it shows the browser's error page. */
  loadFailure?: (tabId: number) => Promise<{ url: string; error: string } | undefined>;
  /** The task this environment acts for: its debugger attachment carries the input, its attached files the uploads. */
  task?: { owner: string; files: readonly TaskFile[] };
  /** Dialogs and downloads as the debugger reports them; absent where there is no debugger (unit tests). */
  input?: Pick<PageInput, 'attach' | 'dialogs' | 'downloads'>;
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
      const tab = await deps.tabState(tabId);
      if (!tab) throw new AppError('not_found', 'The tab the task worked in was closed.');
      const tabs: ObservedTab[] = (await deps.listWindowTabs(tab.windowId)).map((t) => ({ id: t.id, title: t.title, url: t.url, active: t.id === tabId }));
      // Taken only when asked for (the loop decides: for the model, or kept with the trace).
      const shoot = async (): Promise<{ screenshot?: Screenshot }> => {
        const screenshot = options.screenshot ? await deps.capture(tabId) : undefined;
        return screenshot ? { screenshot } : {};
      };
      // A page Deputy cannot read is a step too: the model is told what it is and chooses where to go.
      const notice = async (status: PageStatus, text: string): Promise<Observation> => ({
        status,
        url: tab.url,
        title: tab.title,
        text: noticeText(tab.title, tab.url, text),
        elements: [],
        tabs,
        ...(await shoot()),
      });
      const blocked = blockedReason(tab.url);
      if (blocked) return notice('blocked', NOTICES.blocked(blocked));
      const owner = deps.task?.owner;
      const downloads = owner === undefined ? [] : (deps.input?.downloads?.list(owner) ?? []);
      const extras = downloads.length > 0 ? { downloads } : {};
      // Attached from the first look on, so a dialog the page opens by itself (on load, on a timer) is seen too.
      if (owner !== undefined) await deps.input?.attach(owner, tabId);
      const dialog = await deps.input?.dialogs.current(tabId);
      if (dialog) {
        const { openedAt: _openedAt, ...shown } = dialog;
        // No screenshot: the page under a dialog draws no new frames, and a capture would wait for one.
        return { status: 'ready', url: tab.url, title: tab.title, text: noticeText(tab.title, tab.url, NOTICES.dialog(dialog)) + downloadsText(downloads), elements: [], tabs, dialog: shown, ...extras };
      }
      const failed = await deps.loadFailure?.(tabId);
      if (failed) return notice('unreachable', NOTICES.unreachable(failed.url, failed.error));
      let snapshot: Awaited<ReturnType<PageAgent['snapshot']>>;
      try {
        snapshot = await snapshotWhenReady(deps, tabId);
      } catch (error) {
        const now = await deps.tabState(tabId);
        if (now?.status === 'loading') return notice('loading', NOTICES.loadingUnreadable());
        const message = toErrorShape(error).message;
        if (/cannot access|cannot be scripted|extensions gallery|error page/i.test(message)) return notice('blocked', NOTICES.blocked(message));
        return notice('blocked', NOTICES.unreadable(message));
      }
      const loading = (await deps.tabState(tabId))?.status === 'loading';
      // The header line stays first; the note that the page is incomplete comes right under it.
      const text = loading ? snapshot.text.replace(/^([^\n]*)/, `$1\n(${NOTICES.stillLoading()})`) : snapshot.text;
      return {
        ...(loading ? { status: 'loading' as const } : {}),
        url: snapshot.url,
        title: snapshot.title,
        text: text + downloadsText(downloads),
        ...extras,
        elements: snapshot.elements.map(({ ref, role, name, inputType, autocomplete, frameId }) => ({
          ref,
          role,
          name,
          frame: frameId,
          ...(inputType === undefined ? {} : { inputType }),
          ...(autocomplete === undefined ? {} : { autocomplete }),
        })),
        tabs,
        ...(await shoot()),
      };
    },
    async act(action: WebAction): Promise<ActionOutcome> {
      const outcome = await deps.page.act(tabId, action, deps.task ? { owner: deps.task.owner, files: deps.task.files } : {});
      if (outcome.tabId !== undefined) tabId = outcome.tabId;
      return { ok: outcome.ok, message: outcome.message, changed: outcome.changed, evidence: outcome.evidence };
    },
  };
}
