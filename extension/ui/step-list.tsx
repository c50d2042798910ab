import type { StepRecord } from '../../shared/agent/agent-state';
import type { TaskNote } from '../../shared/protocol';
import { MARKS, VERDICTS } from './step-wording';
import { stepLines } from './task-format';

/**
 * Every action as a readable line, worded by what happened (done, refused by you, blocked by a rule, failed, gave up),
 * with a distinct mark and what verification found; what the model worked with (element numbers, raw results,
 * untrusted-content tags) waits behind "details". Lines are only ever appended, and each has a fixed shape, so the
 * list grows downward without moving what is already on screen.
 */
export function StepList(props: { steps: readonly StepRecord[]; notes?: readonly TaskNote[] | undefined; active: boolean; paused?: boolean }) {
  const lines = stepLines(props.steps, props.notes, props.paused === true);
  return (
    <section class="steps" aria-label="Steps">
      <h3 class="section-title">Steps</h3>
      {lines.length === 0 ? (
        <p class="muted steps__empty">{props.paused ? 'Paused before the first step.' : props.active ? 'Looking at the page…' : 'No steps were taken.'}</p>
      ) : (
        <ol class="steps__list" data-testid="steps">
          {lines.map((line) => (
            <li key={line.key} class={`step step--${line.state}`} data-testid="step" data-state={line.state}>
              <span class="step__mark" aria-hidden="true" title={VERDICTS[line.state]}>
                {MARKS[line.state]}
              </span>
              <span class="step__body">
                <span class="step__text" data-testid="step-text">
                  {line.text}
                </span>
                {line.check ? (
                  <span class="step__check" data-testid="step-check">
                    {line.check}
                  </span>
                ) : null}
                {line.tokens ? (
                  <span class="step__tokens muted" data-testid="step-tokens">
                    {line.tokens}
                  </span>
                ) : null}
                {line.details ? (
                  <details class="step__details" data-testid="step-details">
                    <summary>details</summary>
                    {/* It scrolls when long, so the keyboard must reach it. */}
                    <pre tabIndex={0}>{line.details}</pre>
                  </details>
                ) : null}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
