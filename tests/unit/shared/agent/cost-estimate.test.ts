import { describe, expect, it } from 'vitest';
import { estimateTaskCost, estimateText } from '../../../../shared/agent/cost-estimate';

const first = { inputTokens: 3000, outputTokens: 100, costUsd: 0.0005 };
const spent = { calls: 1, inputTokens: 3000, outputTokens: 100, costUsd: 0.0005 };

describe('the cost estimate on the plan card', () => {
  it('grows with the plan and with the price of a call, and its range holds the low end below the high', () => {
    for (const planSteps of [1, 2, 4, 8]) {
      for (const factor of [1, 10]) {
        const e = estimateTaskCost({ planSteps, spent: { ...spent, costUsd: spent.costUsd * factor }, first: { ...first, costUsd: first.costUsd * factor }, stepBudget: 200 });
        expect(e.calls).toEqual({ low: 1 + planSteps + 1, high: 1 + 3 * planSteps + 1 });
        expect(e.usd?.low).toBeCloseTo(factor * 0.0005 * (1 + planSteps + 1), 10);
        expect(e.usd?.high ?? 0).toBeGreaterThan(e.usd?.low ?? 0);
        expect(e.tokens.high).toBeGreaterThan(e.tokens.low);
      }
    }
  });

  it('stops at the step budget', () => {
    expect(estimateTaskCost({ planSteps: 10, spent, first, stepBudget: 6 }).calls).toEqual({ low: 6, high: 6 });
  });

  it('says tokens only for a local model, and says when a price is unknown', () => {
    expect(estimateText(estimateTaskCost({ planSteps: 2, spent: { ...spent, costUsd: 0 }, first: { ...first, costUsd: 0 }, stepBudget: 30 }))).toBe(
      'About 12.4k to 37.8k tokens (4 to 8 model calls); a local model costs nothing per token.',
    );
    expect(estimateText(estimateTaskCost({ planSteps: 2, spent: { ...spent, costUsd: null }, first: { ...first, costUsd: null }, stepBudget: 30 }))).toMatch(/no price is known/);
    expect(estimateText(estimateTaskCost({ planSteps: 2, spent, first, stepBudget: 30 }))).toBe('About $0.0020 to $0.0061 (4 to 8 model calls, 12.4k to 37.8k tokens).');
  });
});
