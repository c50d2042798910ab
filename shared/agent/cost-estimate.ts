/**
 * What a task will cost, said before it runs on: from what its first model call cost (that call carried the system
 * prompt, the tools and the page as the model reads it, so it prices the model and the page size at once) and the
 * length of the plan the user is asked to approve. A plan step takes one to three actions, each one model call, plus
 * the call that finishes; later calls carry more (the steps so far, larger pages), so the high end counts each call at
 * up to HIGH_GROWTH times the first. The step budget caps the number of calls.
 */
export interface CostEstimate {
  /** Model calls in all, the ones made so far included. */
  calls: { low: number; high: number };
  tokens: { low: number; high: number };
  /** Dollars, or null where the model has no known price; 0 for a local model (which then shows tokens only). */
  usd: { low: number; high: number } | null;
}

const HIGH_ACTIONS_PER_STEP = 3;
const HIGH_GROWTH = 1.6;

export interface EstimateInput {
  planSteps: number;
  /** The calls made so far: their tokens and cost (null when a price is unknown). */
  spent: { calls: number; inputTokens: number; outputTokens: number; costUsd: number | null };
  /** The first call, as the measure of one call. */
  first: { inputTokens: number; outputTokens: number; costUsd: number | null };
  stepBudget: number;
}

export function estimateTaskCost(input: EstimateInput): CostEstimate {
  const steps = Math.max(1, input.planSteps);
  const left = Math.max(0, input.stepBudget - input.spent.calls);
  const lowMore = Math.min(left, steps + 1);
  const highMore = Math.min(left, HIGH_ACTIONS_PER_STEP * steps + 1);
  const perCall = input.first.inputTokens + input.first.outputTokens;
  const spentTokens = input.spent.inputTokens + input.spent.outputTokens;
  const usd =
    input.first.costUsd === null || input.spent.costUsd === null
      ? null
      : { low: input.spent.costUsd + lowMore * input.first.costUsd, high: input.spent.costUsd + highMore * input.first.costUsd * HIGH_GROWTH };
  return {
    calls: { low: input.spent.calls + lowMore, high: input.spent.calls + highMore },
    tokens: { low: Math.round(spentTokens + lowMore * perCall), high: Math.round(spentTokens + highMore * perCall * HIGH_GROWTH) },
    usd,
  };
}

function dollars(value: number): string {
  return value < 0.01 ? `$${value.toFixed(4)}` : value < 1 ? `$${value.toFixed(3)}` : `$${value.toFixed(2)}`;
}

function tokens(value: number): string {
  return value >= 1000 ? `${Math.round(value / 100) / 10}k` : String(value);
}

/** The estimate in a line: "About $0.004 to $0.012 (5 to 11 model calls)"; tokens only for a local or unpriced model. */
export function estimateText(estimate: CostEstimate): string {
  const calls = `${estimate.calls.low} to ${estimate.calls.high} model calls`;
  const size = `${tokens(estimate.tokens.low)} to ${tokens(estimate.tokens.high)} tokens`;
  if (estimate.usd === null) return `About ${size} (${calls}); no price is known for this model.`;
  if (estimate.usd.high === 0) return `About ${size} (${calls}); a local model costs nothing per token.`;
  return `About ${dollars(estimate.usd.low)} to ${dollars(estimate.usd.high)} (${calls}, ${size}).`;
}
