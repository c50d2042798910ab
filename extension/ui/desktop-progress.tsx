import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { DesktopRunRecord, DesktopRunStep } from '../../shared/protocol';
import { ApprovalCard, hostRunApproval } from './approval-card';
import type { BackgroundClient } from './background-client';
import { errorMessage } from './error-message';
import { PlanChecklist } from './plan-checklist';
import { QuestionCard } from './question-card';

const STATUS_LABELS: Record<DesktopRunRecord['status'], string> = { running: 'Running', completed: 'Done', failed: 'Failed', stopped: 'Stopped' };

/** "click (320, 200)", "type "hello"", "update_plan": the action and its arguments, short enough for one line. */
export function desktopStepText(step: Pick<DesktopRunStep, 'action' | 'arguments'>): string {
  let args: unknown;
  try {
    args = JSON.parse(step.arguments);
  } catch {
    return `${step.action} ${step.arguments}`.trim();
  }
  if (typeof args !== 'object' || args === null) return step.action;
  const a = args as Record<string, unknown>;
  if (typeof a.x === 'number' && typeof a.y === 'number') return `${step.action} (${Math.round(a.x)}, ${Math.round(a.y)})`;
  if (typeof a.text === 'string') return `${step.action} "${a.text.length > 60 ? `${a.text.slice(0, 59)}…` : a.text}"`;
  if (typeof a.key === 'string') return `${step.action} ${a.key}`;
  if (typeof a.seconds === 'number') return `${step.action} ${a.seconds} s`;
  if (typeof a.summary === 'string') return `${step.action}: ${a.summary}`;
  if (Array.isArray(a.steps)) return `${step.action}: ${a.steps.length} ${a.steps.length === 1 ? 'step' : 'steps'}`;
  const rest = Object.entries(a).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${step.action} ${rest.join(' ')}`.trim();
}

function stepState(step: DesktopRunStep): 'ok' | 'failed' | 'skipped' {
  if (step.status === 'skipped' || step.status === 'interrupted') return 'skipped';
  if (step.status === 'denied' || step.ok === false) return 'failed';
  return 'ok';
}
const MARKS = { ok: '✓', failed: '✗', skipped: '–' } as const;

/**
 * A desktop run as it happens and after: status and Stop in a bar of fixed height, the approval or question waiting
 * for the user (the same cards as web tasks), each action with its arguments and result beside a small image of the
 * screen the model saw, and the outcome with the run folder where the full screenshots and steps.jsonl are.
 */
export function DesktopProgress(props: { client: BackgroundClient; record: DesktopRunRecord; onChange: (record: DesktopRunRecord) => void; afterOutcome?: ComponentChildren }) {
  const { client, record } = props;
  const [error, setError] = useState('');
  const running = record.status === 'running';
  const shotOf = (step: number) => record.shots.find((s) => s.step === step);
  // One image per screenshot: on the first action that followed it.
  const firstOfStep = new Set(record.steps.filter((s, i, all) => all.findIndex((t) => t.step === s.step) === i).map((s) => s.callId));
  const latest = record.shots.at(-1);
  const shown = new Set(record.steps.map((s) => s.step));

  const stop = (): void => {
    client.call('desktop.stop', { runId: record.runId }).then(
      () => setError(''),
      (failure: unknown) => setError(errorMessage(failure)),
    );
  };
  const answer = (params: { id: string; approved?: boolean; text?: string }): Promise<unknown> =>
    client.call('desktop.answer', { runId: record.runId, ...params }).then((reply) => {
      if (!reply.accepted) setError('The task was no longer waiting for that answer.');
    });

  return (
    <section class="task desktop-run" data-testid="desktop-progress" data-run-id={record.runId} data-status={record.status} aria-label="Desktop task">
      <div class="task__head">
        <p class="task__text" title={record.task}>
          {record.task || 'Desktop task'}
        </p>
        <div class="task__bar">
          <div class="task__meta" role="status" aria-live="polite">
            <span class={`status status--${record.status}`} data-testid="desktop-status">
              {record.approval ? 'Waiting for your approval' : record.question ? 'Waiting for your answer' : STATUS_LABELS[record.status]}
            </span>
            <span>
              {record.mode === 'ask' ? 'Ask first' : 'Act'} · {record.steps.length + record.droppedSteps} {record.steps.length + record.droppedSteps === 1 ? 'action' : 'actions'}
            </span>
          </div>
          {running ? (
            <button type="button" class="button button--danger" data-testid="desktop-stop" disabled={record.stopRequested} onClick={stop}>
              {record.stopRequested ? 'Stopping…' : 'Stop'}
            </button>
          ) : null}
        </div>
        <p class="form-error" role="alert" data-testid="desktop-error">
          {error}
        </p>
      </div>
      {record.approval ? (
        <ApprovalCard
          approval={hostRunApproval(record.approval, { tool: 'desktop', url: 'Desktop' })}
          allowSite={false}
          onDecide={(decision) => answer({ id: record.approval?.id ?? '', approved: decision !== 'reject' })}
        />
      ) : null}
      {record.question ? (
        <QuestionCard question={record.question} onAnswer={(text) => answer({ id: record.question?.id ?? '', text })} />
      ) : null}
      {record.plan ? <PlanChecklist plan={record.plan} /> : null}
      <section class="steps" aria-label="Steps">
        <h3 class="section-title">Steps</h3>
        {record.droppedSteps > 0 ? <p class="hint">{record.droppedSteps} earlier actions are in the run folder.</p> : null}
        {record.steps.length === 0 ? (
          <p class="muted steps__empty">{running ? 'Looking at the screen…' : 'No actions were taken.'}</p>
        ) : (
          <ol class="steps__list" data-testid="desktop-steps">
            {record.steps.map((step) => {
              const state = stepState(step);
              const shot = firstOfStep.has(step.callId) ? shotOf(step.step) : undefined;
              return (
                <li key={step.callId} class={`step step--${state}`} data-testid="desktop-step" data-action={step.action} data-state={state}>
                  <span class="step__mark" aria-hidden="true">
                    {MARKS[state]}
                  </span>
                  <span class="step__body">
                    <span class="step__text" data-testid="desktop-step-text">
                      {desktopStepText(step)}
                    </span>
                    {step.result ? <span class="step__check">{step.result}</span> : null}
                    {shot ? (
                      <img
                        class="desktop-shot"
                        data-testid="desktop-shot"
                        src={`data:${shot.thumbnail.mediaType};base64,${shot.thumbnail.base64}`}
                        width={shot.thumbnail.width}
                        height={shot.thumbnail.height}
                        alt={`The screen before step ${step.step + 1}`}
                        title={shot.pngPath}
                      />
                    ) : null}
                  </span>
                </li>
              );
            })}
          </ol>
        )}
        {running && latest && !shown.has(latest.step) ? (
          <img
            class="desktop-shot"
            data-testid="desktop-shot"
            src={`data:${latest.thumbnail.mediaType};base64,${latest.thumbnail.base64}`}
            width={latest.thumbnail.width}
            height={latest.thumbnail.height}
            alt="The screen now"
            title={latest.pngPath}
          />
        ) : null}
      </section>
      {running ? null : (
        <div class={`outcome outcome--${record.status}`} data-testid="desktop-outcome">
          <p class="desktop-run__summary">
            {STATUS_LABELS[record.status]}
            {record.stoppedByHotkey ? ' (stop hotkey)' : ''}: {record.summary || 'no summary'}
          </p>
          {record.runDir ? (
            <p class="desktop-run__folder">
              Run folder: <code data-testid="desktop-run-dir">{record.runDir}</code>
            </p>
          ) : null}
          {props.afterOutcome}
        </div>
      )}
    </section>
  );
}
