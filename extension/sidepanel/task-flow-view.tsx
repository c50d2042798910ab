import { useState } from 'preact/hooks';
import type { TaskRecord } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { ConnectModelCard } from '../ui/connect-model-card';
import { exampleTasks } from '../ui/model-presets';
import { TaskComposer } from '../ui/task-composer';
import { isActiveTask } from '../ui/task-format';
import { TaskProgress } from '../ui/task-progress';
import { useSavedSettings } from '../ui/use-saved-settings';
import { siteOf } from '../ui/use-target-tab';

/**
 * The web-task flow. On first run (no model yet) it leads with the card that connects one; then the task box with
 * example tasks for the page, then the tab's latest task as it runs (or as it ended).
 */
export function TaskFlowView(props: {
  client: BackgroundClient;
  tabId: number | undefined;
  tabUrl: string | undefined;
  record: TaskRecord | undefined;
  preset: { text: string; at: number } | undefined;
  onRecord: (record: TaskRecord) => void;
  onOpenSettings?: (() => void) | undefined;
}) {
  const { client, record } = props;
  const [settings, setSettings] = useSavedSettings(client);
  const [example, setExample] = useState<{ text: string; at: number } | undefined>(undefined);
  const preset = example && (!props.preset || example.at > props.preset.at) ? example : props.preset;
  const needsModel = settings !== undefined && settings.provider === null;
  return (
    <section class="flow" data-testid="task-flow" aria-label="Task">
      {needsModel ? <ConnectModelCard client={client} saved={settings} onSaved={setSettings} /> : null}
      <TaskComposer
        onOpenSettings={props.onOpenSettings}
        client={client}
        tabId={props.tabId}
        flow="task"
        label={`What should Deputy do on ${siteOf(props.tabUrl)}?`}
        placeholder="e.g. Add the cheapest headphones to the cart"
        busy={isActiveTask(record)}
        preset={preset}
        onStarted={props.onRecord}
      />
      {record ? (
        <TaskProgress client={client} record={record} onChange={props.onRecord} escapeStops onOpenSettings={props.onOpenSettings} />
      ) : (
        <div class="examples" data-testid="examples">
          <p class="section-title" id="examples-title">
            Try on this page
          </p>
          <ul class="templates" aria-labelledby="examples-title">
            {exampleTasks(props.tabUrl).map((text) => (
              <li key={text}>
                <button type="button" class="chip-button" data-testid="example-task" onClick={() => setExample({ text, at: Date.now() })}>
                  {text}
                </button>
              </li>
            ))}
          </ul>
          <p class="hint">Deputy reads the page, acts on it step by step and checks each step. Risky steps wait for you.</p>
        </div>
      )}
    </section>
  );
}
