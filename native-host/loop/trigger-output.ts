import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { AppError } from '../../shared/errors';
import type { LoopConfig } from '../../shared/protocol/loop-protocol';
import type { CommandRunner } from './run-command';

export interface ExternalDeps {
  run: CommandRunner;
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
}

/** Starts the service's job: an HTTP request or a command. A failure says what was called and what came back. */
export async function runTrigger(trigger: NonNullable<LoopConfig['trigger']>, repo: string, deps: ExternalDeps): Promise<string> {
  if ('url' in trigger) {
    let response: Response;
    try {
      response = await deps.fetch(trigger.url, {
        method: trigger.method,
        ...(trigger.body !== undefined ? { body: trigger.body, headers: { 'content-type': 'application/json' } } : {}),
        signal: AbortSignal.timeout(trigger.timeoutSeconds * 1000),
      });
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      throw new AppError('unavailable', `The trigger ${trigger.method} ${trigger.url} could not be sent (${code}): check that the service is up and the URL is right`);
    }
    await response.body?.cancel();
    if (!response.ok) throw new AppError('unavailable', `The trigger ${trigger.method} ${trigger.url} answered HTTP ${response.status}: check the URL and that the job can be started`);
    return `HTTP ${response.status}`;
  }
  const result = await deps.run({ command: trigger.command, cwd: repo, timeoutMs: trigger.timeoutSeconds * 1000, ...(deps.signal ? { signal: deps.signal } : {}) });
  if (result.exitCode !== 0) {
    const why = result.timedOut ? `timed out after ${trigger.timeoutSeconds} s` : `exited with ${String(result.exitCode)}`;
    throw new AppError('unavailable', `The trigger command "${trigger.command}" ${why}: ${(result.stderr || result.stdout).trim().slice(-400)}`);
  }
  return 'command finished';
}

/** The files matching the output pattern, with their modification times: what exists before the job runs. */
export function outputSnapshot(output: NonNullable<LoopConfig['output']>, repo: string): Record<string, number> {
  if ('url' in output) return {};
  const folder = isAbsolute(output.folder) ? output.folder : resolve(repo, output.folder);
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
  output: NonNullable<LoopConfig['output']>,
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
  const folder = isAbsolute(output.folder) ? output.folder : resolve(repo, output.folder);
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
