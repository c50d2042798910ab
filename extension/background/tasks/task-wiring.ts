import { z } from 'zod';
import { createProvider } from '../../../shared/agent/providers/create-provider';
import { createConsoleLogger } from '../../../shared/logger';
import type { TaskFile, TaskRecord, TaskThinking } from '../../../shared/protocol';
import { clearNotification, hasOpenUiPage, notificationIds, onNotificationClicked, onNotificationClosedByUser, showNotification } from '../../platform/notifications';
import { extensionUrl, onStartup } from '../../platform/runtime';
import { captureTabIfVisible } from '../../platform/capture';
import { clearPageMarks, withoutPageMarks } from '../../platform/page-marks';
import { applyConsentInTab } from '../../platform/consent-in-page';
import { PageMarks } from './page-marks';
import { loadFailure } from '../../platform/navigation-errors';
import { indexedDbScreenshots } from '../../platform/screenshot-db';
import { thumbnailOf } from '../../platform/thumbnail';
import { chromeStore, type Store } from '../../platform/storage';
import { createTab, listAllTabs, listWindowTabs, tabState, waitForTabLoad } from '../../platform/tab-control';
import { setPageOutline, setTabBadge } from '../../platform/tab-marker';
import { openPanelOnTab, setBadge } from '../../platform/ui-surfaces';
import { AttentionNotices, isAttentionNotice, tabOfNotice } from './attention-notices';
import { allTabIds, reopenInTab, replaceSessionRules, resubmitForm, sessionRuleIds } from '../../platform/egress-rules';
import { createChatCaseEnvironment } from '../chat/chat-case-environment';
import { PromiseReminders, taskOfPromiseNotice } from '../chat/promise-reminders';
import { createSupportSiteMemory } from '../chat/support-site-memory';
import { alarmNames, clearAlarm, onAlarm, setAlarm } from '../../platform/alarms';
import { EgressGuard } from '../egress/egress-guard';
import { SecretEgress } from '../egress/secret-egress';
import type { ChatDriver } from '../chat/chat-driver';
import type { InputServices } from '../input/input-wiring';
import type { PageAgent } from '../page/page-agent';
import { SettingsStore } from '../stores/settings-store';
import { createTabEnvironment, type TabEnvironment } from '../page/tab-environment';
import type { AnyTool } from '../../../shared/agent/tool';
import { TaskRunner, isActive } from './task-runner';
import { TabMarkers } from './tab-markers';
import { TaskStore } from './task-store';
import { createTaskUiHandlers } from './task-ui-handlers';
import { createRoutineUiHandlers, type RoutineUiHandlers } from '../routines/routine-ui-handlers';
import { RoutineScheduler } from '../routines/routine-scheduler';
import { ScheduleNotices } from '../routines/schedule-notices';
import type { RoutineSchedule } from '../../../shared/routines/routine-schedule';
import { RoutineStore } from '../routines/routine-store';

/** Builds the task runner and its stores over chrome.storage.local and the page agent. */
export function createTaskServices(
  page: PageAgent,
  inputs: InputServices,
  chat: ChatDriver,
  broadcast: (record: TaskRecord) => void,
  broadcastThinking: (thinking: TaskThinking) => void,
  extras: {
    /** Approvals waiting elsewhere (connected agents), counted on the same badge. */
    otherApprovals?: () => number;
    /** Tools of the user's MCP servers, which web tasks may use. */
    externalTools?: () => Promise<AnyTool<TabEnvironment>[]>;
    /** The schedules changed: the native host keeps a copy, to run them when the browser is closed. */
    schedulesChanged?: (schedules: RoutineSchedule[]) => void;
  } = {},
) {
  const local = chromeStore('local');
  const log = createConsoleLogger('bg:task');
  const notices = new AttentionNotices({ hasOpenUiPage, show: showNotification, clear: clearNotification, log });
  const screenshots = indexedDbScreenshots();
  // Each step's screenshot is kept full size (opened from its card) with a small JPEG beside it (the card itself).
  const tasks = new TaskStore(local, {
    ...screenshots,
    save: async (taskId, shot) => {
      const thumb = await thumbnailOf(shot);
      const evicted = await screenshots.save(taskId, thumb === undefined ? shot : { ...shot, thumb });
      if (evicted.length > 0) log.info('older screenshots let go to stay under the size cap', { tasks: evicted.length });
      return evicted;
    },
  });
  const settings = new SettingsStore(local);
  const session = chromeStore('session');
  const supportSites = createSupportSiteMemory(local, () => Date.now());
  const secretsKey = (taskId: string): string => `found-secrets:${taskId}`;
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  let browserSession: Promise<string> | undefined;
  const guard = new EgressGuard({
    replaceRules: replaceSessionRules,
    ruleIds: sessionRuleIds,
    tabIds: allTabIds,
    reopen: reopenInTab,
    load: () => session.get('egress-guard', z.unknown()),
    save: (state) => session.set('egress-guard', state),
    now: () => Date.now(),
    adopted: (taskId, tabId) => void secretEgress.tabAdded(taskId, tabId),
  });
  const secretEgress: SecretEgress = new SecretEgress({
    acquire: (owner, tabId) => inputs.sessions.acquire(owner, tabId),
    send: (tabId, method, params, sessionId) => inputs.sessions.send(tabId, method, params, sessionId),
    on: (method, listener) => inputs.sessions.on(method, listener),
    seal: (taskId, sealed) => guard.seal(taskId, sealed),
    now: () => Date.now(),
    log,
  });
  const tabEnvironment = (tabId: number, task?: Pick<TaskRecord, 'id' | 'files'>) =>
    createTabEnvironment(
      {
        page,
        tabState,
        listWindowTabs,
        sleep,
        capture: async (id) => {
          // Through the task's debugger attachment when it has one: no capture quota to wait for (platform/capture.ts).
          const devtools = inputs.sessions.isAttached(id) ? (method: string, params?: Record<string, unknown>) => inputs.sessions.send(id, method, params) : undefined;
          const shot = await withoutPageMarks(id, () => captureTabIfVisible(id, 60, devtools));
          if (!shot) log.info('no screenshot of this step: the tab is not in front, or the browser gave none', { tabId: id });
          return shot;
        },
        loadFailure,
        input: inputs.input,
        // A task, or an agent connected over MCP (owner `mcp:<session>`): its debugger attachment and its egress guard.
        ...(task === undefined ? {} : { task: { owner: task.id, files: task.files ?? [] }, egress: { taskId: task.id, guard, resubmit: resubmitForm, now: () => Date.now(), sleep, secrets: secretEgress, note: (text: string) => runner.addNote(task.id, text) } }),
        ...(task === undefined ? {} : { consent: { choice: async () => (await settings.get()).cookieBanners, apply: applyConsentInTab, note: (text: string) => runner.addNote(task.id, text) } }),
      },
      tabId,
    );
  const markers = new TabMarkers({ setBadge: setTabBadge, setOutline: setPageOutline, isActive, log });
  const marks = new PageMarks({ clear: clearPageMarks, isActive });
  // The toolbar badge shows how many approvals wait, so a closed panel still gets the user's attention.
  const showPending = (): void => {
    const pending = runner.pendingApprovals + (extras.otherApprovals?.() ?? 0);
    void setBadge(pending > 0 ? String(pending) : '', '#d97706');
  };
  const runner: TaskRunner = new TaskRunner({
    tasks,
    secrets: {
      load: async (taskId) => (await session.get(secretsKey(taskId), z.record(z.string(), z.string()))) ?? {},
      save: (taskId, entries) => session.set(secretsKey(taskId), entries),
    },
    settings,
    tabUrl: async (tabId) => (await tabState(tabId))?.url,
    environment: (tabId, task) => tabEnvironment(tabId, task),
    chatEnvironment: (tabId, task) => createChatCaseEnvironment(chat, tabEnvironment(tabId, task), { goal: task.text, facts: task.facts, memory: supportSites }),
    keepFile: inputs.keepFile,
    egress: guard,
    provider: (provider) => createProvider(provider, { browser: true }),
    now: () => Date.now(),
    newId: () => crypto.randomUUID(),
    // Session storage outlives the worker but not the browser: a new id here means the browser restarted.
    browserSession: () => (browserSession ??= sessionId(session)),
    tabs: {
      list: listAllTabs,
      open: async (url) => {
        const tab = await createTab(url, undefined);
        return (await waitForTabLoad(tab.id, 15_000)) ?? tab;
      },
      sleep,
    },
    log,
    onThinking: broadcastThinking,
    ...(extras.externalTools ? { externalTools: extras.externalTools } : {}),
    onUpdate: (record) => {
      broadcast(record);
      // A task that ended lets go of the debugger (the browser's bar goes away) and of the files chosen for it.
      if (!isActive(record)) void secretEgress.end(record.id).finally(() => void inputs.release(record.id).finally(() => secretEgress.forget(record.id)));
      showPending();
      markers.update(record);
      marks.update(record);
      notices.update(record).catch((error: unknown) => log.warn('notification failed', { error: String(error) }));
      scheduler.taskUpdated(record);
      if (record.chat?.promises?.length) reminders.update(record).catch((error: unknown) => log.warn('promise reminder not set', { error: String(error) }));
    },
  });
  // Support's dated promises ring as notifications when they fall due, and the case notes it.
  const reminders = new PromiseReminders({
    setAlarm,
    alarmNames,
    show: showNotification,
    list: () => tasks.list({ limit: 500 }),
    get: (taskId) => tasks.get(taskId),
    markReminded: async (taskId, index, at, note) => {
      const updated = await tasks.update(taskId, (r) => {
        if (!r.chat?.promises?.[index]) return r;
        const promises = r.chat.promises.map((promise, i) => (i === index ? { ...promise, remindedAt: at } : promise));
        const afterCalls = (r.agent?.steps ?? []).reduce((sum, step) => sum + step.calls.length, 0);
        return { ...r, chat: { ...r.chat, promises }, notes: [...(r.notes ?? []), { at, afterCalls, text: note }], updatedAt: at };
      });
      if (updated) broadcast(updated);
    },
    now: () => Date.now(),
    log,
  });
  const routines = new RoutineStore(local);
  const routineHandlers = createRoutineUiHandlers({ store: routines, task: (taskId) => tasks.get(taskId), start: (input) => runner.start(input), now: () => Date.now(), newId: () => crypto.randomUUID() });
  // Scheduled runs' notices are kept as well as shown: one that ended in a headless run-due is shown at the next start.
  const scheduleNotices = new ScheduleNotices({ store: local, show: showNotification, now: () => Date.now() });
  onStartup(() => void scheduleNotices.showUnseen().catch((error: unknown) => log.warn('schedule notices not shown', { error: String(error) })));
  onNotificationClosedByUser((id) => void scheduleNotices.seen(id));
  const scheduler: RoutineScheduler = new RoutineScheduler({
    store: local,
    routines,
    settings: () => settings.get(),
    runRoutine: ({ id, tabId, params, schedule }) => routineHandlers.start(id, tabId, params, schedule),
    runTask: ({ tabId, text, url, schedule }) => runner.start({ tabId, text, url, flow: 'task', schedule }),
    openTab: async () => (await createTab(undefined, undefined, false)).id,
    setAlarm,
    clearAlarm,
    alarmNames,
    notify: (notice) => scheduleNotices.notify(notice),
    notices: () => scheduleNotices.list(),
    now: () => Date.now(),
    newId: () => crypto.randomUUID(),
    ...(extras.schedulesChanged ? { onChange: extras.schedulesChanged } : {}),
  });
  const allRoutineHandlers: RoutineUiHandlers = { ...routineHandlers, ...scheduler.handlers() };
  onAlarm((name) => void reminders.ring(name).catch((error: unknown) => log.warn('promise reminder failed', { error: String(error) })));
  onAlarm((name) => void scheduler.ring(name).catch((error: unknown) => log.warn('scheduled run failed', { error: String(error) })));
  void scheduler.reconcile().catch((error: unknown) => log.warn('schedules not restored', { error: String(error) }));
  void reminders.reconcile().catch((error: unknown) => log.warn('promise reminders not restored', { error: String(error) }));
  // A click on a notice opens the side panel on its tab, synchronously: the click is the gesture the panel needs.
  const openNotice = (id: string): Promise<void> => {
    // A due promise opens its case in History, in a tab of its own: the case's chat tab may be long gone.
    const caseId = taskOfPromiseNotice(id);
    if (caseId !== undefined) return createTab(extensionUrl(`extension/sidepanel/index.html?task=${encodeURIComponent(caseId)}`), undefined).then(() => clearNotification(id));
    const tabId = tabOfNotice(id);
    if (tabId === undefined) return Promise.resolve();
    return openPanelOnTab(tabId, extensionUrl(`extension/sidepanel/index.html?tab=${tabId}`)).finally(() => notices.clicked(id));
  };
  onNotificationClicked((id) => {
    void scheduleNotices.seen(id);
    void openNotice(id);
  });
  return { runner, tasks, settings, notices, openNotice, guard, showPending, markers, environment: (tabId: number, owner?: { id: string; files: TaskFile[] }) => tabEnvironment(tabId, owner), handlers: createTaskUiHandlers(runner, tasks, settings),
    routineHandlers: allRoutineHandlers,
    scheduler,
  };
}

async function sessionId(session: Store): Promise<string> {
  const saved = await session.get('browser-session', z.string());
  if (saved) return saved;
  const id = crypto.randomUUID();
  await session.set('browser-session', id);
  return id;
}

/**
 * Clears notices left by an earlier worker: what they asked about is gone with it (a resumed task asks again, with a
 * new notice).
 */
export async function clearStaleNotices(notices: AttentionNotices): Promise<void> {
  for (const id of await notificationIds()) if (isAttentionNotice(id) && !notices.shownIds.has(id)) await clearNotification(id);
}
