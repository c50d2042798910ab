import type { Plan } from '../../shared/agent/plan';

const MARKS = { pending: '○', in_progress: '◐', completed: '●' } as const;
const WORDS = { pending: 'to do', in_progress: 'in progress', completed: 'done' } as const;

/** The model's plan as a live checklist. */
export function PlanChecklist(props: { plan: Plan }) {
  return (
    <section class="plan" aria-label="Plan">
      <h3 class="section-title">Plan</h3>
      <ol class="plan__list" data-testid="plan">
        {props.plan.steps.map((step, index) => (
          <li key={index} class={`plan__item plan__item--${step.status}`} data-status={step.status}>
            <span class="plan__mark" aria-hidden="true">
              {MARKS[step.status]}
            </span>
            <span>
              {step.step}
              <span class="visually-hidden"> ({WORDS[step.status]})</span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
