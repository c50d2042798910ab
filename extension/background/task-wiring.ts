import { z } from 'zod';
import { createProvider } from '../../shared/agent/providers/create-provider';
import { createConsoleLogger } from '../../shared/logger';
import type { TaskRecord } from '../../shared/protocol';
import { clearNotification, hasOpenUiPage, onNotificationClicked, showNotification } from '../platform/notifications';
import { extensionUrl } from '../platform/runtime';
import { captureTabIfVisible } from '../platform/capture';
import { chromeStore } from '../platform/storage';
import { listWindowTabs, tabState } from '../platform/tab-control';
import { openTab, setBadge } from '../platform/ui-surfaces';
import { createChatCaseEnvironment } from './chat-case-environment';
import type { ChatDriver } from './chat-driver';
import type { PageAgent } from './page-agent';
import { SettingsStore } from './settings-store';
import { createTabEnvironment } from './tab-environment';
import { TaskRunner } from './task-runner';
import { TaskStore } from './task-store';
import { createTaskUiHandlers } from './task-ui-handlers';

/** Builds the task runner and its stores over chrome.storage.local and the page agent. */
export function createTaskServices(page: PageAgent, chat: ChatDriver, broadcast: (record: TaskRecord) => void) {
  const local = chromeStore('local');
  const notified = new Set<string>();
  const tasks = new TaskStore(local);
  const settings = new SettingsStore(local);
  const session = chromeStore('session');
  const secretsKey = (taskId: string): string => `found-secrets:${taskId}`;
  const tabEnvironment = (tabId: number) =>
    createTabEnvironment(
      { page, tabState, listWindowTabs, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), capture: (id) => captureTabIfVisible(id) },
      tabId,
    );
  const runner: TaskRunner = new TaskRunner({
    tasks,
    secrets: {
      load: async (taskId) => (await session.get(secretsKey(taskId), z.record(z.string(), z.string()))) ?? {},
      save: (taskId, entries) => session.set(secretsKey(taskId), entries),
    },
    settings,
    tabUrl: async (tabId) => (await tabState(tabId))?.url,
    environment: (tabId) => tabEnvironment(tabId),
    chatEnvironment: (tabId) => createChatCaseEnvironment(chat, tabEnvironment(tabId)),
    provider: (provider) => createProvider(provider, { browser: true }),
    now: () => Date.now(),
    newId: () => crypto.randomUUID(),
    log: createConsoleLogger('bg:task'),
    onUpdate: (record) => {
      broadcast(record);
      // The toolbar badge shows how many approvals wait, so a closed panel still gets the user's attention.
      void setBadge(runner.pendingApprovals > 0 ? String(runner.pendingApprovals) : '', '#d97706');
      void notifyApproval(record, notified);
    },
  });
  onNotificationClicked((id) => {
    const tabId = /^approval:(\d+):/.exec(id)?.[1];
    if (tabId !== undefined) void openTab(extensionUrl(`extension/sidepanel/index.html?tab=${tabId}`)).then(() => clearNotification(id));
  });
  return { runner, tasks, settings, handlers: createTaskUiHandlers(runner, tasks, settings) };
}

/** A desktop notification for a new approval, only when no panel or popup is open to show its card. */
async function notifyApproval(record: TaskRecord, notified: Set<string>): Promise<void> {
  const approval = record.approval;
  if (!approval || notified.has(approval.id)) return;
  notified.add(approval.id);
  if (await hasOpenUiPage()) return;
  await showNotification({ id: `approval:${record.tabId}:${approval.id}`, title: `Deputy needs your approval on ${record.site}`, message: approval.intent });
}
