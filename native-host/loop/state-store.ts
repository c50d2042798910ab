import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { AppError, describeZodError } from '../../shared/errors';
import { writeFileAtomic } from '../atomic-file';
import { appPaths, currentPathEnv } from '../paths';
import { isAlive } from './kill-tree';
import { isSameProcess, processStartTime } from './process-identity';
import { LoopState } from './loop-state';

export interface LoopPaths {
  dir: string;
  stateFile: string;
  reportFile: string;
  settingsFile: string;
  rulesFile: string;
  /** The shell prefix the fixer's commands run through (fixer-settings.ts writeFixerShell). */
  shellFile: string;
  lockFile: string;
}

/** Where loop state lives: DEPUTY_STATE_DIR when set (tests, portable setups), else the host's state folder. */
export function defaultLoopStateDir(): string {
  return process.env.DEPUTY_STATE_DIR ?? appPaths(currentPathEnv()).stateDir;
}

/** One folder per repository under the host's state directory, named so a person can tell which repo it is. */
export function loopPaths(stateDir: string, repo: string): LoopPaths {
  const slug = basename(repo).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'repo';
  const hash = createHash('sha256').update(repo).digest('hex').slice(0, 10);
  const dir = join(stateDir, 'loops', `${slug}-${hash}`);
  return {
    dir,
    stateFile: join(dir, 'state.json'),
    reportFile: join(dir, 'report.md'),
    settingsFile: join(dir, 'claude-settings.json'),
    rulesFile: join(dir, 'guard-rules.json'),
    shellFile: join(dir, 'fixer-shell'),
    lockFile: join(dir, 'lock'),
  };
}

export function saveState(file: string, state: LoopState): void {
  writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`);
}

/** Reads the state file: undefined when there is none, a clear error (and nothing touched) when it is damaged. */
export function loadState(file: string, restartHint: string): LoopState | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError('bad_request', `The loop state file ${file} is corrupt (${error instanceof Error ? error.message : String(error)}). It was left as it is; to start a new loop run ${restartHint} (the damaged file is kept as ${file}.corrupt)`);
  }
  const parsed = LoopState.safeParse(json);
  if (!parsed.success) {
    throw new AppError('bad_request', `The loop state file ${file} is not a valid loop state (${describeZodError(parsed.error)}). It was left as it is; to start a new loop run ${restartHint} (the damaged file is kept as ${file}.corrupt)`);
  }
  return parsed.data;
}

/** Moves a state file aside instead of deleting it, so a restart never loses the record of an earlier loop. */
export function setAside(file: string, suffix: string): void {
  if (existsSync(file)) renameSync(file, `${file}.${suffix}`);
}

/** Who holds a loop lock: the pid and, since this version, its start time (older locks hold the pid alone). */
export function readLock(lockFile: string): { pid: number; startTime?: string } | undefined {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8').trim();
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; startTime?: unknown };
    if (typeof parsed === 'object' && parsed !== null && typeof parsed.pid === 'number') {
      return { pid: parsed.pid, ...(typeof parsed.startTime === 'string' ? { startTime: parsed.startTime } : {}) };
    }
  } catch {
    // An older lock: the pid as plain text.
  }
  const pid = Number(text);
  return Number.isInteger(pid) && pid > 0 ? { pid } : undefined;
}

/** Whether the process that wrote the lock is still running (the same process, not a later one with its pid). */
export function lockHeld(lockFile: string): boolean {
  const holder = readLock(lockFile);
  if (!holder) return false;
  return holder.startTime === undefined ? isAlive(holder.pid) : isSameProcess(holder.pid, holder.startTime);
}

/**
 * Makes sure only one loop works on a repo. A lock left by a process that is gone (or whose pid now belongs to another
 * process, told apart by its start time) is taken over; a held one is reported with where it is.
 */
export function acquireLock(lockFile: string): () => void {
  mkdirSync(dirname(lockFile), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockFile, 'wx');
      const startTime = processStartTime(process.pid);
      writeSync(fd, JSON.stringify({ pid: process.pid, ...(startTime ? { startTime } : {}) }));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockFile);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(lockFile);
      // The host runs loops side by side in one process, so its own pid in the lock means a loop of its own.
      if (holder?.pid === process.pid) throw new AppError('forbidden', `A loop is already running on this repository in this process; stop it first (loop.stop). Lock: ${lockFile}`);
      if (holder && lockHeld(lockFile)) {
        throw new AppError('forbidden', `Another loop (pid ${holder.pid}) is running on this repository; stop it first, or wait for it to finish. Lock: ${lockFile} (delete it only if that process is not a Deputy loop)`);
      }
      unlinkSync(lockFile);
    }
  }
  throw new AppError('internal', `Could not take the loop lock ${lockFile}`);
}
