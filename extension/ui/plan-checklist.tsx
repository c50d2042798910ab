import { type Plan, type PlanOutcome, closePlan } from '../../shared/agent/plan';

const MARKS = { pending: '○', in_progress: '◐', completed: '●', not_needed: '–', not_done: '○' } as const;
const WORDS = { pending: 'to do', in_progress: 'in progress', completed: 'done', not_needed: 'not needed', not_done: 'not done' } as const;

/** The model's plan as a live checklist; once the task has ended, closed (see closePlan). */
export function PlanChecklist(props: { plan: Plan; outcome?: PlanOutcome }) {
  const closed = props.outcome !== undefined && props.outcome !== 'open';
  return (
    <section class="plan" aria-label="Plan">
      <h3 class="section-title">Plan</h3>
      <ol class="plan__list" data-testid="plan">
        {closePlan(props.plan, props.outcome ?? 'open').map((step, index) => (
          <li key={index} class={`plan__item plan__item--${step.status}`} data-status={step.status}>
            <span class="plan__mark" aria-hidden="true">
              {MARKS[step.status]}
            </span>
            <span>
              {step.step}
              {/* Closed, the words show: "not needed" is news to a sighted user too. */}
              {closed && (step.status === 'not_needed' || step.status === 'not_done') ? (
                <span class="plan__note"> ({WORDS[step.status]})</span>
              ) : (
                <span class="visually-hidden"> ({WORDS[step.status]})</span>
              )}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
