import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LoopConfig, LoopEvent } from '../../shared/protocol/loop-protocol';
import type { Logger } from '../log/logger';
import type { LoopPlugins } from './loop-context';
import { runLoop } from './loop-engine';
import { createStepTable } from './loop-steps';
import type { LoopState } from './loop-state';
import type { CommandRunner } from './run-command';
import { prepareLoop, type PreparedLoop, type ResumeChanges } from './prepare-loop';

export interface StartLoopOptions {
  repo: string;
  /** Required to start a loop; ignored on resume, which keeps the definition saved in the state. */
  config?: LoopConfig;
  resume: boolean;
  restart: boolean;
  stateDir: string;
  /** Builds the guard hook's command line from the loop's rules file. */
  hookCommand: (rulesFile: string) => string;
  run: CommandRunner;
  emit: (event: LoopEvent) => void;
  signal: AbortSignal;
  log: Logger;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called once the loop is prepared (state loaded or created), before the first step. */
  onPrepared?: (prepared: PreparedLoop) => void;
  /** On resume: budgets and fixer limits the user changed. */
  resumeChanges?: ResumeChanges;
  /** On resume: push the fix that waits for approval. */
  approve?: boolean;
  /** What replaces the default check, and what runs before the loop stops as stuck. */
  plugins?: LoopPlugins;
}

/** A pause that a stop request cuts short. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Prepares and runs one loop to its end, for the CLI and the host alike; the lock is released however it ends. */
export async function startLoop(options: StartLoopOptions): Promise<LoopState> {
  const fetchFn = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const prepared = await prepareLoop({
    repo: options.repo,
    ...(options.config ? { config: options.config } : {}),
    resume: options.resume,
    restart: options.restart,
    stateDir: options.stateDir,
    run: options.run,
    fetch: fetchFn,
    now,
    ...(options.resumeChanges ? { resumeChanges: options.resumeChanges } : {}),
    ...(options.approve ? { approve: true } : {}),
  });
  try {
    options.onPrepared?.(prepared);
    return await runLoop(
      prepared.state,
      {
        run: options.run,
        fetch: fetchFn,
        now,
        sleep: options.sleep ?? abortableSleep,
        emit: options.emit,
        paths: prepared.paths,
        hookCommand: options.hookCommand(prepared.paths.rulesFile),
        signal: options.signal,
        log: options.log,
      },
      createStepTable(options.plugins),
      prepared.resumed,
    );
  } finally {
    prepared.release();
  }
}

/** Quotes one word for the POSIX shell that Claude Code runs hook commands in (bash, also on Windows). */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The guard hook's command line, run by the same Node with the loop's rules file: the small hook file built beside
 * the host (dist-host/loop-hook.mjs), or the host's own `loop-hook` command where that file is missing.
 */
export function hookCommandLine(nodePath: string, scriptPath: string, rulesFile: string): string {
  const small = join(dirname(scriptPath), 'loop-hook.mjs');
  const words = existsSync(small) ? [nodePath, small, '--rules', rulesFile] : [nodePath, scriptPath, 'loop-hook', '--rules', rulesFile];
  return words.map(shellQuote).join(' ');
}
