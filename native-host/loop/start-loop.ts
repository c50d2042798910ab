import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LoopConfig, LoopEvent } from '../../shared/protocol/loop-protocol';
import type { Logger } from '../log/logger';
import { mailEnv, mailSourceFactory } from '../mail/mail-settings';
import { currentPathEnv } from '../paths';
import { LOOP_FILE } from './load-loop-config';
import type { FixerPrograms } from './fixer-settings';
import type { LoopPlugins, MailSourceFactory } from './loop-context';
import { runLoop } from './loop-engine';
import { createStepTable } from './loop-steps';
import type { LoopState } from './loop-state';
import type { CommandRunner } from './run-command';
import { prepareLoop, type PreparedLoop, type ResumeChanges } from './prepare-loop';
import type { ResearchModel } from './research-model';
import { researchEscalation } from './research-step';
import { shellQuote } from './shell-quote';
import type { FormFiller } from './trigger-form';

export interface StartLoopOptions {
  repo: string;
  /** Required to start a loop; ignored on resume, which keeps the definition saved in the state. */
  config?: LoopConfig;
  resume: boolean;
  restart: boolean;
  stateDir: string;
  /** Deputy's guard (given the loop's rules file) and redaction programs for the fixer's Claude Code. */
  fixerPrograms: (rulesFile: string) => FixerPrograms;
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
  /** `deputy compare` as a shell command, which the fixer may run in document mode. */
  compareCommand?: string;
  /** The model of the research step when stuck, for the loop's research settings (the key is never in the state). */
  researchModel?: (spec: LoopConfig['research']) => ResearchModel;
  /** Fills a web form trigger in a browser with the extension; without it such a trigger fails with what to do. */
  fillForm?: FormFiller;
  /** Opens a mailbox the job mails its output to; default: IMAP or Gmail with secrets from the environment. */
  mailSource?: MailSourceFactory;
  /** Where trigger headers read secrets from; default: this process's environment. */
  env?: Record<string, string | undefined>;
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
    const { research } = prepared.state.config;
    const escalate = options.plugins?.escalate ?? (research.enabled && options.researchModel ? researchEscalation(options.researchModel(research)) : undefined);
    return await runLoop(
      prepared.state,
      {
        run: options.run,
        fetch: fetchFn,
        now,
        sleep: options.sleep ?? abortableSleep,
        emit: options.emit,
        paths: prepared.paths,
        fixerPrograms: options.fixerPrograms(prepared.paths.rulesFile),
        ...(options.compareCommand ? { compareCommand: options.compareCommand } : {}),
        signal: options.signal,
        log: options.log,
        env: options.env ?? process.env,
        ...(options.fillForm ? { fillForm: options.fillForm } : {}),
        mailSource: options.mailSource ?? mailSourceFactory(mailEnv(currentPathEnv(), join(prepared.state.repo, LOOP_FILE))),
      },
      createStepTable({ ...options.plugins, ...(escalate ? { escalate } : {}) }),
      prepared.resumed,
    );
  } finally {
    prepared.release();
  }
}

/**
 * The guard hook and the redaction, run by the same Node: the small files built beside the host
 * (dist-host/loop-hook.mjs, dist-host/loop-redact.mjs), or the host's own hidden commands where they are missing.
 */
export function fixerPrograms(nodePath: string, scriptPath: string, rulesFile: string): FixerPrograms {
  const beside = (file: string): string | undefined => {
    const path = join(dirname(scriptPath), file);
    return existsSync(path) ? path : undefined;
  };
  const hook = beside('loop-hook.mjs');
  const redact = beside('loop-redact.mjs');
  return {
    guard: { command: nodePath, args: [...(hook ? [hook] : [scriptPath, 'loop-hook']), '--rules', rulesFile] },
    redact: { command: nodePath, args: redact ? [redact] : [scriptPath, 'loop-redact'] },
  };
}

/** `deputy compare` run by the same Node and script, for the fixer in document mode. */
export function compareCommandLine(nodePath: string, scriptPath: string): string {
  return `${[nodePath, scriptPath].map(shellQuote).join(' ')} compare`;
}
