import { AppError } from '../../shared/errors';
import type { LoopEvent, LoopOutcome } from '../../shared/protocol/loop-protocol';
import type { Logger } from '../log/logger';
import { createGit, type Git } from './git-ops';
import { currentRecord, type LoopState } from './loop-state';
import { writeReport } from './loop-report';
import type { CommandRunner } from './run-command';
import { saveState, type LoopPaths } from './state-store';
import { stepHandlers } from './loop-steps';

export interface LoopDeps {
  run: CommandRunner;
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  emit: (event: LoopEvent) => void;
  paths: LoopPaths;
  /** The shell command Claude Code runs as the PreToolUse guard hook. */
  hookCommand: string;
  /** Aborted when the user asks the loop to stop (Ctrl-C, `loop.stop`). */
  signal: AbortSignal;
  log: Logger;
}

type EventBody = LoopEvent extends infer E ? (E extends LoopEvent ? Omit<E, 'loopId' | 'at' | 'iteration'> : never) : never;

export interface LoopContext {
  state: LoopState;
  deps: LoopDeps;
  git: Git;
  save(): void;
  /** Sends an event; `iteration` names the iteration it belongs to when the state has already moved on. */
  emit(event: EventBody, iteration?: number): void;
  finish(outcome: LoopOutcome, reason: string): void;
}

/**
 * Runs the loop from the state's current step until it passes, stops or fails. The state is saved after every step
 * (and inside the steps around side effects), so a process killed at any point resumes from the step it was in.
 */
export async function runLoop(state: LoopState, deps: LoopDeps, resumed: boolean): Promise<LoopState> {
  let lastTick = deps.now();
  const context: LoopContext = {
    state,
    deps,
    git: createGit(state.repo, deps.run),
    save: () => {
      const now = deps.now();
      state.activeMs += now - lastTick;
      lastTick = now;
      state.updatedAt = now;
      saveState(deps.paths.stateFile, state);
    },
    emit: (event, iteration) => deps.emit({ ...event, loopId: state.loopId, at: deps.now(), iteration: iteration ?? state.iteration }),
    finish: (outcome, reason) => {
      state.outcome = outcome;
      state.reason = reason;
    },
  };
  delete state.outcome;
  delete state.reason;
  context.emit({ type: 'loop.started', repo: state.repo, branch: state.branch, resumed, step: state.step });

  while (state.outcome === undefined) {
    const step = state.step;
    if (deps.signal.aborted) {
      context.finish('stopped', `Stopped by the user before the ${step} step; run deputy loop --repo ${state.repo} --resume to continue`);
      break;
    }
    const budgetMs = state.config.budgets.maxWallMinutes * 60_000;
    if (state.activeMs >= budgetMs) {
      context.finish('budget', `The time budget of ${state.config.budgets.maxWallMinutes} minutes is used up`);
      break;
    }
    const iteration = state.iteration;
    context.emit({ type: 'step.started', step });
    try {
      const record = currentRecord(state);
      if (record.startCommit === '') record.startCommit = await context.git.head();
      const detail = await stepHandlers[step](context);
      context.save();
      context.emit({ type: 'step.finished', step, ok: true, ...(detail ? { detail } : {}) }, iteration);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (deps.signal.aborted) {
        context.finish('stopped', `Stopped by the user during the ${step} step; run deputy loop --repo ${state.repo} --resume to continue`);
      } else {
        deps.log.warn('step failed', { step, code: error instanceof AppError ? error.code : 'internal' });
        context.finish('failed', `The ${step} step failed: ${message}`);
      }
      context.save();
      context.emit({ type: 'step.finished', step, ok: false, detail: message }, iteration);
    }
  }
  context.save();
  writeReport(deps.paths.reportFile, state);
  context.emit({
    type: 'loop.finished',
    outcome: state.outcome ?? 'failed',
    reason: state.reason ?? '',
    costUsd: state.costUsd,
    reportPath: deps.paths.reportFile,
  });
  return state;
}
