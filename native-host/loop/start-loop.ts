import type { LoopConfig, LoopEvent } from '../../shared/protocol/loop-protocol';
import type { Logger } from '../log/logger';
import { runLoop } from './loop-engine';
import type { LoopState } from './loop-state';
import type { CommandRunner } from './run-command';
import { prepareLoop, type PreparedLoop } from './prepare-loop';

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
  const prepared = await prepareLoop({ repo: options.repo, ...(options.config ? { config: options.config } : {}), resume: options.resume, restart: options.restart, stateDir: options.stateDir, run: options.run, fetch: fetchFn, now });
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

/** The guard hook's command line: this same program, run by the same Node, with the loop's rules file. */
export function hookCommandLine(nodePath: string, scriptPath: string, rulesFile: string): string {
  return [nodePath, scriptPath, 'loop-hook', '--rules', rulesFile].map(shellQuote).join(' ');
}
