import type { CallRecord, StepRecord, TaskOutcome } from './agent-state';
import { chatEndTool } from './chat-tools';
import { doneTool } from './control-tools';
import { isSideEffectFree } from './risk-class';
import type { AnyTool } from './tool';

export const INTERRUPTED_MESSAGE =
  'Deputy was restarted while this action was running, so it may or may not have happened. It was not repeated: check the current page before doing it again.';

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

/** The outcome a finished done or chat_end call gave the task. */
function outcomeOf(call: CallRecord): TaskOutcome | null {
  // `report` is the shell's done: the same success and summary.
  if (call.name === 'done' || call.name === 'report') {
    const parsed = doneTool.input.safeParse(parseJson(call.arguments));
    return parsed.success ? parsed.data : null;
  }
  const parsed = chatEndTool.input.safeParse(parseJson(call.arguments));
  if (!parsed.success) return null;
  const { outcome, summary } = parsed.data;
  return { success: outcome === 'agreed', summary, label: outcome, ...(outcome === 'needs_user' ? { handedToUser: true } : {}) };
}

/**
 * Settles the last saved step of a resumed task. A call that had started is never run again: if it could have
 * changed anything it is marked interrupted and the model is told; a harmless one (a question, a search) goes back to
 * proposed. Calls that never started run normally. Returns the calls marked interrupted, and the task's outcome when
 * done had already been called.
 */
export function settleResumedStep<E>(step: StepRecord, tools: AnyTool<E>[]): { interrupted: CallRecord[]; finished: TaskOutcome | null } {
  const interrupted: CallRecord[] = [];
  for (const call of step.calls) {
    if (call.status !== 'started') continue;
    const tool = tools.find((t) => t.name === call.name);
    if (tool && isSideEffectFree(tool.risk)) call.status = 'proposed';
    else {
      call.status = 'interrupted';
      call.result = { ok: false, content: INTERRUPTED_MESSAGE };
      interrupted.push(call);
    }
  }
  const doneCall = step.calls.find((c) => (c.name === 'done' || c.name === 'report' || c.name === 'chat_end') && c.status === 'finished' && c.result?.ok === true);
  return { interrupted, finished: doneCall ? outcomeOf(doneCall) : null };
}
