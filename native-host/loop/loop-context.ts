import type { DocumentVerdict, FailureItem, LoopEvent, LoopOutcome, LoopStep } from '../../shared/protocol/loop-protocol';
import type { Logger } from '../log/logger';
import type { FixerPrograms } from './fixer-settings';
import type { Git } from './git-ops';
import type { LoopState } from './loop-state';
import type { MailboxConfig } from '../../shared/protocol/mail-protocol';
import type { MailSource } from '../mail/mail-source';
import type { CommandRunner } from './run-command';
import type { LoopPaths } from './state-store';
import type { FormFiller } from './trigger-form';

/**
 * The shapes the loop's steps and its engine share. They live here, apart from both, so a step never imports the
 * engine and the engine never imports a step: the engine receives its step table as a parameter.
 */
export interface LoopDeps {
  run: CommandRunner;
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  emit: (event: LoopEvent) => void;
  paths: LoopPaths;
  /** Deputy's guard and redaction programs, which Claude Code runs as hooks and as the shell prefix. */
  fixerPrograms: FixerPrograms;
  /** `deputy compare` as a shell command (quoted node and script), which the fixer may run in document mode. */
  compareCommand?: string;
  /** Aborted when the user asks the loop to stop (Ctrl-C, `loop.stop`). */
  signal: AbortSignal;
  log: Logger;
  /** The environment trigger headers read their secrets from. */
  env: Record<string, string | undefined>;
  /** Fills a web form in a browser with the extension; absent where none can be reached. */
  fillForm?: FormFiller;
  /** Opens the mailbox a job mails its output to. */
  mailSource: MailSourceFactory;
}

/** Opens a mailbox for the loop: IMAP or Gmail, with secrets read where the settings name them. */
export type MailSourceFactory = (config: MailboxConfig) => MailSource;

export type EventBody = LoopEvent extends infer E ? (E extends LoopEvent ? Omit<E, 'loopId' | 'at' | 'iteration'> : never) : never;

export interface LoopContext {
  state: LoopState;
  deps: LoopDeps;
  git: Git;
  save(): void;
  /** Sends an event; `iteration` names the iteration it belongs to when the state has already moved on. */
  emit(event: EventBody, iteration?: number): void;
  finish(outcome: LoopOutcome, reason: string): void;
}

/** One step of the loop: it moves `state.step` on and returns a short detail for the step.finished event. */
export type StepHandler = (context: LoopContext) => Promise<string | undefined>;

/** Every step the engine can run, by name. */
export type StepTable = Record<LoopStep, StepHandler>;

/**
 * What a check yields: whether it passed, and findings with a severity, a location (a file, a test id, a slide or a
 * cell) and a message. A check that judges an output document against a template returns the same shape as a test
 * command, so the fixer prompt, stuck detection, the report and the side panel need nothing new for it.
 */
export interface CheckOutcome {
  passed: boolean;
  /** The format the findings were read from (tap, junit, vitest, ..., or the judge's own name). */
  format: string;
  findings: FailureItem[];
  /** The findings as the fixer should read them, when the check formats them itself (grouped by severity, with notes). */
  fixerText?: string;
  /** What the judge said about an output document: counts by severity, hollowness, the iteration's report. */
  document?: DocumentVerdict;
  /** Iterating cannot help (a hollow output): the loop stops for a person with this reason instead of running the fixer. */
  halt?: string;
}

/** Runs the loop's check once; `outputFile` is the job's output for this iteration, when there is one. */
export type CheckRunner = (context: LoopContext, outputFile: string | undefined) => Promise<CheckOutcome>;

/**
 * What an escalation did: `guidance` for the next fixer prompt (a root-cause analysis, say), or why it added nothing
 * (`skipped`: no model configured, the model failed), which the stuck report repeats.
 */
export type EscalationResult = { guidance: string } | { skipped: string };

/**
 * Called when the same failures came back STUCK_AFTER times, once per set of failures. Its guidance goes into one more
 * fixer run; when it skipped, the loop stops as stuck.
 */
export type Escalation = (context: LoopContext) => Promise<EscalationResult>;

/** What a caller can plug into the default step table. */
export interface LoopPlugins {
  check?: CheckRunner;
  escalate?: Escalation;
}
