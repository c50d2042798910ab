import { AppError } from '../../shared/errors';
import { createGit } from './git-ops';
import type { LoopContext, LoopDeps, StepTable } from './loop-context';
import { currentRecord, type LoopState } from './loop-state';
import { writeReport } from './loop-report';
import { saveState } from './state-store';

/**
 * Runs the loop from the state's current step until it passes, stops or fails. The state is saved after every step
 * (and inside the steps around side effects), so a process killed at any point resumes from the step it was in. The
 * steps come in as a table, so the engine depends on no step and a caller can plug in its own check.
 */
export async function runLoop(state: LoopState, deps: LoopDeps, steps: StepTable, resumed: boolean): Promise<LoopState> {
  let lastTick = deps.now();
  const context: LoopContext = {
    state,
    deps,
    git: createGit(state.repo, deps.run),
    save: () => {
      const now = deps.now();
      state.activeMs += now - lastTick;
      lastTick = now;
      state.updatedAt = now;
      saveState(deps.paths.stateFile, state);
    },
    emit: (event, iteration) => deps.emit({ ...event, loopId: state.loopId, at: deps.now(), iteration: iteration ?? state.iteration }),
    finish: (outcome, reason) => {
      state.outcome = outcome;
      state.reason = reason;
    },
  };
  delete state.outcome;
  delete state.reason;
  context.emit({ type: 'loop.started', repo: state.repo, branch: state.branch, resumed, step: state.step });

  while (state.outcome === undefined) {
    const step = state.step;
    if (deps.signal.aborted) {
      context.finish('stopped', `Stopped by the user before the ${step} step; run deputy loop --repo ${state.repo} --resume to continue`);
      break;
    }
    const budgetMs = state.config.budgets.maxWallMinutes * 60_000;
    if (state.activeMs >= budgetMs) {
      context.finish('budget', `The time budget of ${state.config.budgets.maxWallMinutes} minutes is used up`);
      break;
    }
    const iteration = state.iteration;
    context.emit({ type: 'step.started', step });
    try {
      const record = currentRecord(state);
      if (record.startCommit === '') record.startCommit = await context.git.head();
      const detail = await steps[step](context);
      context.save();
      context.emit({ type: 'step.finished', step, ok: true, ...(detail ? { detail } : {}) }, iteration);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (deps.signal.aborted) {
        context.finish('stopped', `Stopped by the user during the ${step} step; run deputy loop --repo ${state.repo} --resume to continue`);
      } else {
        deps.log.warn('step failed', { step, code: error instanceof AppError ? error.code : 'internal' });
        context.finish('failed', `The ${step} step failed: ${message}`);
      }
      context.save();
      context.emit({ type: 'step.finished', step, ok: false, detail: message }, iteration);
    }
  }
  context.save();
  writeReport(deps.paths.reportFile, state);
  context.emit({
    type: 'loop.finished',
    outcome: state.outcome ?? 'failed',
    reason: state.reason ?? '',
    costUsd: state.costUsd,
    reportPath: deps.paths.reportFile,
  });
  return state;
}
