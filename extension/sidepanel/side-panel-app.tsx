import { useEffect, useState } from 'preact/hooks';
import { Launch, type Flow } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { HostStatusLine } from '../ui/host-status-line';
import { useHostStatus } from '../ui/use-host-status';
import { siteOf, useTargetTab } from '../ui/use-target-tab';
import { ChatFlowView } from './chat-flow-view';
import { TaskFlowView } from './task-flow-view';

export function SidePanelApp(props: { client: BackgroundClient; fixedTabId: number | undefined }) {
  const { client } = props;
  const status = useHostStatus(client);
  const tab = useTargetTab(props.fixedTabId);
  const [flow, setFlow] = useState<Flow>('task');
  const [launch, setLaunch] = useState<Launch | undefined>(undefined);

  // The context menu's "Automate this chat" leaves a launch for the tab; pick it up on load, on tab switch, and live.
  useEffect(() => {
    if (!tab) return undefined;
    const apply = (next: Launch | null | undefined): void => {
      if (!next || next.tabId !== tab.id) return;
      setLaunch(next);
      setFlow(next.flow);
    };
    client.call('launch.get', { tabId: tab.id }).then(apply, () => undefined);
    return client.onEvent((event, data) => {
      if (event !== 'launch') return;
      const parsed = Launch.safeParse(data);
      if (parsed.success) apply(parsed.data);
    });
  }, [client, tab?.id]);

  return (
    <main class="app" data-flow={flow} data-tab-id={tab?.id ?? ''}>
      <header class="app__header">
        <h1 class="app__title">Deputy</h1>
        <span class="site" data-testid="site">
          {siteOf(tab?.url)}
        </span>
      </header>
      <HostStatusLine status={status} onRetry={() => void client.call('host.reconnect', {})} />
      <nav class="tabs" role="tablist" aria-label="What to do">
        <FlowTab flow="task" current={flow} label="Task" onSelect={setFlow} />
        <FlowTab flow="chat" current={flow} label="Support chat" onSelect={setFlow} />
      </nav>
      {flow === 'chat' ? <ChatFlowView tabUrl={tab?.url} launch={launch} /> : <TaskFlowView tabUrl={tab?.url} />}
    </main>
  );
}

function FlowTab(props: { flow: Flow; current: Flow; label: string; onSelect: (flow: Flow) => void }) {
  return (
    <button
      type="button"
      role="tab"
      aria-selected={props.flow === props.current}
      data-testid={`flow-${props.flow}`}
      onClick={() => props.onSelect(props.flow)}
    >
      {props.label}
    </button>
  );
}
