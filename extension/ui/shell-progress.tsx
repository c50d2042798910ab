import { useState } from 'preact/hooks';
import type { ShellRunProcess, ShellRunRecord, ShellRunStep } from '../../shared/protocol';
import { commandLine, processState } from '../../shared/shell-text';
import { ApprovalCard, hostRunApproval } from './approval-card';
import type { BackgroundClient } from './background-client';
import { errorMessage } from './error-message';
import { QuestionCard } from './question-card';
import { HostKeyCard, SecretCard } from './shell-cards';
import { shellResultText, shellStepText } from './shell-format';
import { ShellLogSearch } from './shell-log-search';
import { useNow } from './use-now';

const STATUS_LABELS: Record<ShellRunRecord['status'], string> = { connecting: 'Connecting', running: 'Running', completed: 'Done', failed: 'Failed', stopped: 'Stopped' };

function stepState(step: ShellRunStep): 'ok' | 'failed' | 'skipped' | 'blocked' {
  if (step.status === 'skipped' || step.status === 'interrupted') return 'skipped';
  if (step.status === 'denied') return 'blocked';
  return step.ok === false ? 'failed' : 'ok';
}
const MARKS = { ok: '✓', failed: '✗', skipped: '–', blocked: '⊘' } as const;

function ProcessItem(props: { process: ShellRunProcess; now: number; onKill: () => Promise<unknown> }) {
  const { process } = props;
  const [error, setError] = useState('');
  const [killing, setKilling] = useState(false);
  const killable = process.status === 'running' || process.status === 'unknown';
  return (
    <li class={`shell-process shell-process--${process.status}`} data-testid="shell-process" data-process-id={process.id} data-status={process.status}>
      <div class="shell-process__head">
        <code class="shell-process__command" title={process.command}>
          {process.id} $ {commandLine(process.command, 120)}
        </code>
        {killable ? (
          <button
            type="button"
            class="button button--danger button--small"
            data-testid="shell-kill"
            disabled={killing}
            onClick={() => {
              setKilling(true);
              props.onKill().then(
                () => setKilling(false),
                (failure: unknown) => {
                  setKilling(false);
                  setError(errorMessage(failure));
                },
              );
            }}
          >
            {killing ? 'Killing…' : 'Kill'}
          </button>
        ) : null}
      </div>
      <p class="shell-process__state" data-testid="shell-process-state">
        {processState(process, props.now)}
        {process.background ? ' · background' : ''}
      </p>
      {process.tail ? (
        <pre class="shell-output" data-testid="shell-process-output">
          {process.tail}
        </pre>
      ) : null}
      <p class="form-error" role="alert">
        {error}
      </p>
    </li>
  );
}

/**
 * A shell session as it happens and after: the target and objective, status and Stop, what waits for the user (a
 * host key, a password, an approval with "always allow", a question), each step with its command and output, the
 * processes with their latest output and Kill, the log search, and the outcome with the session's folder.
 */
export function ShellProgress(props: { client: BackgroundClient; record: ShellRunRecord; onResume: () => void }) {
  const { client, record } = props;
  const [error, setError] = useState('');
  const active = record.status === 'running' || record.status === 'connecting';
  const call = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => setError(''));
  const answer = (params: { id: string; approved?: boolean; text?: string; alwaysAllowPrefix?: string }): Promise<unknown> =>
    client.call('shell.answer', { sessionId: record.sessionId, ...params }).then((reply) => {
      if (!reply.accepted) setError('The session was no longer waiting for that answer.');
    });
  const shown = record.processes.filter((p) => p.background || p.status === 'running' || p.status === 'unknown');
  // Running processes keep their age current after the task itself ended.
  const now = useNow(active || shown.some((p) => p.status === 'running'));
  const prefix = record.approval?.alwaysAllowPrefix;
  return (
    <section class="task shell-run" data-testid="shell-progress" data-session-id={record.sessionId} data-status={record.status} aria-label="Shell session">
      <div class="task__head">
        <p class="task__text" title={record.objective}>
          {record.objective || 'Shell session'}
        </p>
        <p class="shell-run__target" data-testid="shell-target">
          {record.description ?? record.target}
        </p>
        <div class="task__bar">
          <div class="task__meta" role="status" aria-live="polite">
            <span class={`status status--${record.status}`} data-testid="shell-status">
              {record.hostKey || record.approval ? 'Waiting for your approval' : record.secret ? 'Waiting for a password' : record.question ? 'Waiting for your answer' : STATUS_LABELS[record.status]}
            </span>
            <span>
              {record.mode === 'ask' ? 'Ask first' : 'Act (validator)'} · {record.steps.length + record.droppedSteps} {record.steps.length + record.droppedSteps === 1 ? 'step' : 'steps'}
            </span>
          </div>
          {active ? (
            <button
              type="button"
              class="button button--danger"
              data-testid="shell-stop"
              disabled={record.stopRequested}
              onClick={() => void call(client.call('shell.stop', { sessionId: record.sessionId })).catch((failure: unknown) => setError(errorMessage(failure)))}
            >
              {record.stopRequested ? 'Stopping…' : 'Stop'}
            </button>
          ) : null}
        </div>
        <p class="form-error" role="alert" data-testid="shell-error">
          {error}
        </p>
      </div>
      {record.hostKey ? <HostKeyCard hostKey={record.hostKey} onAnswer={(trust) => answer({ id: record.hostKey?.id ?? '', approved: trust })} /> : null}
      {record.secret ? <SecretCard secret={record.secret} onAnswer={(text) => answer({ id: record.secret?.id ?? '', ...(text === null ? {} : { text }) })} /> : null}
      {record.approval ? (
        <ApprovalCard
          // Every command acts; the reason says why this one waits, and only a destructive one gets a chip.
          approval={hostRunApproval(record.approval, { tool: 'shell', url: record.target, hide: ['act'] })}
          allowSite={false}
          {...(prefix ? { alwaysLabel: `Always allow "${prefix}"` } : {})}
          onDecide={(decision) =>
            answer({ id: record.approval?.id ?? '', approved: decision !== 'reject', ...(decision === 'approve_site' && prefix ? { alwaysAllowPrefix: prefix } : {}) })
          }
        />
      ) : null}
      {record.question ? <QuestionCard question={record.question} onAnswer={(text) => answer({ id: record.question?.id ?? '', text })} /> : null}
      <section class="steps" aria-label="Steps">
        <h3 class="section-title">Steps</h3>
        {record.droppedSteps > 0 ? <p class="hint">{record.droppedSteps} earlier steps are in the log.</p> : null}
        {record.steps.length === 0 ? (
          <p class="muted steps__empty">{record.status === 'connecting' ? `Connecting to ${record.target}…` : active ? 'Thinking about the first command…' : 'No steps were taken.'}</p>
        ) : (
          <ol class="steps__list" data-testid="shell-steps">
            {record.steps.map((step) => {
              const state = stepState(step);
              const result = step.result ? shellResultText(step.result) : '';
              return (
                <li key={step.callId} class={`step step--${state}`} data-testid="shell-step" data-tool={step.tool} data-state={state}>
                  <span class="step__mark" aria-hidden="true">
                    {MARKS[state]}
                  </span>
                  <span class="step__body">
                    <code class="shell-step__text" data-testid="shell-step-text">
                      {shellStepText(step)}
                    </code>
                    {result ? (
                      step.tool === 'run' || step.tool === 'check' || step.tool === 'wait_for_output' || step.tool === 'kill' ? (
                        <pre class="shell-output" data-testid="shell-step-output">
                          {result}
                        </pre>
                      ) : (
                        <span class="step__check">{result.split('\n')[0]}</span>
                      )
                    ) : null}
                  </span>
                </li>
              );
            })}
          </ol>
        )}
      </section>
      <section class="shell-processes" aria-label="Processes">
        <h3 class="section-title">Background processes</h3>
        {shown.length === 0 ? (
          <p class="muted">Nothing runs in the background.</p>
        ) : (
          <ul class="shell-processes__list" data-testid="shell-processes">
            {shown.map((process) => (
              <ProcessItem key={process.id} process={process} now={now} onKill={() => client.call('shell.kill', { sessionId: record.sessionId, processId: process.id })} />
            ))}
          </ul>
        )}
      </section>
      {active ? null : (
        <div class={`outcome outcome--${record.status}`} data-testid="shell-outcome">
          <p class="shell-run__summary">
            {STATUS_LABELS[record.status]}: {record.summary || 'no report'}
          </p>
          {record.sessionDir ? (
            <p class="shell-run__folder">
              Session folder (log.jsonl): <code data-testid="shell-session-dir">{record.sessionDir}</code>
            </p>
          ) : null}
          {record.resumable ? (
            <button type="button" class="button" data-testid="shell-resume" onClick={props.onResume}>
              Resume
            </button>
          ) : null}
        </div>
      )}
      {record.sessionDir ? <ShellLogSearch client={client} sessionId={record.sessionId} /> : null}
    </section>
  );
}
