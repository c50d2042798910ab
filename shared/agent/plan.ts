import { z } from 'zod';

export const PlanStepStatus = z.enum(['pending', 'in_progress', 'completed']);
export type PlanStepStatus = z.infer<typeof PlanStepStatus>;

export const PlanStep = z.object({
  step: z.string().min(1).max(300).describe('One sub-goal, in a short sentence.'),
  status: PlanStepStatus.describe('pending, in_progress (at most one) or completed.'),
});
export type PlanStep = z.infer<typeof PlanStep>;

/** The model's visible checklist. The loop keeps the latest one and shows it in every turn. */
export const Plan = z.object({
  explanation: z.string().max(1000).describe('Why the plan is what it is, or what changed since the last update.'),
  steps: z.array(PlanStep).min(1).max(20).describe('The sub-goals in order.'),
  sites: z
    .array(z.string().min(1).max(200))
    .max(10)
    .optional()
    .describe('The sites the plan visits besides the one the task starts on, as addresses or host names ("docs.example.com"). The user approves them with the plan; any other site asks again.'),
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
