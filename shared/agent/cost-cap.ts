import type { AgentState } from './agent-state';

/** The start of the reason a task records when it stops at its cost cap; how a saved task is known to have stopped there. */
export const COST_CAP_STOP = 'Stopped at the cost cap';

/** How a web task or chat goes on after its cap: the panel's follow-up box. */
export const FOLLOW_UP_TO_CONTINUE = 'raise the cap and write a follow-up to continue';

/** The reason a turn records at its cap: what it spent, the cap, that its state is saved, and how to go on. */
export function costCapReason(spentUsd: number, capUsd: number, howToContinue: string): string {
  return `${COST_CAP_STOP}: this turn spent $${spentUsd.toFixed(4)}, and the cap is $${capUsd.toFixed(capUsd < 0.01 ? 4 : 2)}. Everything so far is saved; ${howToContinue}.`;
}

/** Whether a saved task ended at its cost cap (and so can go on under a new one). */
export function stoppedAtCostCap(state: Pick<AgentState, 'status' | 'endReason'>): boolean {
  return state.status === 'stopped' && (state.endReason ?? '').startsWith(COST_CAP_STOP);
}

/**
 * A task stopped at its cap, set to go on as a new turn (a follow-up that says so): the cap then in force counts from
 * here, as a web task's follow-up does. Any other state is returned as it is.
 */
export function continueAfterCostCap(state: AgentState, at: number): AgentState {
  if (!stoppedAtCostCap(state)) return state;
  // The same shape as run-agent's withFollowUp (not imported: run-agent imports this file).
  const text = 'The cost cap was raised: go on with the task from where it stopped.';
  return { ...state, status: 'running', outcome: null, endReason: null, followUps: [...(state.followUps ?? []), { text, beforeStep: state.steps.length, at }] };
}
