import { useEffect, useState } from 'preact/hooks';
import { Launch, type TaskRecord } from '../../shared/protocol';
import { useSavedTheme } from '../ui/apply-theme';
import type { BackgroundClient } from '../ui/background-client';
import { useHostStatus } from '../ui/use-host-status';
import { useTabTask } from '../ui/use-tab-task';
import { siteOf, useTargetTab } from '../ui/use-target-tab';
import { McpApprovals } from '../ui/mcp-approvals';
import { useMcpView } from '../ui/use-mcp-view';
import { panelId, tabId, ViewTabs } from '../ui/view-tabs';
import { AgentsView } from './agents-view';
import { ChatFlowView } from './chat-flow-view';
import { DevToolsView, type DevTool } from './dev-tools-view';
import { HistoryView } from './history-view';
import { SettingsView } from './settings-view';
import { TaskFlowView } from './task-flow-view';

type View = 'task' | 'chat' | 'agents' | 'history' | 'settings' | 'dev';

/** What most people use, first; the developer tools (fix loop, desktop, shell) wait behind the last tab. */
const VIEWS: { view: View; label: string }[] = [
  { view: 'task', label: 'Task' },
  { view: 'chat', label: 'Support chat' },
  { view: 'agents', label: 'Agents' },
  { view: 'history', label: 'History' },
  { view: 'settings', label: 'Settings' },
  { view: 'dev', label: 'Developer tools' },
];

export function SidePanelApp(props: { client: BackgroundClient; fixedTabId: number | undefined }) {
  const { client } = props;
  const status = useHostStatus(client);
  const tab = useTargetTab(props.fixedTabId);
  const [view, setView] = useState<View>('task');
  const [devTool, setDevTool] = useState<DevTool>('loop');
  const [launch, setLaunch] = useState<Launch | undefined>(undefined);
  const [record, acceptRecord] = useTabTask(client, tab?.id);
  const [preset, setPreset] = useState<{ text: string; at: number } | undefined>(undefined);
  const [pastTask, setPastTask] = useState<{ id: string; at: number } | undefined>(undefined);
  const [mcp, refreshMcp] = useMcpView(client);
  // Connected agents (MCP) get their tab once the user has turned MCP on, or while one is still listed.
  const views = mcp?.enabled || (mcp?.sessions.length ?? 0) > 0 ? VIEWS : VIEWS.filter((entry) => entry.view !== 'agents');

  useSavedTheme(client);

  // The context menu's "Automate this chat" leaves a launch for the tab; pick it up on load, on tab switch, and live.
  useEffect(() => {
    if (!tab) return undefined;
    const apply = (next: Launch | null | undefined): void => {
      if (!next || next.tabId !== tab.id) return;
      // A past task chosen in the popup opens in History, once.
      if (next.taskId !== undefined) {
        setPastTask({ id: next.taskId, at: next.at });
        setView('history');
        void client.call('launch.clear', { tabId: tab.id }).catch(() => undefined);
        return;
      }
      setLaunch(next);
      setView(next.flow);
    };
    client.call('launch.get', { tabId: tab.id }).then(apply, () => undefined);
    return client.onEvent((event, data) => {
      if (event !== 'launch') return;
      const parsed = Launch.safeParse(data);
      if (parsed.success) apply(parsed.data);
    });
  }, [client, tab?.id]);

  const openSettings = (): void => setView('settings');
  const rerun = (past: TaskRecord): void => {
    setPreset({ text: past.text, at: Date.now() });
    setView(past.flow);
  };

  return (
    <main class="app" data-flow={view} data-tab-id={tab?.id ?? ''}>
      <header class="app__header">
        <h1 class="app__title">Deputy</h1>
        <span class="site" data-testid="site">
          {siteOf(tab?.url)}
        </span>
      </header>
      <nav class="app__nav" aria-label="Deputy">
        <ViewTabs tabs={views} selected={view} onSelect={setView} label="Views" />
      </nav>
      <McpApprovals client={client} approvals={mcp?.approvals ?? []} />
      <div class="view" role="tabpanel" id={panelId(view)} aria-labelledby={tabId(view)} data-testid="view-panel">
        {view === 'task' ? (
          <TaskFlowView
            client={client}
            tabId={tab?.id}
            tabUrl={tab?.url}
            record={record}
            preset={preset}
            onRecord={acceptRecord}
            onOpenSettings={openSettings}
          />
        ) : view === 'chat' ? (
          <ChatFlowView
            client={client}
            tabId={tab?.id}
            tabUrl={tab?.url}
            launch={launch}
            record={record}
            rerun={preset}
            onRecord={acceptRecord}
            onOpenSettings={openSettings}
          />
        ) : view === 'agents' ? (
          <AgentsView client={client} view={mcp} />
        ) : view === 'dev' ? (
          <DevToolsView client={client} hostStatus={status} tool={devTool} onTool={setDevTool} onOpenSettings={openSettings} />
        ) : view === 'history' ? (
          <HistoryView client={client} onRerun={rerun} openTask={pastTask} />
        ) : (
          <SettingsView client={client} hostStatus={status} onSaved={refreshMcp} />
        )}
      </div>
    </main>
  );
}
