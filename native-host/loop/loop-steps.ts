import { join } from 'node:path';
import type { LoopStep } from '../../shared/protocol/loop-protocol';
import { waitForDeploy } from './deploy-wait';
import { fixStep } from './fix-step';
import { currentRecord } from './loop-state';
import { commitStep, pushStep, validateStep } from './publish-steps';
import { runCheck } from './run-check';
import { externalDeps, nextIteration, type StepHandler } from './step-support';
import { STUCK_AFTER, repeatCount } from './stuck-detector';
import { outputSnapshot, runTrigger, waitForOutput } from './trigger-output';
import { withRetries } from './with-retries';

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

/** One handler per step; each moves `state.step` on and returns a short detail for the step.finished event. */
export const stepHandlers: Record<LoopStep, StepHandler> = {
  trigger,
  output,
  check,
  fix: fixStep,
  validate: validateStep,
  commit: commitStep,
  push: pushStep,
  deploy,
  logs,
};
