import type { AgentState, StepRecord } from './agent-state';
import type { GateVerdict } from './policy-gate';
import type { AnyTool } from './tool';

export interface ToolGateInput {
  tool: AnyTool<never>;
  args: Record<string, unknown>;
  state: AgentState;
  step: StepRecord;
  callId: string;
  signal?: AbortSignal;
}

/**
 * An environment's own gate for tools whose risk lies outside a page (shell commands): it may consult the user's rules
 * or a validator model, so it is asynchronous. It answers for the calls it knows and returns undefined for the rest,
 * which the shared policy gate decides as usual. Whatever it answers still goes through the same approval and deny
 * paths, so a `deny` never runs and an `ask` waits for the user.
 */
export type ToolGate = (input: ToolGateInput) => Promise<GateVerdict | undefined>;
