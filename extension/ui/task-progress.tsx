import { useEffect, useState } from 'preact/hooks';
import type { TaskRecord } from '../../shared/protocol';
import { ApprovalCard } from './approval-card';
import { ChatCaseResultView } from './chat-case-result';
import type { BackgroundClient } from './background-client';
import { errorMessage, fixedInSettings } from './error-message';
import { OpenSettingsButton } from './open-settings-button';
import { PlanApprovalCard } from './plan-approval-card';
import { PlanChecklist } from './plan-checklist';
import { QuestionCard } from './question-card';
import { ScreenshotDialog, useStepThumbnails } from './step-shots';
import { TaskAnnouncer } from './task-announcer';
import { TaskThread } from './task-thread';
import { useEscapeToStop } from './use-escape-to-stop';
import { useFollowScroll } from './use-follow-scroll';
import {
  elapsedMs,
  formatDuration,
  isActiveTask,
  approvalElement,
  outcomeText,
  planEstimate,
  planOutcome,
  proposedPlan,
  statusLabel,
  usageText,
} from './task-format';
import { useNow } from './use-now';
import { useThinking } from './use-thinking';

/** How long the page keeps the outline of the element an approval is about. */
const APPROVAL_HIGHLIGHT_MS = 15_000;

/**
 * One task as it runs and after: status, time, tokens and cost in a bar of fixed height; the plan as a checklist; the
 * task as a conversation (the user's words, the model's words as they stream, every step with its verification); the
 * approval or question waiting for the user right below the step it holds; the outcome below that, where the eye
 * already is. Nothing above the thread changes height as it grows, so what is on screen stays put.
 */
export function TaskProgress(props: {
  client: BackgroundClient;
  record: TaskRecord;
  onChange: (record: TaskRecord) => void;
  escapeStops?: boolean;
  /** Opens the Settings view, offered below an error that Settings fixes. */
  onOpenSettings?: (() => void) | undefined;
}) {
  const { client, record } = props;
  const active = isActiveTask(record);
  const now = useNow(active);
  const [error, setError] = useState('');
  const steps = record.agent?.steps ?? [];
  // Each step's screenshot as a thumbnail on its card, fetched again as steps arrive and when the task ends.
  const thumbnails = useStepThumbnails(client, record.id, `${steps.length}:${active}`);
  const [shownShot, setShownShot] = useState<number | undefined>(undefined);
  const outcome = outcomeText(record);
  // The model is writing its answer for a step not saved yet: say so, with the time it takes and its words so far.
  const live = useThinking(client, record.id);
  const writing = active && live !== undefined && !live.done && steps[live.step]?.reply == null ? live : undefined;

  const act = (call: Promise<TaskRecord>): Promise<unknown> =>
    call.then((updated) => {
      setError('');
      props.onChange(updated);
    });
  const stop = (): void => {
    act(client.call('task.stop', { taskId: record.id })).catch((failure: unknown) => setError(errorMessage(failure)));
  };
  // The element an approval is about is outlined on the page while the card waits, and again on "Show on page".
  const element = record.approval ? approvalElement(record, record.approval) : null;
  const highlight = (ref: number): void => {
    client.call('page.highlight', { tabId: record.tabId, ref, durationMs: APPROVAL_HIGHLIGHT_MS }).catch(() => undefined);
  };
  useEffect(() => {
    if (element !== null && isActiveTask(record)) highlight(element);
  }, [record.approval?.id]);
  // Followed to the card waiting for the user; once the task has ended, to the end of the page as far as keeps its
  // outcome's top in view (the answer first, then the offers under it, such as saving it as a routine, out from under
  // the docked input).
  useFollowScroll(
    props.escapeStops === true,
    record.id,
    `${record.status}:${steps.length}:${steps.at(-1)?.calls.length ?? 0}:${record.approval?.id ?? ''}:${record.question?.id ?? ''}:${writing?.text.length ?? 0}`,
    () => document.querySelector(`[data-task-id="${record.id}"] :is([data-testid=approval-card], [data-testid=plan-approval-card], [data-testid=question-card])`),
    () => (active ? null : document.querySelector(`[data-task-id="${record.id}"] [data-testid=task-outcome]`)),
  );
  useEscapeToStop(active && !record.stopRequested && props.escapeStops === true, stop);
  // Pause holds the task before its next action; the same button then resumes it, so the keyboard focus stays put.
  const holding = record.status === 'paused' || record.pauseRequested;
  const pausable = holding || record.status === 'running' || record.status === 'queued';
  const togglePause = (): void => {
    act(client.call(holding ? 'task.resume' : 'task.pause', { taskId: record.id })).catch((failure: unknown) =>
      setError(errorMessage(failure)),
    );
  };

  return (
    <section
      class="task"
      data-testid="task-progress"
      data-task-id={record.id}
      data-status={record.status}
      aria-label="Current task"
    >
      <div class="task__head">
        <div class="task__bar">
          <div class="task__meta">
            {/* Only the status is live: the clock ticks every second and would talk over everything else. */}
            <span class={`status status--${record.status}`} data-testid="task-status" role="status">
              {statusLabel(record)}
            </span>
            <span class="task__numbers">
              <span data-testid="task-elapsed">{formatDuration(elapsedMs(record, now))}</span>
              {' · '}
              <span data-testid="task-usage">{usageText(record)}</span>
            </span>
          </div>
          {active ? (
            <div class="task__controls">
              {pausable ? (
                <button
                  type="button"
                  class="button button--quiet"
                  data-testid="pause-task"
                  data-action={holding ? 'resume' : 'pause'}
                  aria-label={holding ? 'Resume the task' : 'Pause the task'}
                  disabled={record.stopRequested}
                  onClick={togglePause}
                >
                  {holding ? 'Resume' : 'Pause'}
                </button>
              ) : null}
              <button
                type="button"
                class="button button--danger"
                data-testid="stop-task"
                title="Stop the task (Esc)"
                aria-keyshortcuts="Escape"
                disabled={record.stopRequested}
                onClick={stop}
              >
                {record.stopRequested ? 'Stopping…' : 'Stop'}
              </button>
            </div>
          ) : null}
        </div>
        <p class="form-error" role="alert">
          {error}
        </p>
      </div>
      {record.agent?.plan ? <PlanChecklist plan={record.agent.plan} outcome={planOutcome(record)} /> : null}
      <TaskThread
        task={record.text}
        agent={record.agent}
        notes={record.notes}
        active={active}
        paused={record.status === 'paused'}
        chat={record.flow === 'chat'}
        thumbnails={thumbnails}
        onOpenShot={setShownShot}
        live={
          writing ? (
            <div class="thinking-live" data-testid="thinking-live">
              <p class="thinking-live__head">
                <span class="bubble__who">Deputy</span> is thinking… <span data-testid="thinking-elapsed">{formatDuration(now - writing.since)}</span>
              </p>
              {writing.text ? (
                <p class="bubble__text" data-testid="thinking-live-text">
                  {writing.text}
                </p>
              ) : null}
            </div>
          ) : undefined
        }
      />
      {record.approval?.tool === 'update_plan' ? (
        <PlanApprovalCard
          approval={record.approval}
          plan={proposedPlan(record, record.approval)}
          estimate={planEstimate(record, proposedPlan(record, record.approval))}
          {...(record.agent?.startUrl ? { startUrl: record.agent.startUrl } : {})}
          onDecide={(decision, note) =>
            act(
              client.call('task.approve', {
                taskId: record.id,
                approvalId: record.approval?.id ?? '',
                decision,
                ...(note ? { note } : {}),
              }),
            )
          }
          onCancel={() => act(client.call('task.stop', { taskId: record.id }))}
        />
      ) : record.approval ? (
        <ApprovalCard
          approval={record.approval}
          {...(element === null ? {} : { onShowOnPage: () => highlight(element) })}
          onDecide={(decision) =>
            act(client.call('task.approve', { taskId: record.id, approvalId: record.approval?.id ?? '', decision }))
          }
        />
      ) : null}
      {record.question ? (
        <QuestionCard
          question={record.question}
          onAnswer={(answer) =>
            act(client.call('task.answer', { taskId: record.id, questionId: record.question?.id ?? '', answer }))
          }
        />
      ) : null}
      <ScreenshotDialog client={client} taskId={record.id} step={shownShot} onClose={() => setShownShot(undefined)} />
      <TaskAnnouncer record={record} />
      {outcome ? (
        <p class={`outcome outcome--${record.status}`} data-testid="task-outcome">
          {outcome}
        </p>
      ) : null}
      {props.onOpenSettings && fixedInSettings(record.error) ? <OpenSettingsButton onOpen={props.onOpenSettings} /> : null}
      {record.chat ? <ChatCaseResultView result={record.chat} /> : null}
    </section>
  );
}
