import type { AgentEnvironment } from '../../../shared/agent/environment';
import type { Provider } from '../../../shared/agent/providers/provider';
import type { RoutineRun, TargetIdentity } from '../../../shared/routines/routine';
import { createReplayProvider } from '../../../shared/routines/replay-provider';
import { identityOf, type IdentityView } from '../../../shared/routines/target-identity';

export interface RoutineWatch {
  provider: Provider;
  /** The identities recorded so far, by call id (those of earlier runs of the task included). */
  targets: Record<string, TargetIdentity>;
  /** The replay's progress, when the task is a routine's replay. */
  run: RoutineRun | undefined;
}

/**
 * Watches a web task's run for routines: the environment's observations are kept as they are made (the loop masks
 * old ones in the saved state), and each call the model (or a replay) proposes gets the identity of its element in
 * the page it was proposed on. For a replay, the routine's steps answer in the model's place. The environment is
 * changed in place: its `observe` also keeps the last page.
 */
export function watchRoutine(environment: AgentEnvironment, model: Provider, earlier: { targets?: Record<string, TargetIdentity> | undefined; routine?: RoutineRun | undefined }): RoutineWatch {
  let last: IdentityView | null = null;
  const observe = environment.observe.bind(environment);
  environment.observe = async (options) => {
    const observation = await observe(options);
    last = { elements: observation.elements ?? [], text: observation.text };
    return observation;
  };
  const targets: Record<string, TargetIdentity> = { ...earlier.targets };
  const run = earlier.routine ? structuredClone<RoutineRun>(earlier.routine) : undefined;
  const inner = run ? createReplayProvider({ run, model, view: () => last }) : model;
  const provider: Provider = {
    label: inner.label,
    model: inner.model,
    vision: inner.vision,
    ...(inner.free === undefined ? {} : { free: inner.free }),
    async complete(request, options) {
      const view = last;
      const reply = await inner.complete(request, options);
      for (const call of reply.toolCalls) {
        const ref = refOf(call.arguments);
        const identity = ref === undefined || view === null ? null : identityOf(view, ref);
        if (identity) targets[call.id] = identity;
      }
      return reply;
    },
  };
  return { provider, targets, run };
}

function refOf(args: string): number | undefined {
  try {
    const ref = (JSON.parse(args) as { ref?: unknown }).ref;
    return typeof ref === 'number' ? ref : undefined;
  } catch {
    return undefined;
  }
}
