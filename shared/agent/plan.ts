import { z } from 'zod';

export const PlanStepStatus = z.enum(['pending', 'in_progress', 'completed']);
export type PlanStepStatus = z.infer<typeof PlanStepStatus>;

export const PlanStep = z.object({
  step: z.string().min(1).max(300).describe('A sub-goal, in a few words.'),
  status: PlanStepStatus.describe('At most one in_progress.'),
});
export type PlanStep = z.infer<typeof PlanStep>;

/** The model's visible checklist. The loop keeps the latest one and shows it in every turn. */
export const Plan = z.object({
  explanation: z.string().max(1000).describe('Why, or what changed.'),
  steps: z.array(PlanStep).min(1).max(20).describe('The sub-goals in order.'),
  sites: z
    .array(z.string().min(1).max(200))
    .max(10)
    .optional()
    .describe('Other sites it visits ("docs.example.com"), approved with the plan.'),
});
export type Plan = z.infer<typeof Plan>;

const MARKS: Record<PlanStepStatus, string> = { pending: '[ ]', in_progress: '[>]', completed: '[x]' };

/** The plan as the model and the side panel read it: one line per step with a status mark. */
export function formatPlan(plan: Plan | null): string {
  if (plan === null) return 'No plan yet. Call update_plan with your sub-goals before acting.';
  return plan.steps.map((s, i) => `${MARKS[s.status]} ${i + 1}. ${s.step}`).join('\n');
}

/**
 * True when the sub-goals themselves changed, or the plan names a site it did not name before, not just their
 * statuses; in ask mode the user re-approves then.
 */
export function planStepsChanged(before: Plan | null, after: Plan): boolean {
  if (before === null) return true;
  if (before.steps.length !== after.steps.length) return true;
  const named = new Set((before.sites ?? []).map((site) => site.trim().toLowerCase()));
  if ((after.sites ?? []).some((site) => !named.has(site.trim().toLowerCase()))) return true;
  return before.steps.some((s, i) => s.step !== after.steps[i]?.step);
}

/** A plan step as the user reads it once the task has ended: what was done, what was not needed, what was left. */
export type ShownPlanStatus = PlanStepStatus | 'not_needed' | 'not_done';

/** How a task stands, as far as its plan is concerned: still going, finished, or ended without finishing. */
export type PlanOutcome = 'open' | 'finished' | 'unfinished';

/**
 * The plan as it should read for the task's outcome. A finished task closes its plan: the step it was on is done, and
 * the steps it never reached were not needed (the task finished without them). A task that ended unfinished (failed,
 * stopped) leaves its unchecked steps marked not done. A running task shows the plan as the model keeps it.
 */
export function closePlan(plan: Plan, outcome: PlanOutcome): { step: string; status: ShownPlanStatus }[] {
  return plan.steps.map(({ step, status }) => {
    if (outcome === 'open' || status === 'completed') return { step, status };
    if (outcome === 'finished') return { step, status: status === 'in_progress' ? 'completed' : 'not_needed' };
    return { step, status: 'not_done' };
  });
}

const CLOSED_MARKS: Record<ShownPlanStatus, string> = { ...MARKS, not_needed: '[-]', not_done: '[ ]' };
const CLOSED_WORDS: Partial<Record<ShownPlanStatus, string>> = { not_needed: ' (not needed)', not_done: ' (not done)' };

/** The closed plan in the report's words: "[x] 1. Open the cart", "[-] 2. Check out (not needed)". */
export function formatClosedPlan(plan: Plan, outcome: PlanOutcome): string {
  return closePlan(plan, outcome)
    .map((s, i) => `${CLOSED_MARKS[s.status]} ${i + 1}. ${s.step}${CLOSED_WORDS[s.status] ?? ''}`)
    .join('\n');
}
