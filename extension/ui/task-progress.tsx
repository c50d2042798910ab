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
import { StepList } from './step-list';
import { TaskAnnouncer } from './task-announcer';
import { useEscapeToStop } from './use-escape-to-stop';
import { useFollowScroll } from './use-follow-scroll';
import {
  elapsedMs,
  formatDuration,
  isActiveTask,
  approvalElement,
  outcomeText,
  proposedPlan,
  statusLabel,
  thinkingOf,
  usageText,
} from './task-format';
import { useNow } from './use-now';
import { useThinking } from './use-thinking';

/** How long the page keeps the outline of the element an approval is about. */
const APPROVAL_HIGHLIGHT_MS = 15_000;

/**
 * One task as it runs and after: status, time, tokens and cost in a bar of fixed height; the approval or question
 * waiting for the user; the plan as a checklist; every step as a line with its verification; the outcome below the
 * last step, where the eye already is; the model's own words folded away. Nothing above the steps changes height as
 * they stream in, so what is on screen stays put.
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
  const thinking = thinkingOf(steps);
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
  useFollowScroll(props.escapeStops === true, record.id, `${record.status}:${steps.length}:${steps.at(-1)?.calls.length ?? 0}:${record.approval?.id ?? ''}:${record.question?.id ?? ''}`, () =>
    document.querySelector(`[data-task-id="${record.id}"] :is([data-testid=approval-card], [data-testid=plan-approval-card], [data-testid=question-card])`),
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
        <p class="task__text" title={record.text}>
          {record.text}
        </p>
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
      {record.approval?.tool === 'update_plan' ? (
        <PlanApprovalCard
          approval={record.approval}
          plan={proposedPlan(record, record.approval)}
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
      {record.agent?.plan ? <PlanChecklist plan={record.agent.plan} /> : null}
      <StepList steps={steps} notes={record.notes} active={active} paused={record.status === 'paused'} />
      <TaskAnnouncer record={record} />
      {writing ? (
        <div class="thinking-live" data-testid="thinking-live">
          <p class="thinking-live__head">
            Thinking… <span data-testid="thinking-elapsed">{formatDuration(now - writing.since)}</span>
          </p>
          {writing.text ? (
            <details class="thinking">
              <summary>What the model is writing</summary>
              <p class="thinking__entry" data-testid="thinking-live-text">
                {writing.text}
              </p>
            </details>
          ) : null}
        </div>
      ) : null}
      {outcome ? (
        <p class={`outcome outcome--${record.status}`} data-testid="task-outcome">
          {outcome}
        </p>
      ) : null}
      {props.onOpenSettings && fixedInSettings(record.error) ? <OpenSettingsButton onOpen={props.onOpenSettings} /> : null}
      {record.chat ? <ChatCaseResultView result={record.chat} /> : null}
      {thinking.length > 0 ? (
        <details class="thinking" data-testid="thinking">
          <summary>Thinking ({thinking.length})</summary>
          {thinking.map((entry) => (
            <p key={entry.step} class="thinking__entry">
              <span class="muted">Step {entry.step}: </span>
              {entry.text}
            </p>
          ))}
        </details>
      ) : null}
    </section>
  );
}
