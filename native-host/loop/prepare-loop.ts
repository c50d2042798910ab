import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import picomatch from 'picomatch';
import { AppError } from '../../shared/errors';
import type { LoopConfig } from '../../shared/protocol/loop-protocol';
import { preflightDocument } from './document-check';
import { preflightFixer } from './fixer-preflight';
import { createGit } from './git-ops';
import { awaitingApproval, firstStep, isResumable, type LoopState } from './loop-state';
import type { CommandRunner } from './run-command';
import { keptOut } from './step-support';
import { acquireLock, loadState, loopPaths, saveState, setAside, type LoopPaths } from './state-store';

export interface PrepareOptions {
  repo: string;
  /** The definition of a new loop; a resumed loop keeps the one saved in its state. */
  config?: LoopConfig;
  resume: boolean;
  /** Discard (set aside) an unfinished or damaged state and start over. */
  restart: boolean;
  stateDir: string;
  run: CommandRunner;
  fetch: typeof fetch;
  now: () => number;
  /** On resume: settings the user may change for the rest of the loop (budgets, fixer limits). */
  resumeChanges?: ResumeChanges;
  /** On resume: push the fix that waits for approval. */
  approve?: boolean;
}

/** What `--resume` may change in a saved loop; everything else is its definition and needs --restart. */
export interface ResumeChanges {
  budgets?: Partial<LoopConfig['budgets']>;
  fixer?: Partial<Pick<LoopConfig['fixer'], 'timeoutSeconds' | 'maxTurns' | 'model' | 'claudePath' | 'commandPrefix'>>;
}

export interface PreparedLoop {
  state: LoopState;
  paths: LoopPaths;
  resumed: boolean;
  release: () => void;
}

/** Steps after which the fixer's uncommitted edits are expected in the working tree. */
const DIRTY_STEPS = new Set(['validate', 'commit']);
/** Steps in which the job (its trigger and output) or the check may be writing files into the repo. */
const JOB_STEPS = new Set(['trigger', 'output', 'check']);

/**
 * Everything checked before the loop touches anything: the repo, its branch and remote, the working tree, the fixer
 * binary, the health URL, and an existing state. Each failure says what to do, and nothing has changed yet.
 */
export async function prepareLoop(options: PrepareOptions): Promise<PreparedLoop> {
  const repo = realpathSync(options.repo);
  const git = createGit(repo, options.run);
  if (!(await git.isRepo())) throw new AppError('bad_request', `${repo} is not a git repository: pass --repo with the folder of a git checkout (run git init there first if it is new)`);
  const paths = loopPaths(options.stateDir, repo);
  const restartHint = `deputy loop --repo ${repo} --restart`;
  if (options.restart) {
    try {
      loadState(paths.stateFile, restartHint);
    } catch {
      setAside(paths.stateFile, 'corrupt');
    }
  }
  const existing = loadState(paths.stateFile, restartHint);
  const release = acquireLock(paths.lockFile);
  try {
    if (options.resume) {
      if (!existing) throw new AppError('not_found', `There is no loop to resume for ${repo}: start one with deputy loop --repo ${repo} --check "<command>"`);
      if (!isResumable(existing)) throw new AppError('bad_request', `The last loop on ${repo} already ended (${existing.outcome ?? ''}: ${existing.reason ?? ''}); start a new one with ${restartHint}`);
      applyResumeChanges(existing, options);
      const kept = keptOut(existing);
      const artifacts = new Set(kept.paths);
      const outputs = picomatch(kept.globs, { dot: true });
      let dirty = (await git.changedPaths()).filter((path) => !artifacts.has(path) && !outputs(path));
      if (JOB_STEPS.has(existing.step) && dirty.length > 0) {
        // Killed while the job or the check ran: the new untracked files are their output; changed tracked files are someone's work.
        const untracked: string[] = [];
        for (const path of dirty) if ((await git.showFile('HEAD', path)) === undefined) untracked.push(path);
        existing.checkArtifacts = [...new Set([...(existing.checkArtifacts ?? []), ...untracked])].sort();
        dirty = dirty.filter((path) => !untracked.includes(path));
      }
      const dirtyExpected = DIRTY_STEPS.has(existing.step) || (existing.step === 'fix' && existing.pendingFixer !== undefined);
      if (dirty.length > 0 && !dirtyExpected) throw dirtyError(repo, dirty, 'before resuming');
      await preflightFixer(existing.config.fixer, repo, options.run);
      saveState(paths.stateFile, existing);
      return { state: existing, paths, resumed: true, release };
    }
    if (!options.config) throw new AppError('bad_request', `No loop definition to start on ${repo}: pass --check "<command>" or add deputy.loop.json`);
    const config: LoopConfig = { ...options.config, repo };
    if (existing && isResumable(existing) && !options.restart) {
      throw new AppError('bad_request', `An unfinished loop exists for ${repo} (iteration ${existing.iteration}, step ${existing.step}): continue it with --resume, or discard it with --restart`);
    }
    if (existing) setAside(paths.stateFile, `ended-${existing.loopId}`);
    const dirty = await git.dirtyFiles();
    if (dirty.length > 0) throw dirtyError(repo, dirty, 'before the loop starts');
    const current = await git.currentBranch();
    const branch = config.branch ?? current;
    if (branch !== current) throw new AppError('bad_request', `${repo} is on branch ${current}, but the loop is set to push ${branch}: check out ${branch} first`);
    if ((await git.remoteUrl(config.remote)) === undefined) {
      throw new AppError('bad_request', `${repo} has no remote "${config.remote}": add it (git remote add ${config.remote} <url>) or set "remote" in the loop definition`);
    }
    await preflightFixer(config.fixer, repo, options.run);
    if (config.document) await preflightDocument(repo, config.document);
    if (config.deploy.healthUrl !== undefined) await preflightHealth(config.deploy.healthUrl, options.fetch);
    const now = options.now();
    const state: LoopState = {
      version: 1,
      loopId: randomUUID(),
      repo,
      branch,
      config,
      startedAt: now,
      updatedAt: now,
      activeMs: 0,
      iteration: 1,
      step: firstStep({ config }, 1),
      history: [],
      pushedCommits: [],
      costUsd: 0,
    };
    saveState(paths.stateFile, state);
    return { state, paths, resumed: false, release };
  } catch (error) {
    release();
    throw error;
  }
}

/** Applies what the user changed on --resume: new budgets and fixer limits, and an approval of a waiting fix. */
function applyResumeChanges(state: LoopState, options: PrepareOptions): void {
  const { budgets, fixer } = options.resumeChanges ?? {};
  if (budgets) state.config.budgets = { ...state.config.budgets, ...budgets };
  if (fixer) state.config.fixer = { ...state.config.fixer, ...fixer };
  const waiting = awaitingApproval(state);
  if (waiting && !options.approve) {
    throw new AppError('bad_request', `The last fix waits for your approval (${(waiting.needsApproval ?? []).join('; ')}): review it with git show HEAD, then run deputy loop --resume --approve to push it, or --restart to drop the loop`);
  }
  if (waiting && options.approve) waiting.approved = true;
}

function dirtyError(repo: string, files: string[], when: string): AppError {
  const list = files.slice(0, 5).join(', ') + (files.length > 5 ? `, and ${files.length - 5} more` : '');
  return new AppError(
    'bad_request',
    `${repo} has uncommitted changes (${list}): commit or stash them ${when}. The loop commits everything the fixer changes, so it must start from a clean working tree`,
  );
}

/** A health URL that cannot be reached at all is almost always a typo or a stopped service; say so before starting. */
async function preflightHealth(url: string, fetchFn: typeof fetch): Promise<void> {
  try {
    const response = await fetchFn(url, { signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error instanceof Error ? error.message : String(error));
    throw new AppError('unavailable', `The deploy health URL ${url} cannot be reached (${code}): check the URL and that the service is running; the loop has not started`);
  }
}
