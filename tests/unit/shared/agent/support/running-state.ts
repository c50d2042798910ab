import { AgentState, type StepRecord } from '../../../../../shared/agent/agent-state';

/** A running task with these steps and nothing else: no plan, no outcome, no usage yet. */
export function runningState(task: string, startUrl: string, steps: StepRecord[]): AgentState {
  return AgentState.parse({
    version: 1,
    taskId: 't',
    task,
    startUrl,
    status: 'running',
    startedAt: 0,
    plan: null,
    steps,
    outcome: null,
    endReason: null,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
  });
}
