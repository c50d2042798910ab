import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loopPaths } from '../../native-host/loop/state-store';
import type { LoopEvent } from '../../shared/protocol/loop-protocol';
import { buildFixRepo, CHECK_COMMAND, FIX_ADD, FIX_MULTIPLY, type FixRepo } from '../fixtures/repo/fix-repo';
import { startHealthServer, type HealthServer } from '../fixtures/repo/health-server';
import { finished, runLoopCli, startLoopCli } from '../fixtures/repo/loop-cli';
// A killed fixer whose parent was killed too can linger unreaped as a zombie; the product's check counts it as gone.
import { isAlive } from '../../native-host/loop/kill-tree';

/** Where the first run is killed: the first event of the first iteration that matches. */
const KILL_POINTS: Array<{ name: string; when: (event: LoopEvent) => boolean }> = [
  { name: 'trigger', when: (event) => event.type === 'step.started' && event.step === 'trigger' },
  { name: 'check', when: (event) => event.type === 'step.started' && event.step === 'check' },
  { name: 'fix (fixer running)', when: (event) => event.type === 'fixer.progress' },
  { name: 'fix (fixer finished)', when: (event) => event.type === 'fixer.finished' },
  { name: 'validate', when: (event) => event.type === 'step.started' && event.step === 'validate' },
  { name: 'commit', when: (event) => event.type === 'step.started' && event.step === 'commit' },
  { name: 'commit (made)', when: (event) => event.type === 'commit.created' },
  { name: 'push', when: (event) => event.type === 'step.started' && event.step === 'push' },
  { name: 'push (verified)', when: (event) => event.type === 'push.verified' },
  { name: 'deploy', when: (event) => event.type === 'step.started' && event.step === 'deploy' },
  { name: 'logs', when: (event) => event.type === 'step.started' && event.step === 'logs' },
];

describe('deputy loop: kill -9 at every step, then --resume', () => {
  let repo: FixRepo | undefined;
  let health: HealthServer | undefined;
  afterEach(async () => {
    await health?.close();
    repo?.cleanup();
  });

  it.each(KILL_POINTS)('killed at $name, resumes without a duplicate commit, push or fixer run', async ({ when }) => {
    repo = buildFixRepo();
    health = await startHealthServer(repo.remote, repo.initialCommit, 0);
    const loopFile = `${repo.root}/loop.json`;
    writeFileSync(
      loopFile,
      JSON.stringify({
        check: CHECK_COMMAND,
        trigger: { command: 'node -e "process.exit(0)"' },
        deploy: { healthUrl: health.url, timeoutSeconds: 30, backoffStartSeconds: 0.05, backoffMaxSeconds: 0.1 },
        logs: { command: 'git log -1 --format=%s' },
      }),
    );
    repo.writeScenario({ runs: [{ steps: [FIX_ADD], result: 'Fix add', costUsd: 0.1 }, { steps: [FIX_MULTIPLY], result: 'Fix multiply', costUsd: 0.1 }], delayMs: 300 });

    let killed = false;
    const first = await startLoopCli(repo, ['--config', loopFile], {
      onEvent: (event, child) => {
        if (!killed && event.iteration === 1 && when(event)) {
          killed = true;
          child.kill('SIGKILL');
        }
      },
    }).done;
    expect(killed).toBe(true);
    expect(first.signal).toBe('SIGKILL');

    const resumed = await runLoopCli(repo, ['--resume']);
    expect(resumed.stderr).toBe('');
    expect(finished(resumed)?.outcome).toBe('passed');
    expect(resumed.code).toBe(0);
    expect(resumed.events[0]).toMatchObject({ type: 'loop.started', resumed: true });

    // Exactly one commit and one push per fix, whatever the point of the crash.
    expect(repo.remoteCommits()).toHaveLength(2);
    expect(repo.pushes()).toHaveLength(2);
    expect(repo.git(['log', '--format=%s', `${repo.initialCommit}..HEAD`])).toBe('Fix: Fix multiply\nFix: Fix add');
    expect(repo.git(['rev-parse', 'HEAD'])).toBe(repo.remoteHead());
    expect(repo.git(['status', '--porcelain'])).toBe('');
    // Every fixer run that finished was needed once; a run cut short by the kill is not repeated as a finished one.
    const runs = repo.fixerRuns();
    expect(runs.filter((entry) => entry.event === 'finish').map((entry) => entry.run)).toEqual([0, 1]);
    for (const start of runs.filter((entry) => entry.event === 'start')) expect(isAlive(start.pid)).toBe(false);
  });

  it('killed after the fixer printed its result but before it exited, keeps that paid run instead of repeating it', async () => {
    repo = buildFixRepo();
    repo.writeScenario({ runs: [{ steps: [FIX_ADD], result: 'Fix add', costUsd: 0.4, lingerMs: 20_000 }, { steps: [FIX_MULTIPLY], result: 'Fix multiply', costUsd: 0.1 }] });
    const { stateFile } = loopPaths(repo.stateDir, realpathSync(repo.work));
    const running = startLoopCli(repo, ['--check', CHECK_COMMAND]);
    // The state file is written atomically, so reading it never sees half a write.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const saved = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as { pendingFixer?: { result?: unknown } }) : undefined;
        if (saved?.pendingFixer?.result) {
          clearInterval(timer);
          running.child.kill('SIGKILL');
          resolve();
        }
      }, 20);
    });
    await running.done;

    const resumed = await runLoopCli(repo, ['--resume']);
    expect(finished(resumed)).toMatchObject({ outcome: 'passed', costUsd: 0.5 });
    const starts = repo.fixerRuns().filter((entry) => entry.event === 'start');
    expect(starts.map((entry) => entry.run)).toEqual([0, 1]);
    for (const start of starts) expect(isAlive(start.pid)).toBe(false);
    expect(repo.git(['log', '--format=%s', `${repo.initialCommit}..main`], repo.remote)).toBe('Fix: Fix multiply\nFix: Fix add');
  });

  it('refuses --resume when nothing was started, and says how to start', async () => {
    repo = buildFixRepo();
    const run = await runLoopCli(repo, ['--resume']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('There is no loop to resume for');
    expect(run.stderr).toContain('start one with deputy loop --repo');
  });
});
