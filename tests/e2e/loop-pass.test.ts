import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { buildFixRepo, CHECK_COMMAND, FIX_ADD, FIX_MULTIPLY, type FixRepo } from '../fixtures/repo/fix-repo';
import { startHealthServer, type HealthServer } from '../fixtures/repo/health-server';
import { finished, runLoopCli } from '../fixtures/repo/loop-cli';

const TWO_FIXES = {
  runs: [
    { steps: [{ tool: 'Read' as const, file: 'src/math.mjs' }, FIX_ADD], result: 'Return the sum from add', costUsd: 0.12 },
    { steps: [FIX_MULTIPLY], result: 'Return the product from multiply', costUsd: 0.2 },
  ],
};

describe('deputy loop: a service that passes after two fixes', () => {
  let repo: FixRepo | undefined;
  let health: HealthServer | undefined;
  afterEach(async () => {
    await health?.close();
    repo?.cleanup();
    repo = undefined;
    health = undefined;
  });

  it('fixes, commits and pushes twice, then stops with the check passing and a report', async () => {
    repo = buildFixRepo();
    repo.writeScenario(TWO_FIXES);
    const run = await runLoopCli(repo, ['--check', CHECK_COMMAND, '--max-iterations', '5']);

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(finished(run)?.outcome).toBe('passed');
    const commits = repo.remoteCommits();
    expect(commits).toHaveLength(2);
    expect(repo.pushes()).toHaveLength(2);
    expect(repo.git(['rev-parse', 'HEAD'])).toBe(repo.remoteHead());
    expect(repo.git(['log', '-2', '--format=%s'])).toBe('Fix: Return the product from multiply\nFix: Return the sum from add');
    expect(readFileSync(`${repo.work}/src/math.mjs`, 'utf8')).toContain('a * b');
    expect(repo.git(['status', '--porcelain'])).toBe('');

    const progress = run.events.filter((event) => event.type === 'fixer.progress').map((event) => event.action);
    expect(progress).toEqual(['Read src/math.mjs', 'Edit src/math.mjs', 'Edit src/math.mjs']);
    expect(finished(run)?.costUsd).toBeCloseTo(0.32, 6);

    const report = readFileSync(finished(run)?.reportPath ?? '', 'utf8');
    expect(report).toContain('Outcome: **passed**');
    expect(report).toContain('Fix: Return the sum from add (cost $0.12');
    expect(report).toContain(`Commit: ${commits[0] ?? ''} (pushed)`);
    expect(report).toContain('Diff: 1 file(s), +1 -1');

    const prompts = repo.fixerRuns().filter((entry) => entry.event === 'start').map((entry) => entry.prompt ?? '');
    expect(prompts[0]).toContain('- add - add returned the wrong value');
    expect(prompts[0]).toContain('write CANNOT_FIX.md');
    expect(prompts[1]).toContain('Iteration 1: failing [add, multiply]; fix: "Return the sum from add"; committed');
  });

  it('waits for the deploy health check after each push before checking again, and reads the logs', async () => {
    repo = buildFixRepo({ files: { 'CLAUDE.md': 'Keep math functions pure; no logging.\n' } });
    health = await startHealthServer(repo.remote, repo.initialCommit, 2);
    const deploy = { healthUrl: health.url, timeoutSeconds: 30, backoffStartSeconds: 0.05, backoffMaxSeconds: 0.2 };
    const logs = { command: 'echo "service log: deployed $(git rev-parse --short HEAD)"' };
    repo.writeScenario(TWO_FIXES);
    const run = await runLoopCli(repo, ['--check', CHECK_COMMAND, '--config', writeLoopFile(repo, { deploy, logs })]);

    expect(run.code).toBe(0);
    expect(repo.remoteCommits()).toHaveLength(2);
    const order = run.events
      .filter((event) => event.type === 'push.verified' || (event.type === 'step.finished' && event.step === 'deploy') || event.type === 'check.result')
      .map((event) => (event.type === 'step.finished' ? `deploy:${String(event.ok)}` : event.type));
    expect(order).toEqual(['check.result', 'push.verified', 'deploy:true', 'check.result', 'push.verified', 'deploy:true', 'check.result']);
    // The loop saw each new commit unhealthy while it deployed, and moved on only once it answered 200.
    for (const commit of repo.remoteCommits()) {
      const answers = health.requests.filter((request) => request.deployed === commit).map((request) => request.status);
      expect(answers.slice(0, 3)).toEqual([503, 503, 200]);
    }
    // The service's guidance reaches every prompt; the logs read after a deploy reach the next one.
    const prompts = repo.fixerRuns().filter((entry) => entry.event === 'start').map((entry) => entry.prompt ?? '');
    expect(prompts[0]).toContain("## The service's guidance (CLAUDE.md)\nKeep math functions pure; no logging.");
    expect(prompts[0]).not.toContain('## Service logs');
    expect(prompts[1]).toContain(`## Service logs after the last deploy\n<untrusted_output source="service logs">\nservice log: deployed ${repo.remoteCommits()[0]?.slice(0, 7) ?? ''}`);
  });
});

function writeLoopFile(repo: FixRepo, content: Record<string, unknown>): string {
  // Outside the working tree: a loop file inside it would make the tree dirty.
  const file = `${repo.root}/loop.json`;
  writeFileSync(file, JSON.stringify(content));
  return file;
}
