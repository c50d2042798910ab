import { describe, expect, it } from 'vitest';
import { type Plan, closePlan, formatClosedPlan } from '../../../../shared/agent/plan';

const PLAN: Plan = {
  explanation: 'x',
  steps: [
    { step: 'Open the shop', status: 'completed' },
    { step: 'Add a mug', status: 'in_progress' },
    { step: 'Ask about sizes', status: 'pending' },
  ],
};

describe('a plan closed with its task', () => {
  it('reads as the model keeps it while the task runs', () => {
    expect(closePlan(PLAN, 'open').map((s) => s.status)).toEqual(['completed', 'in_progress', 'pending']);
  });

  it('checks the step a finished task was on, and marks the steps it never needed', () => {
    expect(closePlan(PLAN, 'finished').map((s) => s.status)).toEqual(['completed', 'completed', 'not_needed']);
    expect(formatClosedPlan(PLAN, 'finished')).toBe('[x] 1. Open the shop\n[x] 2. Add a mug\n[-] 3. Ask about sizes (not needed)');
  });

  it('leaves what a failed or stopped task did not do marked not done, never done', () => {
    expect(closePlan(PLAN, 'unfinished').map((s) => s.status)).toEqual(['completed', 'not_done', 'not_done']);
    expect(formatClosedPlan(PLAN, 'unfinished')).toBe('[x] 1. Open the shop\n[ ] 2. Add a mug (not done)\n[ ] 3. Ask about sizes (not done)');
  });
});
