import { useState } from 'preact/hooks';
import type { TaskRecord } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { exampleTasks } from '../ui/model-presets';
import { ModelNeeded } from '../ui/model-needed';
import { SaveRoutineCard } from '../ui/routine-cards';
import { RoutinesList } from '../ui/routines-list';
import { TaskComposer } from '../ui/task-composer';
import { isActiveTask } from '../ui/task-format';
import { TaskProgress } from '../ui/task-progress';
import { useConversation } from '../ui/use-conversation';
import { siteOf } from '../ui/use-target-tab';

/**
 * The web-task flow, read as a conversation. On first run (no model yet) it leads with the card that connects one;
 * then the tab's latest task as a thread as it runs (or as it ended), or example tasks for the page; the box at the
 * bottom starts a task, or continues the ended one with a follow-up.
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
  const [example, setExample] = useState<{ text: string; at: number } | undefined>(undefined);
  const preset = example && (!props.preset || example.at > props.preset.at) ? example : props.preset;
  const conversation = useConversation(record, preset?.at);
  const shown = conversation.shown;
  return (
    <section class="flow" data-testid="task-flow" aria-label="Task">
      <ModelNeeded client={client} />
      {shown ? (
        <>
          <TaskProgress client={client} record={shown} onChange={props.onRecord} escapeStops onOpenSettings={props.onOpenSettings} />
          <SaveRoutineCard key={shown.id} client={client} record={shown} />
        </>
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
          <RoutinesList client={client} tabId={props.tabId} onStarted={props.onRecord} />
        </div>
      )}
      <TaskComposer
        onOpenSettings={props.onOpenSettings}
        client={client}
        tabId={props.tabId}
        flow="task"
        label={`What should Deputy do on ${siteOf(props.tabUrl)}?`}
        placeholder="e.g. Add the cheapest headphones to the cart"
        busy={isActiveTask(record)}
        preset={preset}
        docked={shown !== undefined}
        followUp={conversation.followUp}
        onNewTask={conversation.newTask}
        onStarted={props.onRecord}
      />
    </section>
  );
}
