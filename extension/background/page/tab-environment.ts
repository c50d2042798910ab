import { AppError, toErrorShape } from '../../../shared/errors';
import type { ActionOutcome, Observation, ObservedElement, ObservedTab, PageStatus, Screenshot } from '../../../shared/agent/environment';
import type { WebAction, WebEnvironment } from '../../../shared/agent/web-environment';
import type { TaskFile } from '../../../shared/protocol';
import type { TabState } from '../../platform/tab-control';
import type { HeldRequest } from '../egress/egress-guard';
import type { PageAgent } from './page-agent';
import type { PageInput } from '../input/page-input';
import { NOTICES, blockedReason, downloadsText, noticeText } from './page-notices';
import { answerCookieBanner, type CookieConsentDeps } from './cookie-consent';
import { type TaskEgress, gateFactsFor, heldDuring, publicView, resolveHeld, setGuardScope } from '../egress/task-egress';
import { tellLateHeld } from '../egress/late-held';

export interface TabEnvironmentDeps {
  page: Pick<PageAgent, 'snapshot' | 'act' | 'restoreRefs' | 'effect' | 'settle'>;
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
  /** The task's egress guard: where its tabs may go, and what the browser held. Absent outside tasks. */
  egress?: TaskEgress;
  /** Cookie banners answered before the model reads the page, and the step list's line for each. */
  consent?: CookieConsentDeps & { note: (text: string) => Promise<void> };
}

/** Actions after which the page may have opened a window (a click on a link with a target, window.open). */
const MAY_OPEN_WINDOW = new Set(['click', 'press', 'type', 'check']);

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
  const egress = deps.egress;
  const held = new Map<string, { request: HeldRequest; returnTo: string | undefined }>();
  const ownTabs = (): number[] => [...new Set([tabId, ...(egress ? egress.guard.tabsOf(egress.taskId) : [])])];
  const tabsForEgress = {
    act: (id: number, action: Record<string, unknown>) => deps.page.act(id, action),
    // A held page load leaves the browser's error page in the tab, under the held address.
    showsError: async (id: number, url: string) => (await deps.tabState(id))?.url === url || (await deps.loadFailure?.(id)) !== undefined,
    settle: async (id: number) => (await deps.page.settle(id, { loadCapMs: 15_000, quietCapMs: 3000 })).tab,
  };
  /** The window's tabs, split into the task's own (shown with their addresses) and how many others there are. */
  const windowTabs = async (windowId: number): Promise<{ own: ObservedTab[]; others: TabState[] }> => {
    const all = await deps.listWindowTabs(windowId);
    const mine = new Set(ownTabs());
    return {
      own: all.filter((t) => mine.has(t.id)).map((t) => ({ id: t.id, title: t.title, url: t.url, active: t.id === tabId })),
      others: all.filter((t) => !mine.has(t.id)),
    };
  };
  /** The screenshot taken beside the last look's snapshot (observe with `keep`), until capture() hands it over. */
  let takenWithLook: { tabId: number; shot: Promise<Screenshot | undefined> } | undefined;
  return {
    currentTabId: () => tabId,
    restoreRefs: (url, elements) => deps.page.restoreRefs(tabId, url, elements),
    gateFacts: (call) => gateFactsFor((id, ref, action) => deps.page.effect(id, ref, action), tabId, call),
    ...(egress ? { setEgressScope: (scope) => setGuardScope(egress, tabId, scope) } : {}),
    ...(egress?.secrets ? { secretsPlaced: (values, origins) => egress.secrets?.place(egress.taskId, ownTabs(), values, origins) ?? Promise.resolve() } : {}),
    async resolveBlocked(blocked, approved): Promise<ActionOutcome> {
      const entry = held.get(blocked.id);
      if (!egress || !entry) return { ok: false, changed: false, message: 'the held request is no longer known (the worker restarted): do the action again', evidence: [] };
      held.delete(blocked.id);
      const outcome = await resolveHeld(egress, tabsForEgress, entry.request, approved, entry.returnTo);
      if (outcome.tabId !== undefined) tabId = outcome.tabId;
      return { ok: outcome.ok, changed: outcome.changed, message: outcome.message, evidence: outcome.evidence ?? [] };
    },
    async capture(): Promise<Screenshot | undefined> {
      const taken = takenWithLook;
      takenWithLook = undefined;
      if (taken?.tabId === tabId) return taken.shot;
      // A page under a JavaScript dialog draws no frames: a capture would wait for one.
      if (await deps.input?.dialogs.current(tabId)) return undefined;
      return deps.capture(tabId);
    },
    async observe(options): Promise<Observation> {
      takenWithLook = undefined;
      const tab = await deps.tabState(tabId);
      if (!tab) throw new AppError('not_found', 'The tab the task worked in was closed.');
      const { own, others } = await windowTabs(tab.windowId);
      const tabs: ObservedTab[] = own;
      // What the guard held since the last look with no approval asked (a window the page opened late): told here.
      const late = egress ? await tellLateHeld(egress, tabId) : '';
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
        text: noticeText(tab.title, tab.url, text) + late,
        elements: [],
        tabs,
        otherTabs: others.length,
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
        return { status: 'ready', url: tab.url, title: tab.title, text: noticeText(tab.title, tab.url, NOTICES.dialog(dialog)) + downloadsText(downloads) + late, elements: [], tabs, dialog: shown, ...extras };
      }
      const failed = await deps.loadFailure?.(tabId);
      if (failed) return notice('unreachable', NOTICES.unreachable(failed.url, failed.error));
      if (deps.consent) {
        const answered = await answerCookieBanner(deps.consent, tabId);
        if (answered) await deps.consent.note(answered);
      }
      // The screenshot to keep shows the page the snapshot reads: taken beside it, so the step does not wait for it after.
      if (options.keep === true && !options.screenshot) {
        const shot = deps.capture(tabId).catch(() => undefined);
        takenWithLook = { tabId, shot };
      }
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
        text: text + downloadsText(downloads) + late,
        ...extras,
        elements: snapshot.elements.map(({ ref, role, name, inputType, autocomplete, frameId, origin }) => ({
          ref,
          role,
          name,
          frame: frameId,
          ...(inputType === undefined ? {} : { inputType }),
          ...(autocomplete === undefined ? {} : { autocomplete }),
          ...(origin === undefined ? {} : { origin }),
        })),
        ...(snapshot.frameOrigins && snapshot.frameOrigins.length > 0 ? { frameOrigins: snapshot.frameOrigins } : {}),
        tabs,
        otherTabs: others.length,
        ...(await shoot()),
      };
    },
    async act(action: WebAction): Promise<ActionOutcome> {
      if (action.kind === 'tab_list') {
        const tab = await deps.tabState(tabId);
        const { own, others } = tab ? await windowTabs(tab.windowId) : { own: [], others: [] };
        // The user's other tabs by title only: enough to pick one, without their addresses.
        const evidence = [...own.map((t) => `tab ${t.id} (the task's${t.active ? ', current' : ''}): ${t.title.slice(0, 100)} — ${t.url}`), ...others.map((t) => `tab ${t.id}: ${t.title.slice(0, 100)}`)];
        return { ok: true, changed: false, message: `${own.length + others.length} tabs open in this window`, evidence };
      }
      const since = egress?.now() ?? 0;
      const actedIn = tabId;
      const before = egress ? (await deps.tabState(tabId))?.url : undefined;
      // A tab the action opens is covered from its first request. Tabs born later are covered too, for the task's whole
      // life (the guard's rule for new tabs; tests/e2e/safety-late-windows): this watch only marks a tab born during it.
      const unwatch = egress && MAY_OPEN_WINDOW.has(action.kind) ? await egress.guard.watchNewTabs(egress.taskId) : null;
      let outcome: Awaited<ReturnType<typeof deps.page.act>>;
      try {
        outcome = await deps.page.act(tabId, action, deps.task ? { owner: deps.task.owner, files: deps.task.files } : {});
      } finally {
        if (unwatch) void egress?.sleep(1500).then(unwatch);
      }
      if (outcome.tabId !== undefined) {
        tabId = outcome.tabId;
        // A tab the task opened or (with the user's approval) switched to is the task's from now on.
        if (egress) await egress.guard.adopt(egress.taskId, tabId);
      }
      const result: ActionOutcome = { ok: outcome.ok, message: outcome.message, changed: outcome.changed, evidence: outcome.evidence, ...(outcome.timings ? { timings: outcome.timings } : {}) };
      if (!egress) return result;
      const checked = egress.now();
      const blocked = await heldDuring(egress, since, tabId, MAY_OPEN_WINDOW.has(action.kind), outcome.openedTabs);
      if (result.timings) result.timings['egress check'] = egress.now() - checked;
      if (!blocked) return result;
      held.set(blocked.id, { request: blocked, returnTo: blocked.tabId === actedIn ? before : undefined });
      return { ...result, blocked: publicView(blocked) };
    },
  };
}
