import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import { fixerShell, writeFixerSettings, writeFixerShell } from './fixer-settings';
import { runFixer, type FixerResult } from './fixer';
import { buildFixerPrompt, fixerCheckCommand, type PromptInput } from './fixer-prompt';
import { protectedList } from './guard-rules';
import { readGuidance } from './guidance-files';
import { killTree } from './kill-tree';
import type { LoopContext, StepHandler } from './loop-context';
import { currentRecord } from './loop-state';
import { isSameProcess, processStartTime } from './process-identity';
import { backupProtected, changedProtected, restoreProtected, snapshotProtected, type ProtectedSnapshot } from './protected-files';
import { writeFileAtomic } from '../atomic-file';
import { guardRules, nextIteration } from './step-support';
import { CHANGE_APPROACH_AFTER, repeatCount } from './stuck-detector';

const money = (usd: number): string => `$${usd.toFixed(2)}`;
const addCost = (total: number, usd: number): number => Math.round((total + usd) * 1e6) / 1e6;

/**
 * The fix step: one paid fixer run. The state records the run before it starts and its result right after it ends,
 * so a crash in between is recognised on resume (the run is ended, its cost so far counted and its edits dropped, and
 * the next run continues its Claude session) and a finished run is never repeated.
 */
export const fixStep: StepHandler = async (context) => {
  const { state, deps } = context;
  const record = currentRecord(state);
  if (state.pendingFixer) {
    // A fixer was running when Deputy stopped without saying so (killed, crashed): end it if it is still that process.
    const { pid, pidStartTime, result } = state.pendingFixer;
    if (pid !== undefined && isSameProcess(pid, pidStartTime)) killTree(pid);
    // Its result was already read: the run is finished and paid for, so it is kept, edits and all, not repeated.
    if (result) return finishRun(context, result);
    await dropInterruptedRun(context);
  }
  const { budgets } = state.config;
  if (state.iteration > budgets.maxIterations) {
    context.finish('budget', `The iteration budget of ${budgets.maxIterations} fixer run(s) is used up and the check still fails`);
    return 'budget';
  }
  const left = Math.round((budgets.maxCostUsd - state.costUsd) * 1e4) / 1e4;
  if (left <= 0) {
    context.finish('budget', `The cost budget of ${money(budgets.maxCostUsd)} is used up (${money(state.costUsd)} spent)`);
    return 'budget';
  }
  const rules = guardRules(state);
  const before = snapshotProtected(state.repo, rules);
  backupProtected(state.repo, before, join(deps.paths.dir, 'protected'));
  writeFileAtomic(deps.paths.rulesFile, JSON.stringify({ repo: state.repo, ...rules, protectedFiles: Object.keys(before) }));
  const checkCommand = fixerCheckCommand(state.config, record.outputFile);
  const document = documentCommands(context);
  writeFixerSettings(deps.paths.settingsFile, {
    programs: deps.fixerPrograms,
    allowedCommands: [
      ...(checkCommand ? [checkCommand] : []),
      ...(state.config.build ? [state.config.build] : []),
      ...(document?.triggerCommand ? [document.triggerCommand] : []),
      ...(document?.compareCommand ? [document.compareCommand] : []),
      ...state.config.fixer.allowCommands,
    ],
  });
  const fixerEnv = state.config.fixer.kind === 'claude' ? writeFixerShell(deps.paths.shellFile, deps.fixerPrograms.redact, fixerShell(deps.env)) : undefined;
  const guidance = readGuidance(state.repo, state.config.guidanceFile);
  const previous = state.history[state.history.length - 2];
  const prompt = buildFixerPrompt({
    failures: record.failures,
    history: state.history.slice(0, -1),
    ...(guidance ? { guidance: guidance.text } : {}),
    guidanceFile: guidance?.files ?? state.config.guidanceFile,
    protectedPaths: protectedList(rules),
    allowedPaths: rules.allowedPaths,
    changeApproach: repeatCount(state.history) >= CHANGE_APPROACH_AFTER,
    ...(checkCommand ? { checkCommand } : {}),
    ...(state.config.build ? { buildCommand: state.config.build } : {}),
    ...(record.findingsText ? { findingsText: record.findingsText } : {}),
    ...(document ? { document } : {}),
    ...(record.escalation ? { research: record.escalation } : {}),
    ...(previous?.logs ? { logs: previous.logs } : {}),
    resumed: record.resumeSession !== undefined,
  });
  state.pendingFixer = { startedAt: deps.now(), protectedSnapshot: before, ...(record.resumeSession ? { sessionId: record.resumeSession } : {}) };
  context.save();
  const result = await runFixer(
    state.config.fixer,
    {
      prompt,
      repo: state.repo,
      settingsFile: deps.paths.settingsFile,
      ...(fixerEnv ? { env: fixerEnv } : {}),
      ...(record.resumeSession ? { resumeSession: record.resumeSession } : {}),
      ...(state.config.fixer.kind === 'claude' ? { maxBudgetUsd: left } : {}),
      onProgress: (action) => context.emit({ type: 'fixer.progress', action: action.split(`${state.repo}/`).join('') }),
      onSessionId: (sessionId) => {
        if (state.pendingFixer) state.pendingFixer.sessionId = sessionId;
      },
      onSpawn: (pid) => {
        if (state.pendingFixer) {
          state.pendingFixer.pid = pid;
          const started = processStartTime(pid);
          if (started) state.pendingFixer.pidStartTime = started;
        }
        context.save();
      },
      onCost: (usd) => {
        if (state.pendingFixer) state.pendingFixer.costUsd = usd;
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
    if (state.pendingFixer) state.pendingFixer.costUsd = result.costUsd;
    await dropInterruptedRun(context);
    if (result.interruption === 'aborted') throw new AppError('cancelled', 'Stopped while the fixer was running; its changes were discarded');
    throw new AppError('unavailable', 'The fixer was ended by a signal Deputy did not send (a host shutdown, the system); its changes were discarded. Run deputy loop --resume to continue it');
  }
  return finishRun(context, saved ?? result);
};

/** Document mode: the template and rules (absolute), the job's command when it is one, and `deputy compare`. */
function documentCommands(context: LoopContext): NonNullable<PromptInput['document']> | undefined {
  const { state, deps } = context;
  const spec = state.config.document;
  if (!spec) return undefined;
  const trigger = state.config.trigger;
  return {
    ...(spec.template ? { template: resolve(state.repo, spec.template) } : {}),
    ...(spec.rules ? { rules: resolve(state.repo, spec.rules) } : {}),
    ...(trigger && 'command' in trigger ? { triggerCommand: trigger.command } : {}),
    ...(deps.compareCommand ? { compareCommand: deps.compareCommand } : {}),
  };
}

/**
 * A run that ended without a result: its cost so far is counted, its edits (protected files included) are dropped,
 * and its session is kept so the next run continues the conversation instead of starting over.
 */
async function dropInterruptedRun(context: LoopContext): Promise<void> {
  const { state, git } = context;
  const record = currentRecord(state);
  const pending = state.pendingFixer;
  if (!pending) return;
  state.costUsd = addCost(state.costUsd, pending.costUsd ?? 0);
  record.interruptedRuns += 1;
  if (pending.sessionId) record.resumeSession = pending.sessionId;
  await git.rollbackTo(record.startCommit);
  undoProtectedChanges(context, pending.protectedSnapshot);
  delete state.pendingFixer;
  context.save();
}

/**
 * Puts back protected files a run changed, however it changed them; returns the paths it found changed. Then drops the
 * copies: they hold the user's secret files (.env, keys), so they live only while a fixer run can change the originals.
 */
function undoProtectedChanges(context: LoopContext, before: ProtectedSnapshot | undefined): string[] {
  const { state, deps } = context;
  const backupDir = join(deps.paths.dir, 'protected');
  try {
    if (!before) return [];
    const changed = changedProtected(before, snapshotProtected(state.repo, guardRules(state)));
    if (changed.length === 0) return [];
    const lost = restoreProtected(state.repo, before, changed, backupDir);
    if (lost.length > 0) {
      context.emit({ type: 'notice', level: 'error', message: `The fixer changed protected files Deputy could not put back: ${lost.join(', ')}` });
    }
    return changed;
  } finally {
    rmSync(backupDir, { recursive: true, force: true });
  }
}

/** Records a finished (or timed-out) run, decides what its ending means, and saves before telling anyone. */
async function finishRun(context: LoopContext, result: FixerResult): Promise<string> {
  const { state, git, deps } = context;
  const record = currentRecord(state);
  record.fixer = result;
  // Cents are summed as floats over many runs; rounding keeps the report and the budget free of 0.30000000000000004.
  state.costUsd = addCost(state.costUsd, result.costUsd);
  const protectedChanged = undoProtectedChanges(context, state.pendingFixer?.protectedSnapshot);
  delete state.pendingFixer;
  delete record.resumeSession;
  const iteration = state.iteration;
  let detail = result.summary;
  if (protectedChanged.length > 0) {
    await git.rollbackTo(record.startCommit);
    record.protectedChanged = protectedChanged;
    record.rejected = [`changed protected paths (${protectedChanged.join(', ')}), which were put back; the run's other changes were discarded`];
    context.emit({ type: 'fix.rejected', reasons: record.rejected });
    nextIteration(context);
  } else if (!result.completed) {
    await git.rollbackTo(record.startCommit);
    const why = result.interruption === 'timeout' ? `did not finish within ${state.config.fixer.timeoutSeconds} s` : 'ended without a result';
    record.rejected = [`the fixer ${why}; its changes were discarded`];
    if (result.sessionId) record.resumeSession = result.sessionId;
    nextIteration(context);
  } else if (result.isError) {
    await git.rollbackTo(record.startCommit);
    detail = await afterErrorResult(context, result);
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
      ...(result.errorKind ? { errorKind: result.errorKind } : {}),
      ...(result.sessionId ? { sessionId: result.sessionId } : {}),
      ...(result.turns !== undefined ? { turns: result.turns } : {}),
    },
    iteration,
  );
  if (state.outcome === undefined && deps.signal.aborted) throw new AppError('cancelled', 'Stopped after the fixer run');
  return detail;
}

/**
 * An error result is never a fix: the tree is already rolled back. What happens next depends on the error: a person
 * for login and billing, the budget outcome, one more try for a turn limit or an API failure, then a clear failure.
 */
async function afterErrorResult(context: LoopContext, result: FixerResult): Promise<string> {
  const { state, deps } = context;
  const record = currentRecord(state);
  const message = result.errorMessage ?? result.summary;
  record.rejected = [`the fixer ended with an error (${result.errorKind ?? 'error'}): ${message}; its changes were discarded`];
  switch (result.errorKind) {
    case 'auth':
      context.finish('needs_human', `Needs a human: Claude Code cannot work: ${message}. Sign in (run claude, then /login) or set ANTHROPIC_API_KEY, then run deputy loop --resume`);
      return 'needs a human';
    case 'budget':
      context.finish('budget', `The cost budget of ${money(state.config.budgets.maxCostUsd)} is used up: Claude Code stopped the run at its limit (${money(state.costUsd)} spent)`);
      return 'budget';
    case 'session_missing':
      // The session to continue is gone (another machine, a cleared config): the same step starts a fresh run.
      return 'the session to continue is gone; starting a new run';
    case 'max_turns': {
      const earlier = state.history[state.history.length - 2];
      if (earlier?.fixer?.errorKind === 'max_turns') {
        context.finish('failed', `The fixer reached its turn limit (${String(state.config.fixer.maxTurns ?? 'the default')}) twice in a row without finishing: raise --max-turns, or narrow the task with --allow`);
        return 'turn limit again';
      }
      nextIteration(context);
      return 'turn limit reached; trying again';
    }
    default: {
      const retries = record.apiRetries ?? 0;
      if (retries + 1 < state.config.retries.attempts) {
        record.apiRetries = retries + 1;
        await deps.sleep(state.config.retries.backoffSeconds * 1000 * 2 ** retries, deps.signal);
        return `the fixer failed (${message}); trying again`;
      }
      context.finish('failed', `The fixer failed ${retries + 1} time(s) in a row: ${message}. Check the API status and your network, then run deputy loop --resume`);
      return 'failed';
    }
  }
}
