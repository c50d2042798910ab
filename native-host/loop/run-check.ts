import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import type { FailureItem, LoopConfig } from '../../shared/protocol/loop-protocol';
import { parseCheckOutput, textTail } from './parse-check-output';
import type { CommandRunner } from './run-command';
import { failureSignature } from './stuck-detector';

export interface CheckOutcome {
  passed: boolean;
  format: string;
  failures: FailureItem[];
  signature: string;
}

/**
 * Runs the check command. Its exit code decides pass or fail; a structured report that lists failures also fails the
 * check even when the command exits 0, because some runners do. The output file, when there is one, reaches the
 * command as DEPUTY_OUTPUT and in place of `{output}`.
 */
export async function runCheck(
  check: NonNullable<LoopConfig['check']>,
  repo: string,
  outputFile: string | undefined,
  run: CommandRunner,
  signal?: AbortSignal,
  /** Where a JUnit report goes when the command writes it to {junit} or $DEPUTY_JUNIT_FILE: outside the repo. */
  junitTemp?: string,
): Promise<CheckOutcome> {
  if (junitTemp) rmSync(junitTemp, { force: true });
  const command = check.command.replaceAll('{output}', outputFile ?? '').replaceAll('{junit}', junitTemp ?? '');
  const result = await run({
    command,
    cwd: repo,
    timeoutMs: check.timeoutSeconds * 1000,
    env: { DEPUTY_OUTPUT: outputFile ?? '', CI: '1', FORCE_COLOR: '0', ...(junitTemp ? { DEPUTY_JUNIT_FILE: junitTemp } : {}) },
    ...(signal ? { signal } : {}),
  });
  if (result.spawnError) throw new AppError('unavailable', `The check "${check.command}" could not be started (${result.spawnError.code ?? result.spawnError.message}); check the command and the shell`);
  if (result.aborted) throw new AppError('cancelled', 'Stopped while the check was running');
  const junitPath = check.junitFile ? resolve(repo, check.junitFile) : junitTemp && existsSync(junitTemp) ? junitTemp : undefined;
  const junitXml = junitPath && existsSync(junitPath) ? readFileSync(junitPath, 'utf8') : undefined;
  const output = `${result.stdout}\n${result.stderr}`;
  const parsed = parseCheckOutput(output, check.format, junitXml);
  const structured = parsed.failures.filter((item) => item.severity !== 'warning');
  const passed = result.exitCode === 0 && structured.length === 0 && !result.timedOut;
  let failures = passed ? [] : parsed.failures;
  if (!passed && failures.length === 0) {
    failures = textTail(output);
    if (failures.length === 0) failures = [{ id: 'check', message: `The check exited with code ${String(result.exitCode)} and printed nothing`, severity: 'error' }];
  }
  if (result.timedOut) failures = [{ id: 'check timeout', message: `The check did not finish within ${check.timeoutSeconds} s`, severity: 'error' }, ...failures];
  return { passed, format: parsed.format, failures, signature: failureSignature(failures) };
}
