import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { runFixer, writeHookSettings, type FixerResult } from './fixer';
import type { LoopContext } from './loop-engine';
import { buildFixerPrompt } from './fixer-prompt';
import { protectedList } from './guard-rules';
import { isAlive, killTree } from './kill-tree';
import { currentRecord } from './loop-state';
import { writeFileAtomic } from './state-store';
import { guardRules, nextIteration, type StepHandler } from './step-support';
import { CHANGE_APPROACH_AFTER, repeatCount } from './stuck-detector';

/**
 * The fix step: one paid fixer run. The state records the run before it starts and its result right after it ends,
 * so a crash in between is recognised on resume (the run is ended and its edits dropped) and a finished run is never
 * repeated.
 */
export const fixStep: StepHandler = async (context) => {
  const { state, deps, git } = context;
  const record = currentRecord(state);
  if (state.pendingFixer) {
    // A fixer was running when Deputy stopped without saying so (killed, crashed): end it if it is still there.
    const { pid, result } = state.pendingFixer;
    if (pid !== undefined && isAlive(pid)) killTree(pid);
    // Its result was already read: the run is finished and paid for, so it is kept, edits and all, not repeated.
    if (result) return finishRun(context, result);
    // It never reported a result: drop its half-made edits; running the fixer again repeats no finished work.
    record.interruptedRuns += 1;
    await git.rollbackTo(record.startCommit);
    delete state.pendingFixer;
    context.save();
  }
  const { budgets } = state.config;
  if (state.iteration > budgets.maxIterations) {
    context.finish('budget', `The iteration budget of ${budgets.maxIterations} fixer run(s) is used up and the check still fails`);
    return 'budget';
  }
  if (state.costUsd >= budgets.maxCostUsd) {
    context.finish('budget', `The cost budget of $${budgets.maxCostUsd.toFixed(2)} is used up ($${state.costUsd.toFixed(2)} spent)`);
    return 'budget';
  }
  const rules = guardRules(state);
  writeFileAtomic(deps.paths.rulesFile, JSON.stringify({ repo: state.repo, ...rules }));
  writeHookSettings(deps.paths.settingsFile, deps.hookCommand);
  const guidancePath = join(state.repo, state.config.guidanceFile);
  const previous = state.history[state.history.length - 2];
  const prompt = buildFixerPrompt({
    failures: record.failures,
    history: state.history.slice(0, -1),
    ...(existsSync(guidancePath) ? { guidance: readFileSync(guidancePath, 'utf8').slice(0, 8000) } : {}),
    guidanceFile: state.config.guidanceFile,
    protectedPaths: protectedList(rules),
    allowedPaths: rules.allowedPaths,
    changeApproach: repeatCount(state.history) >= CHANGE_APPROACH_AFTER,
    ...(previous?.logs ? { logs: previous.logs } : {}),
  });
  state.pendingFixer = { startedAt: deps.now() };
  context.save();
  const result = await runFixer(
    state.config.fixer,
    {
      prompt,
      repo: state.repo,
      settingsFile: deps.paths.settingsFile,
      onProgress: (action) => context.emit({ type: 'fixer.progress', action: action.split(`${state.repo}/`).join('') }),
      onSessionId: (sessionId) => {
        if (state.pendingFixer) state.pendingFixer.sessionId = sessionId;
      },
      onSpawn: (pid) => {
        if (state.pendingFixer) state.pendingFixer.pid = pid;
        context.save();
      },
      onResult: (early) => {
        if (state.pendingFixer) state.pendingFixer.result = early;
        context.save();
      },
      signal: deps.signal,
    },
    deps.run,
  );
  // A run stopped after its result was printed (Ctrl-C, or a CLI that lingers past the timeout) still counts.
  const saved = state.pendingFixer?.result;
  if (!saved && (result.interruption === 'aborted' || result.interruption === 'killed')) {
    await git.rollbackTo(record.startCommit);
    record.interruptedRuns += 1;
    delete state.pendingFixer;
    context.save();
    if (result.interruption === 'aborted') throw new AppError('cancelled', 'Stopped while the fixer was running; its changes were discarded');
    throw new AppError('unavailable', 'The fixer was ended by a signal Deputy did not send (a host shutdown, the system); its changes were discarded. Run deputy loop --resume to run it again');
  }
  return finishRun(context, saved ?? result);
};

/** Records a finished (or timed-out) run, moves the loop on, and saves before telling anyone. */
async function finishRun(context: LoopContext, result: FixerResult): Promise<string> {
  const { state, git } = context;
  const record = currentRecord(state);
  record.fixer = result;
  // Cents are summed as floats over many runs; rounding keeps the report and the budget free of 0.30000000000000004.
  state.costUsd = Math.round((state.costUsd + result.costUsd) * 1e6) / 1e6;
  delete state.pendingFixer;
  const iteration = state.iteration;
  if (!result.completed) {
    await git.rollbackTo(record.startCommit);
    const why = result.interruption === 'timeout' ? `did not finish within ${state.config.fixer.timeoutSeconds} s` : 'ended without a result';
    record.rejected = [`the fixer ${why}; its changes were discarded`];
    nextIteration(context);
  } else {
    state.step = 'validate';
  }
  context.save();
  context.emit(
    {
      type: 'fixer.finished',
      costUsd: result.costUsd,
      isError: result.isError,
      summary: result.summary,
      ...(result.sessionId ? { sessionId: result.sessionId } : {}),
      ...(result.turns !== undefined ? { turns: result.turns } : {}),
    },
    iteration,
  );
  return result.summary;
}
