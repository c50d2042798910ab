import type { CompleteOptions, ConversationMessage, Provider, ProviderReply, ProviderRequest, ToolCall } from '../agent/providers/provider';
import { REPLAYABLE_TOOLS } from './build-routine';
import type { RoutineRun, RoutineStep } from './routine';
import { findTarget, identityOf, type IdentityView } from './target-identity';

export interface ReplayDeps {
  /** The replay so far (its steps with the parameters filled); changed in place as steps are done. */
  run: RoutineRun;
  /** The real model: asked only for a step that no longer fits, for that step alone. */
  model: Provider;
  /** The page as last observed by the loop (the view the next call's refs are numbered in). */
  view(): IdentityView | null;
  /** Called after each change of the run (a step done, a repair), to keep it on the task. */
  onProgress?(run: RoutineRun): void;
}

/** How many times the model may try one step before the replay gives up on it. */
const REPAIR_TRIES = 3;

interface Pending {
  /** The step's index, or -1 for opening the routine's address. */
  step: number;
  ref: number | undefined;
  view: IdentityView | null;
  /** Why the model was asked, when it was. */
  repair: string | null;
}

/** The result of the calls made in the last reply: the tool messages after the last assistant message. */
function lastResults(messages: ConversationMessage[]): { isError: boolean; content: string }[] {
  const at = messages.map((m) => m.role).lastIndexOf('assistant');
  if (at < 0) return [];
  return messages.slice(at + 1).flatMap((m) => (m.role === 'tool' ? [{ isError: m.isError, content: m.content }] : []));
}

/** The last user message with a line added for the model: what step of the routine it is asked to do, and why. */
function withHint(request: ProviderRequest, hint: string): ProviderRequest {
  const at = request.messages.map((m) => m.role).lastIndexOf('user');
  const messages = request.messages.map((m, i) => (i === at && m.role === 'user' ? { ...m, content: `${m.content}\n\n${hint}` } : m));
  return { ...request, messages };
}

/**
 * A provider that replays a routine: each turn it answers with the routine's next step, its element found again by
 * identity in the page the loop just observed, so the loop (policy gate, approvals, egress guard, verification) runs
 * exactly as in a live task. Only when a step's element is missing or ambiguous, or its action failed, is the real model
 * asked, for that step alone; what it did is kept as a repair the user may take into the routine.
 */
export function createReplayProvider(deps: ReplayDeps): Provider {
  const { run, model } = deps;
  let pending: Pending | null = null;
  let tries = 0;
  let turn = 0;

  const reply = (calls: { name: string; args: Record<string, unknown> }[], text = ''): ProviderReply => {
    turn += 1;
    const toolCalls: ToolCall[] = calls.map((c, i) => ({ id: `routine_${turn}_${i}`, name: c.name, arguments: JSON.stringify(c.args) }));
    return { text, toolCalls, usage: { inputTokens: 0, outputTokens: 0 }, model: model.model, stopReason: 'tool_use' };
  };

  const settle = (request: ProviderRequest, lastCall: ToolCall | undefined): string | null => {
    if (!pending) return null;
    const was = pending;
    pending = null;
    const result = lastResults(request.messages)[0];
    if (was.step < 0) {
      if (result && !result.isError) {
        run.opened = true;
        deps.onProgress?.(run);
        return null;
      }
      return `OPEN:${result?.content.slice(0, 300) ?? 'it was not run'}`;
    }
    if (!result || result.isError) return result ? `Its action did not work: ${result.content.slice(0, 300)}` : 'Its action was not run.';
    if (was.repair !== null) {
      // A repair is a step of the routine only when the model acted; reading the page first asks it again.
      if (!lastCall || !REPLAYABLE_TOOLS.has(lastCall.name)) return was.repair;
      run.repairs.push({ step: was.step, why: was.repair, replacement: replacementOf(lastCall, was, run.steps[was.step]) });
    }
    run.done = was.step + 1;
    tries = 0;
    deps.onProgress?.(run);
    return null;
  };

  let lastModelCall: ToolCall | undefined;

  return {
    label: `routine (${model.label})`,
    model: model.model,
    vision: model.vision,
    ...(model.free === undefined ? {} : { free: model.free }),
    async complete(request: ProviderRequest, options?: CompleteOptions): Promise<ProviderReply> {
      // Requests that are not a turn of the task (a risk classifier's question) go to the model as they are.
      if (request.tools.length === 0) {
        run.modelCalls += 1;
        deps.onProgress?.(run);
        return model.complete(request, options);
      }
      let why = settle(request, lastModelCall);
      lastModelCall = undefined;
      if (why?.startsWith('OPEN:')) {
        return reply([{ name: 'done', args: { success: false, summary: `The routine "${run.name}" could not open ${run.open ?? 'its page'}: ${why.slice(5)}` } }]);
      }
      if (run.open !== undefined && !run.opened) {
        pending = { step: -1, ref: undefined, view: deps.view(), repair: null };
        return reply([{ name: 'navigate', args: { url: run.open } }]);
      }
      if (run.done >= run.steps.length) {
        return reply([{ name: 'done', args: { success: true, summary: `Replayed the routine "${run.name}": ${run.steps.length} steps, ${run.modelCalls === 0 ? 'none' : run.modelCalls} asked of the model.` } }]);
      }
      const index = run.done;
      const step = run.steps[index] as RoutineStep;
      const view = deps.view();
      if (why === null) {
        if (step.target) {
          const match = view ? findTarget(step.target, view) : { kind: 'missing' as const, why: 'The page could not be read.' };
          if (match.kind === 'found') {
            pending = { step: index, ref: match.ref, view, repair: null };
            return reply([{ name: step.tool, args: { ...step.args, ref: match.ref } }]);
          }
          why = match.why;
        } else if (typeof step.args.ref === 'undefined' && !['click', 'type', 'select', 'check', 'hover', 'set_value'].includes(step.tool)) {
          pending = { step: index, ref: undefined, view, repair: null };
          return reply([{ name: step.tool, args: step.args }]);
        } else {
          why = 'The routine does not say which element this step acts on.';
        }
      }
      tries += 1;
      if (tries > REPAIR_TRIES) {
        return reply([{ name: 'done', args: { success: false, summary: `The routine "${run.name}" stopped at step ${index + 1} (${step.text}): ${why} The model could not do the step either.` } }]);
      }
      run.modelCalls += 1;
      deps.onProgress?.(run);
      const hint = [
        `Deputy is replaying the saved routine "${run.name}" (step ${index + 1} of ${run.steps.length}). This step could not be done as recorded: ${why}`,
        `The step was: ${step.text}${step.target ? ` (on ${step.target.role} "${step.target.name}"${step.target.near ? ` near "${step.target.near}"` : ''})` : ''}, with ${JSON.stringify(step.args)}.`,
        'Do this one step on the page as it is now, with one tool call. Do not do the routine\'s other steps; call done only if the step cannot be done.',
      ].join('\n');
      const answer = await model.complete(withHint(request, hint), options);
      const first = answer.toolCalls[0];
      lastModelCall = first;
      const ref = first ? (JSON.parse(first.arguments || '{}') as { ref?: unknown }).ref : undefined;
      pending = { step: index, ref: typeof ref === 'number' ? ref : undefined, view, repair: why };
      return answer;
    },
  };
}

/** The step the model's call would be in the routine: its element by identity in the page it acted on. */
function replacementOf(call: ToolCall, pending: Pending, old: RoutineStep | undefined): RoutineStep | null {
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(call.arguments) as Record<string, unknown>;
  } catch {
    return null;
  }
  const { ref: _ref, ...rest } = args;
  const target = pending.ref !== undefined && pending.view ? identityOf(pending.view, pending.ref) : null;
  return { tool: call.name, args: rest, target, url: old?.url ?? '', text: old?.text ?? call.name };
}
