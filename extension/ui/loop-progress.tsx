import type { DocumentVerdict } from '../../shared/protocol/loop-protocol';
import type { IterationView, LoopView } from './loop-view-model';
import { fixerErrorText, outcomeLabel, statusLine, waitingLine } from './loop-view-model';

const short = (commit: string): string => commit.slice(0, 10);

/** Where a report was written: a path the user copies (an extension page cannot open file:// links). */
function ReportPath(props: { path: string | undefined; class: string; testId: string }) {
  if (!props.path) return null;
  return (
    <span class={props.class}>
      Report: <code data-testid={props.testId}>{props.path}</code>
    </span>
  );
}

/** The live line of a running loop, or its outcome with the report once it ended. */
export function LoopStatus(props: { view: LoopView; now: number }) {
  const { view } = props;
  return (
    <section class="loop-status card" aria-label="Fix loop status" data-testid="loop-state" data-running={String(view.running)} data-loop-id={view.loopId}>
      <p class="loop-status__repo">
        <span class="muted">{view.running ? 'Fixing' : 'Loop on'}</span> <code>{view.repo}</code>
        {view.branch ? <span class="muted"> · {view.branch}</span> : null}
      </p>
      <p class="loop-status__line" role="status" aria-live="polite" data-testid="loop-status">
        {statusLine(view, props.now)}
      </p>
      {view.running && view.action ? (
        <p class="loop-status__action" data-testid="loop-action">
          {view.action}
        </p>
      ) : null}
      {view.notices.map((notice, index) => (
        <p key={index} class="form-error" data-testid="loop-notice">
          {notice}
        </p>
      ))}
      {view.outcome && !view.running ? (
        <div class={`outcome loop-outcome loop-outcome--${view.outcome}`} data-testid="loop-outcome" data-outcome={view.outcome}>
          <strong>{outcomeLabel(view.outcome)}</strong>
          {view.reason ? <span data-testid="loop-reason">{view.reason}</span> : null}
          <span class="muted">Total cost ${view.costUsd.toFixed(2)}</span>
          <ReportPath path={view.reportPath} class="loop-outcome__report" testId="loop-report" />
        </div>
      ) : null}
    </section>
  );
}

/** One entry per iteration: failures, the fix, its diff, commit and push, deploy time and cost. */
export function IterationList(props: { iterations: IterationView[]; now: number }) {
  if (props.iterations.length === 0) return null;
  return (
    <section class="loop-iterations" aria-label="Iterations">
      <h2 class="section-title">Iterations</h2>
      <ol class="loop-iterations__list">
        {props.iterations.map((entry) => (
          <IterationItem key={entry.iteration} entry={entry} now={props.now} />
        ))}
      </ol>
    </section>
  );
}

function checkText(entry: IterationView): string {
  if (entry.checkPassed === undefined) return entry.waiting ? 'waiting for the output' : entry.nothing ? 'no output to check' : 'check not run yet';
  if (entry.document?.hollow) return 'hollow output';
  if (entry.document) return entry.checkPassed ? 'output matches the template' : 'output differs from the template';
  if (entry.checkPassed) return 'check passed';
  return `${entry.failures.length} failure(s)`;
}

const SEVERITIES = ['critical', 'high', 'medium'] as const;
const isSeverity = (value: string): value is (typeof SEVERITIES)[number] => (SEVERITIES as readonly string[]).includes(value);

/** The judge's counts by severity, and where this iteration's report is. */
function DocumentVerdictView(props: { document: DocumentVerdict }) {
  const { document } = props;
  return (
    <div class="loop-document" data-testid="loop-document">
      <p class="loop-document__counts" data-testid="loop-severity-counts" aria-label="Findings by severity">
        {SEVERITIES.map((severity) => (
          <span key={severity} class={`severity severity--${severity}${document.counts[severity] === 0 ? ' severity--none' : ''}`} data-testid={`loop-count-${severity}`}>
            {document.counts[severity]} {severity}
          </span>
        ))}
      </p>
      <ReportPath path={document.reportPath} class="loop-document__report" testId="loop-document-report" />
    </div>
  );
}

/** The job of one iteration: what started it, the wait (ticking), what the mailbox saw, and what arrived or did not. */
function JobLines(props: { entry: IterationView; now: number }) {
  const { entry } = props;
  if (!entry.trigger && !entry.waiting && !entry.received && !entry.nothing && entry.mail.length === 0) return null;
  return (
    <div class="loop-job" data-testid="loop-job">
      {entry.trigger ? <p data-testid="loop-job-trigger">{entry.trigger}</p> : null}
      {entry.waiting ? (
        <p class="loop-job__waiting" role="status" data-testid="loop-job-waiting">
          {waitingLine(entry.waiting, props.now)}
        </p>
      ) : null}
      {entry.mail.length > 0 ? (
        <ul class="loop-job__mail muted" data-testid="loop-job-mail">
          {entry.mail.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      ) : null}
      {entry.received ? <p data-testid="loop-job-received">{entry.received}</p> : null}
      {entry.nothing ? (
        <p class="form-error" data-testid="loop-job-nothing">
          {entry.nothing}
        </p>
      ) : null}
    </div>
  );
}

function IterationItem(props: { entry: IterationView; now: number }) {
  const { entry } = props;
  const state = entry.failedStep ? 'failed' : entry.checkPassed ? 'passed' : entry.pushed ? 'pushed' : entry.rejected ? 'rejected' : 'open';
  return (
    <li class={`loop-iteration loop-iteration--${state}`} data-testid="loop-iteration" data-iteration={entry.iteration} data-state={state}>
      <div class="loop-iteration__head">
        <strong>Iteration {entry.iteration}</strong>
        <span class="muted" data-testid="loop-iteration-check">
          {checkText(entry)}
        </span>
      </div>
      <JobLines entry={entry} now={props.now} />
      {entry.document ? <DocumentVerdictView document={entry.document} /> : null}
      {entry.failures.length > 0 ? (
        <ul class="loop-iteration__failures" data-testid="loop-failures">
          {entry.failures.slice(0, 5).map((failure) => (
            <li key={failure.id}>
              {isSeverity(failure.severity) ? <><span class={`severity severity--${failure.severity}`}>{failure.severity}</span> </> : null}
              <code>{failure.id}</code> {failure.message}
            </li>
          ))}
          {entry.failures.length > 5 ? <li class="muted">and {entry.failures.length - 5} more</li> : null}
        </ul>
      ) : null}
      {entry.fixSummary !== undefined ? (
        <p class="loop-iteration__fix" data-testid="loop-fix">
          Fix: {entry.fixSummary || '(no summary)'}
          {entry.fixerError ? (
            <span class="form-error" data-testid="loop-fixer-error" data-kind={entry.fixerErrorKind ?? ''}>
              {' '}
              ({fixerErrorText(entry.fixerErrorKind)})
            </span>
          ) : null}
        </p>
      ) : null}
      <p class="loop-iteration__facts">
        {entry.diff ? <span data-testid="loop-diff">Diff: {entry.diff}</span> : null}
        {entry.commit ? (
          <span data-testid="loop-commit">
            {entry.pushed ? 'Pushed' : 'Committed'} <code>{short(entry.commit)}</code>
            {entry.rebased ? ' (rebased)' : ''}
          </span>
        ) : null}
        {entry.deploy ? <span data-testid="loop-deploy">Deploy: {entry.deploy}</span> : null}
        {entry.fixerCostUsd !== undefined ? (
          <span data-testid="loop-cost">
            ${entry.fixerCostUsd.toFixed(2)}
            {entry.turns !== undefined ? `, ${entry.turns} turns` : ''}
          </span>
        ) : null}
      </p>
      {entry.rejected ? (
        <p class="form-error" data-testid="loop-rejected">
          Rolled back: {entry.rejected.join('; ')}
        </p>
      ) : null}
      {/* The output step's failure is the "nothing usable came" line above, with what to check: not said twice. */}
      {entry.failedStep && !(entry.failedStep.step === 'output' && entry.nothing) ? (
        <p class="form-error" data-testid="loop-step-error">
          {entry.failedStep.step} failed: {entry.failedStep.detail}
        </p>
      ) : null}
    </li>
  );
}
