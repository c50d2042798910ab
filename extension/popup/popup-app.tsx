import { useEffect, useState } from 'preact/hooks';
import type { TaskRecord } from '../../shared/protocol';
import { extensionUrl } from '../platform/runtime';
import { hasSidePanel, openSidePanel, openTab } from '../platform/ui-surfaces';
import { useSavedTheme } from '../ui/apply-theme';
import type { BackgroundClient } from '../ui/background-client';
import { TaskComposer } from '../ui/task-composer';
import { formatCost, isActiveTask, statusLabel } from '../ui/task-format';
import { TaskProgress } from '../ui/task-progress';
import { useTabTask } from '../ui/use-tab-task';
import { siteOf, useTargetTab } from '../ui/use-target-tab';

/**
 * The quick launcher, and the whole product where the side panel is unreliable (some Brave versions): a task box for
 * the current tab, the task as it runs with its approvals, recent tasks, and a way to the side panel.
 */
export function PopupApp(props: { client: BackgroundClient; fixedTabId?: number | undefined }) {
  const { client } = props;
  const tab = useTargetTab(props.fixedTabId);
  const [record, acceptRecord] = useTabTask(client, tab?.id);
  const [recent, setRecent] = useState<TaskRecord[]>([]);
  useSavedTheme(client);

  useEffect(() => {
    client.call('task.list', { limit: 5 }).then(setRecent, () => undefined);
  }, [client, record?.id, record?.status]);

  const openPanel = (): void => {
    if (!tab) return;
    // Opening the panel must happen inside this click; where it cannot, the panel's page opens in a tab.
    const fallback = (): Promise<void> => openTab(extensionUrl(`extension/sidepanel/index.html?tab=${tab.id}`));
    const opened = hasSidePanel() ? openSidePanel({ tabId: tab.id }).catch(fallback) : fallback();
    void opened.then(() => window.close());
  };
  return (
    <main class="app app--popup" data-testid="popup" data-tab-id={tab?.id ?? ''}>
      <header class="app__header">
        <h1 class="app__title">Deputy</h1>
        <span class="site" data-testid="site">
          {siteOf(tab?.url)}
        </span>
      </header>
      <TaskComposer
        client={client}
        tabId={tab?.id}
        flow="task"
        label={`Task on ${siteOf(tab?.url)}`}
        placeholder="What should Deputy do here?"
        busy={isActiveTask(record)}
        onStarted={acceptRecord}
      />
      {record ? <TaskProgress client={client} record={record} onChange={acceptRecord} /> : null}
      {recent.length > 0 ? (
        <section aria-labelledby="recent-title">
          <h2 id="recent-title" class="section-title">
            Recent tasks
          </h2>
          <ul class="recent" data-testid="recent">
            {recent.map((past) => (
              <li key={past.id} class="recent__item">
                <span class="history__text">{past.text}</span>
                <span class="history__meta">
                  <span>{past.site}</span>
                  <span class={`status status--${past.status}`}>{statusLabel(past)}</span>
                  <span>{formatCost(past.agent?.usage.costUsd)}</span>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <button type="button" class="button button--quiet" data-testid="open-panel" onClick={openPanel}>
        Open side panel
      </button>
    </main>
  );
}
