import type { TaskRecord } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { TaskComposer } from '../ui/task-composer';
import { isActiveTask } from '../ui/task-format';
import { TaskProgress } from '../ui/task-progress';
import { siteOf } from '../ui/use-target-tab';

/** The web-task flow: the task box, then the tab's latest task as it runs (or as it ended). */
export function TaskFlowView(props: {
  client: BackgroundClient;
  tabId: number | undefined;
  tabUrl: string | undefined;
  record: TaskRecord | undefined;
  preset: { text: string; at: number } | undefined;
  onRecord: (record: TaskRecord) => void;
}) {
  const { client, record } = props;
  return (
    <section class="flow" data-testid="task-flow" aria-label="Task">
      <TaskComposer
        client={client}
        tabId={props.tabId}
        flow="task"
        label={`What should Deputy do on ${siteOf(props.tabUrl)}?`}
        placeholder="e.g. Add the cheapest headphones to the cart"
        busy={isActiveTask(record)}
        preset={props.preset}
        onStarted={props.onRecord}
      />
      {record ? (
        <TaskProgress client={client} record={record} onChange={props.onRecord} escapeStops />
      ) : (
        <p class="muted">Deputy reads the page as numbered elements, acts through them, and checks every step. Risky steps wait for you.</p>
      )}
    </section>
  );
}
