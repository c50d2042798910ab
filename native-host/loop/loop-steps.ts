import { configuredCheck } from './check-runners';
import { loopCheckDefinition } from './check-definition';
import { waitForDeploy } from './deploy-wait';
import { fixStep } from './fix-step';
import { currentRecord, type LoopState } from './loop-state';
import { commitStep, pushStep, validateStep } from './publish-steps';
import type { CheckRunner, Escalation, EscalationResult, LoopContext, LoopPlugins, StepHandler, StepTable } from './loop-context';
import { outputStep, triggerStep } from './job-steps';
import { redactedFindings, serviceRedactor } from './service-text';
import { externalDeps, nextIteration } from './step-support';
import { STUCK_AFTER, failureSignature, repeatCount } from './stuck-detector';

/**
 * Files the job and the check wrote in the repo (the output, reports, caches, a JUnit file the check was told to write
 * there): recorded so they are never committed and never taken for the user's work; tracked files they changed are
 * put back once the check has read them.
 */
async function keepJobOutputOut(context: LoopContext, before: string[]): Promise<void> {
  const { state, git } = context;
  const written = (await git.changedPaths()).filter((path) => !before.includes(path));
  if (written.length === 0) return;
  const tracked: string[] = [];
  for (const path of written) if ((await git.showFile('HEAD', path)) !== undefined) tracked.push(path);
  await git.restore(tracked);
  state.checkArtifacts = [...new Set([...(state.checkArtifacts ?? []), ...written])].sort();
}

function makeCheck(runner: CheckRunner, escalate: Escalation | undefined): StepHandler {
  return async (context) => {
    const { state, git } = context;
    const record = currentRecord(state);
    const outputFile = record.outputFile ?? (state.iteration === 1 ? state.config.outputFile : undefined);
    const definition = loopCheckDefinition(state);
    state.checkFingerprint ??= definition.fingerprint;
    // What differed before the job ran: anything new since then is the job's or the check's, never a fix.
    const before = record.treeBefore ?? (await git.changedPaths());
    // Redacted as it comes in: the state, the events, the report and every prompt only ever hold the redacted text.
    const result = redactedFindings(await runner(context, outputFile));
    await keepJobOutputOut(context, before);
    record.passed = result.passed;
    record.format = result.format;
    record.failures = result.findings;
    record.signature = failureSignature(result.findings);
    if (result.document) record.document = result.document;
    if (result.fixerText) record.findingsText = result.fixerText;
    context.emit({ type: 'check.result', passed: result.passed, format: result.format, failures: result.findings.slice(0, 20), ...(result.document ? { document: result.document } : {}) });
    if (result.halt) {
      context.finish('needs_human', result.halt);
      return 'halted';
    }
    if (result.passed) {
      // A pass only counts for the check as the loop found it: a changed test or script could pass anything.
      if (definition.fingerprint !== state.checkFingerprint && !approvedDefinitionChange(state)) {
        context.finish('needs_human', `Needs a human: the check passes, but what defines it changed since the loop started (${definition.files.join(', ')}), so the pass does not count. Review the change, then start a new loop`);
        return 'definition changed';
      }
      const fixes = state.history.filter((entry) => entry.pushed).length;
      const what = !state.config.document ? 'The check passes' : state.config.check ? 'The check passes and the output matches its template' : 'The output matches its template';
      context.finish('passed', fixes === 0 ? `${what}; nothing to fix` : `${what} after ${fixes} pushed fix(es)`);
      return 'passed';
    }
    const repeats = repeatCount(state.history);
    if (repeats >= STUCK_AFTER) {
      const escalatedBefore = state.history.some((entry) => entry.escalation !== undefined && entry.signature === record.signature);
      const escalated: EscalationResult | undefined = escalate && !escalatedBefore ? await escalate(context) : undefined;
      if (escalated === undefined || 'skipped' in escalated) {
        context.finish('stuck', stuckReason(state, repeats, escalatedBefore, escalated?.skipped));
        return 'stuck';
      }
      record.escalation = escalated.guidance;
    }
    state.step = 'fix';
    return `${result.findings.length} failure(s)`;
  };
}

function approvedDefinitionChange(state: LoopState): boolean {
  return state.history.some((entry) => entry.approved === true && entry.pushed === true);
}

/** Why the loop is stuck, with what the fixer runs did, so the report says more than "same failures". */
function stuckReason(state: LoopState, repeats: number, researched: boolean, skipped: string | undefined): string {
  const count = currentRecord(state).failures.length;
  const runs = state.history.slice(-repeats, -1).map((entry) => {
    if (entry.rejected) return `rejected (${entry.rejected[0] ?? ''})`;
    if (entry.fixer?.refused && !entry.commit) return entry.fixer.refused;
    if (entry.noChange) return 'changed nothing';
    if (entry.pushed) return `pushed ${entry.commit?.slice(0, 10) ?? ''}`;
    return 'no usable change';
  });
  const after = researched ? 'also after asking for a different approach and after a root-cause analysis' : 'also after asking for a different approach';
  const research = skipped ? `. ${skipped}` : '';
  return `Stuck: the same ${count} ${state.config.document ? 'finding' : 'failure'}(s) came back ${repeats} times in a row, ${after}. The fixer runs in between: ${runs.join('; ')}${research}`;
}

const deploy: StepHandler = async (context) => {
  const { state, deps } = context;
  const record = currentRecord(state);
  const spec = state.config.deploy;
  if (spec.healthUrl === undefined && spec.waitSeconds > 0) {
    context.emit({ type: 'notice', level: 'info', message: `waiting ${spec.waitSeconds} s for the deploy (no health URL; --deploy-wait 0 skips this)` });
  }
  record.deployMs = await waitForDeploy(spec, record.commit ?? '', {
    ...externalDeps(context),
    onAttempt: (attempt, status) => context.emit({ type: 'notice', level: 'info', message: `deploy check ${attempt}: ${status}` }),
  });
  if (state.config.logs) state.step = 'logs';
  else nextIteration(context);
  return deps.signal.aborted ? undefined : `ready after ${Math.round((record.deployMs ?? 0) / 1000)} s`;
};

const logs: StepHandler = async (context) => {
  const { state, deps } = context;
  const spec = state.config.logs;
  if (spec) {
    const result = await deps.run({ command: spec.command, cwd: state.repo, timeoutMs: spec.timeoutSeconds * 1000, signal: deps.signal });
    const text = serviceRedactor().redact(`${result.stdout}${result.stderr}`.trim());
    // Logs only help the next prompt: a failing logs command is noted, never fatal.
    currentRecord(state).logs = result.exitCode === 0 ? text.slice(-spec.maxChars) : `(the logs command failed with exit ${String(result.exitCode)}) ${text.slice(-500)}`;
  }
  nextIteration(context);
  return undefined;
};

/**
 * The loop's step table: one handler per step, each moving `state.step` on and returning a short detail for the
 * step.finished event. `plugins.check` replaces how the check runs (an output document judged against a template,
 * say); `plugins.escalate` gets a turn before the loop stops as stuck.
 */
export function createStepTable(plugins: LoopPlugins = {}): StepTable {
  return {
    trigger: triggerStep,
    output: outputStep,
    check: makeCheck(plugins.check ?? configuredCheck, plugins.escalate),
    fix: fixStep,
    validate: validateStep,
    commit: commitStep,
    push: pushStep,
    deploy,
    logs,
  };
}
