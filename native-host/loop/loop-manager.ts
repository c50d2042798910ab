import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { LoopEvent, LoopSnapshot } from '../../shared/protocol/loop-protocol';
import type { Logger } from '../log/logger';
import { LOOP_FILE, parseLoopConfig, resolveRepo } from './load-loop-config';
import type { LoopState } from './loop-state';
import type { PreparedLoop } from './prepare-loop';
import { createCommandRunner } from './run-command';
import { researchModelFromSettings } from './research-model';
import { savedLoops } from './saved-loops';
import { defaultLoopStateDir } from './state-store';
import type { FormFiller } from './trigger-form';

export interface LoopManagerDeps {
  /** The host's own script, which also serves as the guard hook (`deputy loop-hook`). */
  entry: string;
  /** Default: DEPUTY_STATE_DIR, else the host's state folder. */
  stateDir?: string;
  log: Logger;
  /** Registers every child (check, fixer, git) with the host, so a host shutdown ends them. */
  track?: (child: ChildProcess) => void;
  /** Fills a web form trigger in the browser the host is connected to. */
  fillForm?: FormFiller;
}

interface RunningLoop {
  state: LoopState;
  stateFile: string;
  controller: AbortController;
  running: boolean;
  done: Promise<void>;
}

export interface LoopManager {
  start(params: { config: unknown; resume: boolean; restart?: boolean; approve?: boolean; provider?: unknown }, emit: (event: LoopEvent) => void): Promise<LoopSnapshot>;
  status(loopId?: string): LoopSnapshot[];
  stop(loopId: string): Promise<LoopSnapshot>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function snapshot(loop: RunningLoop): LoopSnapshot {
  const { state } = loop;
  return {
    loopId: state.loopId,
    repo: state.repo,
    running: loop.running,
    iteration: state.iteration,
    step: state.step,
    costUsd: state.costUsd,
    startedAt: state.startedAt,
    stateFile: loop.stateFile,
    ...(state.outcome ? { outcome: state.outcome } : {}),
    ...(state.reason ? { reason: state.reason } : {}),
  };
}

/**
 * Fix loops run inside the native host for the side panel: started, watched through `loop.event` and stopped over
 * native messaging. The definition is the same as deputy.loop.json (with "repo"); the repo's own file fills the gaps.
 */
export function createLoopManager(deps: LoopManagerDeps): LoopManager {
  const loops = new Map<string, RunningLoop>();
  const run = createCommandRunner(deps.track);
  const stateDir = deps.stateDir ?? defaultLoopStateDir();

  return {
    async start(params, emit) {
      // The loop's engine (checks, report parsers, the document readers) is loaded by the first loop, not by the host's start.
      const { compareCommandLine, fixerPrograms, startLoop } = await import('./start-loop');
      if (!isObject(params.config) || typeof params.config.repo !== 'string') {
        throw new AppError('invalid_params', 'loop.start needs config.repo: the path of the git checkout to fix');
      }
      const repo = resolveRepo(params.config.repo, process.cwd());
      let config;
      if (!params.resume) {
        const file = join(repo, LOOP_FILE);
        const fromFile: unknown = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
        config = parseLoopConfig({ ...(isObject(fromFile) ? fromFile : {}), ...params.config, repo }, existsSync(file) ? `${file} and loop.start` : 'loop.start');
      }
      const controller = new AbortController();
      let markPrepared: (prepared: PreparedLoop) => void = () => undefined;
      const prepared = new Promise<PreparedLoop>((resolve) => (markPrepared = resolve));
      const finished = startLoop({
        repo,
        ...(config ? { config } : {}),
        resume: params.resume,
        restart: params.restart === true && !params.resume,
        ...(params.resume && params.approve ? { approve: true } : {}),
        stateDir,
        fixerPrograms: (rulesFile) => fixerPrograms(process.execPath, deps.entry, rulesFile),
        compareCommand: compareCommandLine(process.execPath, deps.entry),
        // The host never reads model keys from its environment: only the model the side panel's settings send.
        researchModel: (spec) => researchModelFromSettings(spec, params.provider),
        run,
        emit,
        signal: controller.signal,
        log: deps.log,
        onPrepared: markPrepared,
        ...(deps.fillForm ? { fillForm: deps.fillForm } : {}),
      });
      // Preparation errors (a dirty tree, a missing claude) are the reply to loop.start; later ones arrive as events.
      const ready = await Promise.race([prepared, finished.then(() => undefined)]);
      if (!ready) throw new AppError('internal', 'The loop ended before it started');
      const loop: RunningLoop = { state: ready.state, stateFile: ready.paths.stateFile, controller, running: true, done: Promise.resolve() };
      loop.done = finished.then(
        () => {
          loop.running = false;
        },
        (error: unknown) => {
          loop.running = false;
          deps.log.error('loop crashed', { loopId: ready.state.loopId, error: String(error) });
        },
      );
      loops.set(ready.state.loopId, loop);
      return snapshot(loop);
    },
    status(loopId) {
      if (loopId === undefined) {
        // Loops of this host first (live), then those only on disk: run from the CLI or by an earlier host.
        const live = [...loops.values()].map(snapshot);
        return [...live, ...savedLoops(stateDir).filter((saved) => !loops.has(saved.loopId))];
      }
      const loop = loops.get(loopId);
      if (!loop) throw new AppError('not_found', `No loop ${loopId} in this host; loop.status without an id lists them`);
      return [snapshot(loop)];
    },
    async stop(loopId) {
      const loop = loops.get(loopId);
      if (!loop) throw new AppError('not_found', `No loop ${loopId} in this host; loop.status lists the running ones`);
      loop.controller.abort();
      await loop.done;
      return snapshot(loop);
    },
  };
}
