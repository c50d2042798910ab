import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { AppError } from '../../shared/errors';
import type { OutputSpec, TriggerSpec } from '../../shared/protocol/loop-protocol';
import type { CommandRunner } from './run-command';
import { runFormTrigger, type FormFiller } from './trigger-form';
import { runHttpTrigger } from './trigger-http';

export interface ExternalDeps {
  run: CommandRunner;
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** Where secrets of a trigger's headers are read from (the host's or the CLI's environment). */
  env: Record<string, string | undefined>;
  /** Fills a web form in the browser; absent where no browser with the extension can be reached. */
  fillForm?: FormFiller;
}

export interface TriggerOutcome {
  kind: 'command' | 'http' | 'form';
  /** What was sent: the command, the request, the form. */
  target: string;
  /** What came back. */
  result: string;
}

/** The kind of a trigger, for events and the retry rule. */
export function triggerKind(trigger: TriggerSpec): TriggerOutcome['kind'] {
  return 'url' in trigger ? 'http' : 'page' in trigger ? 'form' : 'command';
}

/**
 * Whether this trigger may be sent twice: a command is rerun (a failure means it did not start the job), GET and PUT
 * are repeatable by definition, a POST or a form only when the user marked it idempotent.
 */
export function triggerRepeatable(trigger: TriggerSpec): boolean {
  return 'command' in trigger || ('url' in trigger && trigger.method !== 'POST') || trigger.idempotent;
}

/** Starts the service's job: a command, an HTTP request or a web form. A failure says what was sent and what came back. */
export async function runTrigger(trigger: TriggerSpec, repo: string, deps: ExternalDeps): Promise<TriggerOutcome> {
  if ('url' in trigger) return { kind: 'http', ...(await runHttpTrigger(trigger, repo, deps)) };
  if ('page' in trigger) return { kind: 'form', ...(await runFormTrigger(trigger, deps.fillForm, deps.signal)) };
  const result = await deps.run({ command: trigger.command, cwd: repo, timeoutMs: trigger.timeoutSeconds * 1000, ...(deps.signal ? { signal: deps.signal } : {}) });
  if (result.exitCode !== 0) {
    const why = result.timedOut ? `timed out after ${trigger.timeoutSeconds} s` : `exited with ${String(result.exitCode)}`;
    throw new AppError('unavailable', `The trigger command "${trigger.command}" ${why}: ${(result.stderr || result.stdout).trim().slice(-400)}`);
  }
  return { kind: 'command', target: `the command ${trigger.command}`, result: 'finished' };
}

/** An output found as a file: in a folder (Downloads works too) or at a URL. */
export type FileOutputSpec = Exclude<OutputSpec, { mail: unknown }>;

/** The output folder as an absolute path (a relative one is relative to the repo). */
export function outputFolder(output: { folder: string }, repo: string): string {
  return isAbsolute(output.folder) ? output.folder : resolve(repo, output.folder);
}

/** The files matching the output pattern, with their modification times: what exists before the job runs. */
export function outputSnapshot(output: OutputSpec, repo: string): Record<string, number> {
  if (!('folder' in output)) return {};
  const folder = outputFolder(output, repo);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return {};
  }
  const match = picomatch(output.pattern, { dot: true });
  const snapshot: Record<string, number> = {};
  for (const name of names.filter((entry) => match(entry))) snapshot[name] = statSync(join(folder, name)).mtimeMs;
  return snapshot;
}

/**
 * The newest file that is new or changed since the baseline. Comparing with a snapshot instead of a clock works on
 * file systems whose timestamps are coarse, and never takes an earlier run's file for this run's output.
 */
function newestNewFile(folder: string, current: Record<string, number>, baseline: Record<string, number> | undefined): string | undefined {
  let best: { name: string; mtime: number } | undefined;
  for (const [name, mtime] of Object.entries(current)) {
    if (baseline && baseline[name] === mtime) continue;
    if (!best || mtime > best.mtime) best = { name, mtime };
  }
  return best ? join(folder, best.name) : undefined;
}

/**
 * Waits for the job's output: a file matching the pattern that is not in the baseline (or changed since), or a
 * document fetched from a URL and saved to `saveTo`. Without a baseline the newest match counts. Returns the path the
 * check receives.
 */
export async function waitForOutput(
  output: FileOutputSpec,
  repo: string,
  baseline: Record<string, number> | undefined,
  saveTo: string,
  deps: ExternalDeps,
): Promise<string> {
  if ('url' in output) {
    try {
      const response = await deps.fetch(output.url, { signal: AbortSignal.timeout(output.timeoutSeconds * 1000) });
      if (!response.ok) throw new AppError('unavailable', `The output URL ${output.url} answered HTTP ${response.status}`);
      writeFileSync(saveTo, Buffer.from(await response.arrayBuffer()));
      return saveTo;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('unavailable', `Could not fetch the output from ${output.url} (${String(error)}): check the URL`);
    }
  }
  const folder = outputFolder(output, repo);
  const deadline = deps.now() + output.timeoutSeconds * 1000;
  for (;;) {
    const found = newestNewFile(folder, outputSnapshot(output, repo), baseline);
    if (found) return found;
    if (deps.now() >= deadline || deps.signal?.aborted) {
      throw new AppError('timeout', `No file matching "${output.pattern}" appeared in ${folder} within ${output.timeoutSeconds} s: check that the job ran and where it writes its output`);
    }
    await deps.sleep(output.pollSeconds * 1000, deps.signal);
  }
}
