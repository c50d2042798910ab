import { AppError } from '../../shared/errors';
import type { CommandRunner } from './run-command';

export interface DiffFile {
  /** A, M, D, R, ... as git prints them; renames are reported as a delete and an add. */
  status: string;
  path: string;
}

export interface DiffSummary {
  files: DiffFile[];
  /** The unified patch, used to look at added and removed lines. */
  patch: string;
  insertions: number;
  deletions: number;
}

/** `retryable`: the push failed for a reason that may pass (the network), not because the histories differ. */
export type PushOutcome = { ok: true; rebased: boolean } | { ok: false; reason: string; retryable: boolean };

const GIT_TIMEOUT_MS = 120_000;

/** What a commit or a diff leaves out: paths by name, and glob patterns (the job's output files). */
export interface Excluded {
  paths: string[];
  globs?: string[];
}

/** Everything in the repository but the excluded paths and patterns, as a git pathspec. */
function pathspec(exclude: Excluded): string[] {
  return ['.', ...exclude.paths.map((path) => `:(exclude,literal)${path}`), ...(exclude.globs ?? []).map((glob) => `:(exclude,glob)${glob}`)];
}

/** The git operations the fix loop needs, on one repository, through the injected command runner. */
export function createGit(repo: string, run: CommandRunner) {
  const git = async (args: string[], allowFail = false): Promise<{ code: number | null; out: string; err: string }> => {
    const result = await run({
      command: 'git',
      args,
      cwd: repo,
      timeoutMs: GIT_TIMEOUT_MS,
      // A pushed commit must never wait on an editor or a credential prompt that nobody will answer.
      env: { GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', LC_ALL: 'C' },
    });
    if (result.spawnError) {
      throw new AppError('unavailable', `Could not run git (${result.spawnError.code ?? result.spawnError.message}): install git and make sure it is on PATH`);
    }
    if (result.exitCode !== 0 && !allowFail) {
      throw new AppError('internal', `git ${args[0] ?? ''} failed in ${repo}: ${(result.stderr || result.stdout).trim().slice(-800)}`);
    }
    return { code: result.exitCode, out: result.stdout, err: result.stderr };
  };

  const self = {
    async isRepo(): Promise<boolean> {
      const result = await git(['rev-parse', '--is-inside-work-tree'], true);
      return result.code === 0 && result.out.trim() === 'true';
    },
    async head(): Promise<string> {
      return (await git(['rev-parse', 'HEAD'])).out.trim();
    },
    async currentBranch(): Promise<string> {
      const result = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], true);
      if (result.code !== 0) throw new AppError('bad_request', `${repo} is on a detached HEAD: check out the branch the loop should push to`);
      return result.out.trim();
    },
    /** Changed, staged and untracked files (ignored files excluded), as `git status --porcelain` lists them. */
    async dirtyFiles(): Promise<string[]> {
      const out = (await git(['status', '--porcelain', '--untracked-files=all'])).out;
      return out.split('\n').filter((line) => line.trim().length > 0).map((line) => line.slice(3));
    },
    async remoteUrl(remote: string): Promise<string | undefined> {
      const result = await git(['remote', 'get-url', remote], true);
      return result.code === 0 ? result.out.trim() : undefined;
    },
    /** Paths that differ from HEAD in the working tree (modified, added, deleted, untracked; not ignored). */
    async changedPaths(): Promise<string[]> {
      const out = (await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'])).out;
      return out
        .split('\0')
        .filter((entry) => entry.length > 3)
        .map((entry) => entry.slice(3));
    },
    /** Puts tracked paths back as they are in HEAD. */
    async restore(paths: string[]): Promise<void> {
      if (paths.length > 0) await git(['checkout', 'HEAD', '--', ...paths]);
    },
    /** A file as it is in `commit`, or undefined when it is not there. */
    async showFile(commit: string, path: string): Promise<string | undefined> {
      const result = await git(['show', `${commit}:${path}`], true);
      return result.code === 0 ? result.out : undefined;
    },
    /**
     * The working tree and index compared with `base`, untracked files included, without touching the index; the
     * `exclude` paths and patterns (files the job and the check write) are left out.
     */
    async diffFrom(base: string, exclude: Excluded = { paths: [] }): Promise<DiffSummary> {
      const scope = pathspec(exclude);
      await git(['add', '--intent-to-add', '--all', '--', ...scope]);
      const nameStatus = (await git(['diff', '--no-renames', '--name-status', base, '--', ...scope])).out;
      const patch = (await git(['diff', '--no-renames', '--no-color', '--unified=0', base, '--', ...scope])).out;
      const stat = (await git(['diff', '--no-renames', '--shortstat', base, '--', ...scope])).out;
      const files = nameStatus
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => {
          const [status = '', ...rest] = line.split('\t');
          return { status: status.charAt(0), path: rest.join('\t') };
        });
      return {
        files,
        patch,
        insertions: Number(/(\d+) insertion/.exec(stat)?.[1] ?? 0),
        deletions: Number(/(\d+) deletion/.exec(stat)?.[1] ?? 0),
      };
    },
    /** Puts the working tree back exactly at `commit`: tracked changes reverted, new files removed, ignored kept. */
    async rollbackTo(commit: string): Promise<void> {
      await git(['reset', '--hard', commit]);
      await git(['clean', '-fd']);
    },
    /** Commits every change but the `exclude` paths and patterns (files the job and the check write), which stay as they are. */
    async commitAll(message: string, exclude: Excluded = { paths: [] }): Promise<string> {
      await git(['reset', '--quiet']);
      await git(['add', '--all', '--', ...pathspec(exclude)]);
      await git(['-c', 'commit.gpgsign=false', 'commit', '--no-verify', '--quiet', '-m', message]);
      return self.head();
    },
    /** Moves the branch back to `commit` keeping the working tree, so commits the fixer made itself are folded into one. */
    async softResetTo(commit: string): Promise<void> {
      await git(['reset', '--soft', commit]);
    },
    async commitMessage(commit: string): Promise<string> {
      return (await git(['log', '-1', '--format=%B', commit])).out;
    },
    /** The commit the remote's branch points at, asked from the remote itself (not a possibly stale tracking ref). */
    async remoteHead(remote: string, branch: string): Promise<string | undefined> {
      const result = await git(['ls-remote', '--heads', remote, `refs/heads/${branch}`], true);
      if (result.code !== 0) throw new AppError('unavailable', `Could not reach remote "${remote}": ${result.err.trim().slice(-400)}; check the remote URL and your network`);
      return result.out.split('\t')[0]?.trim() || undefined;
    },
    /** Pushes without force; when the remote moved, rebases once onto it and retries once. */
    async push(remote: string, branch: string): Promise<PushOutcome> {
      const first = await git(['push', '--porcelain', remote, `HEAD:refs/heads/${branch}`], true);
      if (first.code === 0) return { ok: true, rebased: false };
      const text = `${first.out}\n${first.err}`;
      if (!/rejected|non-fast-forward|fetch first/i.test(text)) return { ok: false, reason: text.trim().slice(-600), retryable: true };
      await git(['fetch', '--quiet', remote, branch]);
      const rebase = await git(['-c', 'commit.gpgsign=false', 'rebase', `${remote}/${branch}`], true);
      if (rebase.code !== 0) {
        await git(['rebase', '--abort'], true);
        return {
          ok: false,
          reason: `the remote moved and rebasing onto it conflicts (${rebase.out.trim().split('\n').slice(-2).join(' ').slice(0, 300)}); rebase onto ${remote}/${branch} yourself, keeping the commit message`,
          retryable: false,
        };
      }
      const second = await git(['push', '--porcelain', remote, `HEAD:refs/heads/${branch}`], true);
      if (second.code === 0) return { ok: true, rebased: true };
      return { ok: false, reason: `push rejected again after one rebase: ${second.err.trim().slice(-400)}`, retryable: false };
    },
    /** A commit's message, file list and patch, for a person (or a model) to read. */
    async commitPatch(commit: string): Promise<string> {
      return (await git(['show', '--no-color', '--stat', '--patch', '--format=commit %H%n%B', commit])).out;
    },
    /** Whether `commit` is an ancestor of (or equal to) `of`. */
    async isAncestor(commit: string, of: string): Promise<boolean> {
      return (await git(['merge-base', '--is-ancestor', commit, of], true)).code === 0;
    },
  };
  return self;
}

export type Git = ReturnType<typeof createGit>;
