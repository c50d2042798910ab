import { createConsoleLogger } from '../../shared/logger';
import type { HostStatus } from '../../shared/protocol';
import { LoopEvent } from '../../shared/protocol/loop-protocol';
import { callPageFunction, readPageGlobals } from '../platform/main-world';
import { connectNative } from '../platform/native';
import { trackNavigationErrors } from '../platform/navigation-errors';
import { extensionId, extensionUrl, extensionVersion, isPrivilegedSender, onInstalled, onPortConnect, onStartup } from '../platform/runtime';
import { allowSessionStorageForPages, chromeStore } from '../platform/storage';
import { allTabIds, onRequestBlocked, onTabClosed, onTabOpened } from '../platform/egress-rules';
import { listScriptableFrames } from '../platform/tab-control';
import { listFrames, onTabRemoved, onTabUpdated, sendToFrame } from '../platform/tabs';
import {
  createMenuItems,
  hasSidePanel,
  onMenuClicked,
  openPanelOnActionClick,
  openSidePanel,
  openTab,
  useActionPopup,
} from '../platform/ui-surfaces';
import { AUTOMATE_CHAT_MENU, handleAutomateChatClick } from './chat/automate-chat-menu';
import { ChatDriver } from './chat/chat-driver';
import { ChatSessions } from './chat/chat-sessions';
import { DesktopRunLog } from './host/desktop-run-log';
import { createDesktopUiHandlers } from './host/desktop-ui-handlers';
import { createFormHandlers } from './page/form-wiring';
import { createLoopUiHandlers } from './host/loop-ui-handlers';
import { HostConnection } from './host/host-connection';
import { syncSchedulesToHost } from './host/schedule-sync';
import { isPassthroughEvent } from './host/host-passthrough';
import { LaunchStore } from './stores/launch-store';
import { LoopEventLog } from './host/loop-event-log';
import { createMcpServices, mcpServerTools, type McpServices } from './mcp/mcp-wiring';
import { createInputServices } from './input/input-wiring';
import { createPageAgent } from './page/page-agent-wiring';
import { SettingsStore } from './stores/settings-store';
import { isActive } from './tasks/task-runner';
import { clearStaleNotices, createTaskServices } from './tasks/task-wiring';
import { clearAllPageMarks } from './tasks/page-marks';
import { clearPageMarks } from '../platform/page-marks';
import { ShellRunLog } from './host/shell-run-log';
import { createShellUiHandlers } from './host/shell-ui-handlers';
import { createUiHandlers } from './ui/ui-handlers';
import { UiServer } from './ui/ui-server';

// Entry of the service worker: it only wires. Every listener is registered synchronously here, at start, so an event
// that wakes the worker finds its listener in place.
const log = createConsoleLogger('bg');
const session = chromeStore('session');
const launches = new LaunchStore(session);
const loopLog = new LoopEventLog(session);

const host = new HostConnection({
  connect: connectNative,
  log: createConsoleLogger('bg:host'),
  now: () => Date.now(),
  random: Math.random,
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (handle) => clearTimeout(handle),
  clientVersion: extensionVersion(),
  extensionId: extensionId(),
  onStatus: (status: HostStatus) => {
    ui.broadcast('host.status', status);
    void session.set('hostStatus', status);
    void desktopRuns.hostStatus(status);
    void shellRuns.hostStatus(status);
    // A host that just connected gets the schedules, so run-due knows them even if it was installed after they were set.
    if (status.state === 'connected') void tasks.scheduler.list().then((list) => syncSchedulesToHost(host, list, createConsoleLogger('bg:host')));
  },
  requests: {
    'mcp.status': (params) => mcp.hostRequests['mcp.status'](params),
    'mcp.page': (params) => mcp.hostRequests['mcp.page'](params),
    'mcp.routine': (params) => mcp.hostRequests['mcp.routine'](params),
    'mcp.approve': (params) => mcp.hostRequests['mcp.approve'](params),
    'mcp.redact': (params) => mcp.hostRequests['mcp.redact'](params),
    'mcp.reveal': (params) => mcp.hostRequests['mcp.reveal'](params),
    'mcp.cancel': (params) => mcp.hostRequests['mcp.cancel'](params),
    'form.fill': (params) => forms['form.fill'](params),
  },
  onEvent: (event, data) => {
    if (event === 'mcp.session' || event === 'mcp.activity') mcp.hostEvent(event, data);
    if (event === 'desktop.task') void desktopRuns.apply(data);
    if (event === 'shell.task') void shellRuns.apply(data);
    if (!isPassthroughEvent(event)) return;
    ui.broadcast(event, data);
    if (event === 'loop.event') {
      const parsed = LoopEvent.safeParse(data);
      if (parsed.success) void loopLog.append(parsed.data);
    }
  },
});
const desktopRuns: DesktopRunLog = new DesktopRunLog({ store: session, broadcast: (record) => ui.broadcast('desktop.updated', record), now: () => Date.now() });
const shellRuns: ShellRunLog = new ShellRunLog({ store: session, broadcast: (record) => ui.broadcast('shell.updated', record), now: () => Date.now() });

const inputs = createInputServices({
  session,
  trustedInput: async () => (await new SettingsStore(chromeStore('local')).get()).trustedInput,
  onDownloads: (taskId, downloads) => void tasks.runner.setDownloads(taskId, downloads),
  log: createConsoleLogger('bg:input'),
});
const page = createPageAgent(inputs.input);
// The host asks the browser to fill a fix loop's web form trigger; the panel's form test asks the same.
const forms = createFormHandlers(page);

const chat = new ChatDriver({
  frames: { listFrames: listScriptableFrames, sendToFrame },
  sessions: new ChatSessions(session),
  readGlobals: readPageGlobals,
  callPage: callPageFunction,
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  log: createConsoleLogger('bg:chat'),
});
const tasks = createTaskServices(
  page,
  inputs,
  chat,
  (record) => ui.broadcast('task.updated', record),
  (thinking) => ui.broadcast('task.thinking', thinking),
  {
    otherApprovals: () => mcp.pendingApprovals(),
    externalTools: () => mcpServerTools(host, createConsoleLogger('bg:mcp')),
    schedulesChanged: (schedules) => syncSchedulesToHost(host, schedules, createConsoleLogger('bg:host')),
  },
);
const mcp: McpServices = createMcpServices({
  store: session,
  settings: tasks.settings,
  environment: (tabId, owner) => tasks.environment(tabId, owner),
  release: async (owner) => {
    await inputs.release(owner);
    await tasks.guard.end(owner);
  },
  host,
  broadcast: (view) => ui.broadcast('mcp.updated', view),
  approvalsChanged: () => tasks.showPending(),
  routines: {
    list: () => tasks.routineHandlers['routine.list']({}),
    run: (id, tabId, params) => tasks.routineHandlers['routine.run']({ id, tabId, params }),
    task: async (taskId) => (await tasks.handlers['task.get']({ taskId })) ?? undefined,
    stop: async (taskId) => void (await tasks.handlers['task.stop']({ taskId })),
  },
});

const ui: UiServer = new UiServer(
  createUiHandlers({
    host,
    launches,
    announce: (launch) => ui.broadcast('launch', launch),
    loopLog,
    frames: { listFrames, sendToFrame },
    chat,
    page,
    tasks: tasks.handlers,
    routines: tasks.routineHandlers,
    desktop: createDesktopUiHandlers({ host, settings: tasks.settings, log: desktopRuns }),
    shell: createShellUiHandlers({ host, settings: tasks.settings, log: shellRuns }),
    mcp: mcp.ui,
    loop: createLoopUiHandlers({ host, settings: tasks.settings }),
    forms,
  }),
  (port) => isPrivilegedSender(port.sender),
  createConsoleLogger('bg:ui'),
);

const panelPage = 'extension/sidepanel/index.html';
const menuDeps = {
  hasSidePanel,
  openSidePanel,
  openPanelInTab: (tabId: number) => openTab(extensionUrl(`${panelPage}?tab=${tabId}`)),
  saveLaunch: (launch: Parameters<LaunchStore['set']>[0]) => launches.set(launch),
  announce: (launch: Parameters<LaunchStore['set']>[0]) => ui.broadcast('launch', launch),
  now: () => Date.now(),
  log,
};

onPortConnect((port) => ui.accept(port));
// The egress guard learns of requests the browser held and of tabs the task's tabs open, from the first event on.
onRequestBlocked((request) => void tasks.guard.requestBlocked(request));
onTabOpened((tabId, opener) => void tasks.guard.tabOpened(tabId, opener));
onTabClosed((tabId) => void tasks.guard.tabClosed(tabId));
trackNavigationErrors();
onTabRemoved((tabId) => {
  mcp.tabRemoved(tabId);
  tasks.markers.removed(tabId);
});
// The controlled tab's badge and outline go with each page it loads; they are drawn again while its task runs.
onTabUpdated((tabId) => tasks.markers.navigated(tabId));
onMenuClicked((click, tab) => void handleAutomateChatClick(menuDeps, click, tab));
onInstalled(() => void createMenuItems([AUTOMATE_CHAT_MENU]));
onStartup(() => void createMenuItems([AUTOMATE_CHAT_MENU]));

void allowSessionStorageForPages();
void (hasSidePanel() ? openPanelOnActionClick() : useActionPopup('extension/popup/index.html'));
host.start();
void clearStaleNotices(tasks.notices);
// The guards a previous worker set are still in force (session rules); take them back before tasks resume. Attachments
// an earlier worker left for tasks that have ended since are let go once the active tasks are back.
void tasks.guard
  .restore()
  .finally(() => clearAllPageMarks(allTabIds, clearPageMarks))
  .finally(() => tasks.runner.resumeInterrupted())
  .finally(() =>
    inputs.sessions.sweep(async (taskId) => {
      const record = await tasks.tasks.get(taskId);
      return record !== undefined && isActive(record);
    }),
  );

// A handle for DevTools and for the end-to-end tests: the menu handler cannot be clicked in a headless browser.
Object.assign(globalThis, {
  deputy: {
    host,
    onMenuClick: (click: Parameters<typeof handleAutomateChatClick>[1], tab: { id: number }) => handleAutomateChatClick(menuDeps, click, tab),
    // Nor can a desktop notification be clicked there, or read: the browser tells only their ids.
    onNoticeClick: tasks.openNotice,
    notices: () => tasks.notices.current(),
  },
});
