import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { LoopStep } from '../../shared/protocol/loop-protocol';
import { waitForDeploy } from './deploy-wait';
import { CANNOT_FIX_FILE, validateDiff } from './diff-validator';
import { runFixer, writeHookSettings } from './fixer';
import { buildFixerPrompt } from './fixer-prompt';
import { protectedList } from './guard-rules';
import { isAlive, killTree } from './kill-tree';
import type { LoopContext } from './loop-engine';
import { currentRecord, firstStep, type LoopState } from './loop-state';
import { runCheck } from './run-check';
import { writeFileAtomic } from './state-store';
import { CHANGE_APPROACH_AFTER, STUCK_AFTER, repeatCount } from './stuck-detector';
import { outputSnapshot, runTrigger, waitForOutput } from './trigger-output';
import { withRetries } from './with-retries';

type StepHandler = (context: LoopContext) => Promise<string | undefined>;

/** The guard rules of a loop: its configured paths plus the guidance file, which the fixer reads but may not edit. */
export function guardRules(state: LoopState) {
  const { config } = state;
  return {
    protectedPaths: [...config.protectedPaths, config.guidanceFile],
    allowedPaths: config.allowedPaths,
    fabricationPatterns: config.fabricationPatterns,
  };
}

function nextIteration(context: LoopContext): void {
  const { state } = context;
  state.iteration += 1;
  state.step = firstStep(state, state.iteration);
}

function afterPush(state: LoopState): LoopStep | undefined {
  if (state.config.deploy) return 'deploy';
  if (state.config.logs) return 'logs';
  return undefined;
}

function trailer(state: LoopState): string {
  return `Deputy-Loop: ${state.loopId} iteration ${state.iteration}`;
}

function externalDeps(context: LoopContext) {
  const { deps } = context;
  return { run: deps.run, fetch: deps.fetch, now: deps.now, sleep: deps.sleep, signal: deps.signal };
}

const trigger: StepHandler = async (context) => {
  const { state, deps } = context;
  const spec = state.config.trigger;
  if (state.config.output) state.outputBaseline = outputSnapshot(state.config.output, state.repo);
  const detail = spec ? await withRetries(state.config.retries, deps, () => runTrigger(spec, state.repo, externalDeps(context))) : 'no trigger';
  state.step = state.config.output ? 'output' : 'check';
  return detail;
};

const output: StepHandler = async (context) => {
  const { state, deps } = context;
  const spec = state.config.output;
  if (spec) {
    const saveTo = join(deps.paths.dir, `output-${state.iteration}`);
    const baseline = state.outputBaseline;
    currentRecord(state).outputFile = await withRetries(state.config.retries, deps, () => waitForOutput(spec, state.repo, baseline, saveTo, externalDeps(context)));
    // Without a trigger the job runs on its own schedule: the next iteration waits for a file newer than this one.
    state.outputBaseline = outputSnapshot(spec, state.repo);
  }
  state.step = 'check';
  return currentRecord(state).outputFile;
};

const check: StepHandler = async (context) => {
  const { state } = context;
  const record = currentRecord(state);
  const outputFile = record.outputFile ?? (state.iteration === 1 ? state.config.outputFile : undefined);
  const result = await runCheck(state.config.check, state.repo, outputFile, context.deps.run, context.deps.signal);
  record.passed = result.passed;
  record.format = result.format;
  record.failures = result.failures;
  record.signature = result.signature;
  context.emit({ type: 'check.result', passed: result.passed, format: result.format, failures: result.failures.slice(0, 20) });
  if (result.passed) {
    const fixes = state.history.filter((entry) => entry.pushed).length;
    context.finish('passed', fixes === 0 ? 'The check passes; nothing to fix' : `The check passes after ${fixes} pushed fix(es)`);
    return 'passed';
  }
  const repeats = repeatCount(state.history);
  if (repeats >= STUCK_AFTER) {
    context.finish('stuck', `Stuck: the same ${result.failures.length} failure(s) came back ${repeats} times in a row, also after asking for a different approach`);
    return 'stuck';
  }
  state.step = 'fix';
  return `${result.failures.length} failure(s)`;
};

const fix: StepHandler = async (context) => {
  const { state, deps, git } = context;
  const record = currentRecord(state);
  if (state.pendingFixer) {
    // A fixer was running when Deputy stopped without saying so (killed, crashed): end it if it is still there, and
    // drop its half-made edits. Its run never reported a result, so running the fixer again repeats no finished work.
    const { pid } = state.pendingFixer;
    if (pid !== undefined && isAlive(pid)) killTree(pid);
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
      signal: deps.signal,
    },
    deps.run,
  );
  if (result.interruption === 'aborted') {
    await git.rollbackTo(record.startCommit);
    record.interruptedRuns += 1;
    delete state.pendingFixer;
    context.save();
    throw new AppError('cancelled', 'Stopped while the fixer was running; its changes were discarded');
  }
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
};

const validate: StepHandler = async (context) => {
  const { state, git } = context;
  const record = currentRecord(state);
  const diff = await git.diffFrom(record.startCommit);
  const verdict = validateDiff(diff, guardRules(state));
  if (verdict.cannotFix) {
    const text = readFileSync(join(state.repo, CANNOT_FIX_FILE), 'utf8').trim();
    record.cannotFix = text.slice(0, 4000);
    await git.rollbackTo(record.startCommit);
    context.finish('needs_human', `Needs a human: the fixer wrote ${CANNOT_FIX_FILE}: ${text.split('\n').find((line) => line.trim().length > 0)?.slice(0, 300) ?? ''}`);
    return 'needs a human';
  }
  if (verdict.empty) {
    record.noChange = true;
    nextIteration(context);
    return 'no change';
  }
  if (!verdict.ok) {
    await git.rollbackTo(record.startCommit);
    record.rejected = verdict.reasons;
    context.emit({ type: 'fix.rejected', reasons: verdict.reasons });
    nextIteration(context);
    return `rejected: ${verdict.reasons.join('; ')}`;
  }
  record.filesChanged = diff.files.length;
  record.insertions = diff.insertions;
  record.deletions = diff.deletions;
  state.step = 'commit';
  return `${diff.files.length} file(s), +${diff.insertions} -${diff.deletions}`;
};

const commit: StepHandler = async (context) => {
  const { state, git } = context;
  const record = currentRecord(state);
  const head = await git.head();
  if (head !== record.startCommit && (await git.commitMessage(head)).includes(trailer(state))) {
    record.commit = head;
  } else {
    // The mandate forbids it, but a fixer may still have committed: fold its commits into Deputy's one commit.
    if (head !== record.startCommit) await git.softResetTo(record.startCommit);
    const summary = (record.fixer?.summary ?? 'make the check pass').replace(/\s+/g, ' ').trim().slice(0, 72);
    record.commit = await git.commitAll(`Fix: ${summary}\n\n${trailer(state)}\n`);
  }
  state.step = 'push';
  context.save();
  context.emit({ type: 'commit.created', commit: record.commit, summary: record.fixer?.summary ?? '' });
  return record.commit;
};

const push: StepHandler = async (context) => {
  const { state, git, deps } = context;
  const record = currentRecord(state);
  const { remote } = state.config;
  let head = await git.head();
  if (!(await git.commitMessage(head)).includes(trailer(state))) {
    throw new AppError('internal', `The branch moved since Deputy committed (HEAD is ${head.slice(0, 10)}, not the loop's commit); inspect the repository, then run --resume`);
  }
  let rebased = false;
  if ((await git.remoteHead(remote, state.branch)) !== head) {
    const outcome = await withRetries(state.config.retries, deps, async () => {
      const attempt = await git.push(remote, state.branch);
      if (!attempt.ok && attempt.retryable) {
        throw new AppError('unavailable', `git push to ${remote}/${state.branch} failed: ${attempt.reason}. Check your access to the remote, then run deputy loop --resume`);
      }
      return attempt;
    });
    if (!outcome.ok) throw new AppError('bad_request', `git push to ${remote}/${state.branch} failed: ${outcome.reason}, then run deputy loop --resume`);
    rebased = outcome.rebased;
    head = await git.head();
  }
  const remoteHead = await git.remoteHead(remote, state.branch);
  if (remoteHead !== head) {
    throw new AppError('unavailable', `After the push ${remote}/${state.branch} points at ${remoteHead ?? 'nothing'}, not at ${head}; check the remote, then run --resume`);
  }
  record.commit = head;
  record.pushed = true;
  record.rebased = rebased;
  if (!state.pushedCommits.includes(head)) state.pushedCommits.push(head);
  const iteration = state.iteration;
  const next = afterPush(state);
  if (next) state.step = next;
  else nextIteration(context);
  context.save();
  context.emit({ type: 'push.verified', commit: head, rebased }, iteration);
  return head;
};

const deploy: StepHandler = async (context) => {
  const { state, deps } = context;
  const spec = state.config.deploy;
  if (spec) {
    currentRecord(state).deployMs = await waitForDeploy(spec, {
      ...externalDeps(context),
      onAttempt: (attempt, status) => context.emit({ type: 'notice', level: 'info', message: `deploy check ${attempt}: ${status}` }),
    });
  }
  if (state.config.logs) state.step = 'logs';
  else nextIteration(context);
  return deps.signal.aborted ? undefined : `ready after ${Math.round((currentRecord(state).deployMs ?? 0) / 1000)} s`;
};

const logs: StepHandler = async (context) => {
  const { state, deps } = context;
  const spec = state.config.logs;
  if (spec) {
    const result = await deps.run({ command: spec.command, cwd: state.repo, timeoutMs: spec.timeoutSeconds * 1000, signal: deps.signal });
    const text = `${result.stdout}${result.stderr}`.trim();
    // Logs only help the next prompt: a failing logs command is noted, never fatal.
    currentRecord(state).logs = result.exitCode === 0 ? text.slice(-spec.maxChars) : `(the logs command failed with exit ${String(result.exitCode)}) ${text.slice(-500)}`;
  }
  nextIteration(context);
  return undefined;
};

export const stepHandlers: Record<LoopStep, StepHandler> = { trigger, output, check, fix, validate, commit, push, deploy, logs };
