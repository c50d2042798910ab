import { AgentState, type CallRecord, StepRecord } from './agent-state';
import { type CallServices, executeCall } from './execute-call';
import { intentOf } from './step-text';

/** The loop's services a single call uses as they are: tools, environment, policy, vault, redactor, approvals, gate. */
type SharedServices<E> = Pick<CallServices<E>, 'tools' | 'environment' | 'policy' | 'vault' | 'redactor' | 'approve' | 'gate' | 'gateFacts'>;

export interface SingleCallInput<E> extends SharedServices<E> {
  /** Names the caller in approvals (the MCP session). */
  taskId: string;
  /** What the caller is doing, for the state the gate reads. */
  task: string;
  /** The site the calls count as starting on; see the policy gate's approved sites. */
  startUrl: string;
  /** The page (or shell) the call acts on, as the gate and the step text read it. */
  observation: StepRecord['observation'];
  call: { id: string; name: string; arguments: Record<string, unknown> };
  /**
   * The origins the caller was approved for so far, kept across its calls (an approval during this call adds to
   * them), and how the environment's egress guard learns of a change, as a task's loop tells it.
   */
  origins?: { approved: AgentState['approvedOrigins']; changed: () => Promise<void> };
  signal?: AbortSignal;
  now: () => number;
}

/**
 * Runs one tool call that comes from outside Deputy's own agent loop (an agent connected over MCP, a tool a task
 * borrows from another runtime) through exactly the path the loop's calls take: argument validation, the environment's
 * gate and the shared policy gate, the user's approval, the handler, and redaction of the result. Returns the settled
 * call record: `finished` (ok or not) or `denied`.
 */
export async function runSingleCall<E>(input: SingleCallInput<E>): Promise<CallRecord> {
  const now = input.now();
  // Parsed rather than built by hand, so fields the state gains later get their defaults here too.
  const state = AgentState.parse({
    version: 1,
    taskId: input.taskId,
    task: input.task,
    startUrl: input.startUrl,
    status: 'running',
    startedAt: now,
    plan: null,
    steps: [],
    outcome: null,
    endReason: null,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  });
  if (input.origins) state.approvedOrigins = input.origins.approved;
  const step = StepRecord.parse({ index: 0, startedAt: now, observation: input.observation, reply: null });
  const call: CallRecord = { id: input.call.id, name: input.call.name, arguments: JSON.stringify(input.call.arguments), status: 'proposed', classes: [] };
  step.calls.push(call);
  state.steps.push(step);
  await executeCall(call, {
    state,
    step,
    tools: input.tools,
    environment: input.environment,
    policy: input.policy,
    vault: input.vault,
    redactor: input.redactor,
    approve: input.approve,
    ...(input.gate ? { gate: input.gate } : {}),
    ...(input.gateFacts ? { gateFacts: input.gateFacts } : {}),
    ...(input.origins ? { egressChanged: input.origins.changed } : {}),
    askUser: () => Promise.resolve(null),
    finish: () => undefined,
    save: () => Promise.resolve(),
    now: input.now,
    stopRequested: () => input.signal?.aborted ?? false,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  // A stop while the approval was pending returns before acting, with the call still waiting: nothing was done.
  if (call.status !== 'finished' && call.status !== 'denied') {
    call.status = 'denied';
    call.result = { ok: false, content: 'Cancelled before it ran: nothing was done.' };
  }
  return call;
}

/** The settled call as an MCP tool result: its text, and isError for a refusal or a failure. */
export function callResultText(call: CallRecord): { text: string; isError: boolean } {
  return { text: call.result?.content ?? 'No result.', isError: call.status === 'denied' || call.result?.ok !== true };
}

/** The call as a log line: what was done, or for a refused call what was asked ("Click [2] …"), never "Clicked". */
export function callLogText(call: CallRecord): string {
  const text = call.stepText ?? call.name;
  return call.status === 'denied' ? intentOf(text) : text;
}
