import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loopPaths } from '../../native-host/loop/state-store';
import { buildFixRepo, CHECK_COMMAND, FIX_ADD, FIX_MULTIPLY, type FixRepo } from '../fixtures/repo/fix-repo';
import { finished, killLoopAt, runLoopCli } from '../fixtures/repo/loop-cli';

/** A loopback port that nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('deputy loop: bad input gets a clear error and loses nothing', () => {
  let repo: FixRepo | undefined;
  afterEach(() => repo?.cleanup());

  it('a missing repository folder', async () => {
    repo = buildFixRepo();
    const run = await runLoopCli(repo, ['--repo', `${repo.root}/no-such-repo`, '--check', CHECK_COMMAND]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The repository folder ${repo.root}/no-such-repo does not exist: pass --repo with the path of a git checkout`);
  });

  it('a folder that is not a git repository', async () => {
    repo = buildFixRepo();
    mkdirSync(`${repo.root}/plain`);
    const run = await runLoopCli(repo, ['--repo', `${repo.root}/plain`, '--check', CHECK_COMMAND]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is not a git repository');
  });

  it('a dirty working tree is refused before anything runs', async () => {
    repo = buildFixRepo();
    writeFileSync(`${repo.work}/src/math.mjs`, '// work in progress\n');
    writeFileSync(`${repo.work}/notes.txt`, 'draft\n');
    repo.writeScenario({ runs: [{ steps: [FIX_ADD] }] });
    const run = await runLoopCli(repo, ['--check', CHECK_COMMAND]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('has uncommitted changes (src/math.mjs, notes.txt): commit or stash them before the loop starts');
    // The user's work is untouched and no fixer ran.
    expect(readFileSync(`${repo.work}/src/math.mjs`, 'utf8')).toBe('// work in progress\n');
    expect(repo.fixerRuns()).toHaveLength(0);
  });

  it('a missing claude binary', async () => {
    repo = buildFixRepo();
    const run = await runLoopCli(repo, ['--check', CHECK_COMMAND, '--claude-path', `${repo.root}/bin/claude`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Could not start the Claude Code CLI at "${repo.root}/bin/claude" (ENOENT)`);
    expect(run.stderr).toContain('pass --claude-path with the full path');
  });

  it('an unreachable health URL', async () => {
    repo = buildFixRepo();
    const url = `http://127.0.0.1:${await closedPort()}/health`;
    const run = await runLoopCli(repo, ['--check', CHECK_COMMAND, '--health-url', url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The deploy health URL ${url} cannot be reached (ECONNREFUSED): check the URL and that the service is running`);
  });

  it('a loop file that is not valid JSON, and one with a wrong setting', async () => {
    repo = buildFixRepo();
    writeFileSync(`${repo.root}/broken.json`, '{"check": "npm test",');
    const broken = await runLoopCli(repo, ['--config', `${repo.root}/broken.json`]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${repo.root}/broken.json is not valid JSON`);
    writeFileSync(`${repo.root}/wrong.json`, JSON.stringify({ check: 'npm test', budgets: { maxIterations: -2 } }));
    const wrong = await runLoopCli(repo, ['--config', `${repo.root}/wrong.json`]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('budgets.maxIterations');
    const noCheck = await runLoopCli(repo, []);
    expect(noCheck.stderr).toContain('No check: pass --check "npm test"');
  });

  it('a corrupt state file: --resume explains, nothing is deleted, --restart starts over', async () => {
    repo = buildFixRepo();
    repo.writeScenario({ runs: [{ steps: [FIX_ADD, FIX_MULTIPLY], result: 'Fix both' }] });
    const { stateFile } = loopPaths(repo.stateDir, realpathSync(repo.work));
    mkdirSync(stateFile.replace(/state\.json$/, ''), { recursive: true });
    writeFileSync(stateFile, '{"version": 1, "loopId": "abc", "iter');

    const resumed = await runLoopCli(repo, ['--resume']);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain(`The loop state file ${stateFile} is corrupt`);
    expect(resumed.stderr).toContain('--restart');
    expect(readFileSync(stateFile, 'utf8')).toBe('{"version": 1, "loopId": "abc", "iter');

    const restarted = await runLoopCli(repo, ['--check', CHECK_COMMAND, '--restart']);
    expect(finished(restarted)?.outcome).toBe('passed');
    expect(readFileSync(`${stateFile}.corrupt`, 'utf8')).toBe('{"version": 1, "loopId": "abc", "iter');
  });

  it('an unfinished loop is not silently replaced by a new one, and an ended one is not resumed', async () => {
    repo = buildFixRepo();
    repo.writeScenario({ runs: [{ steps: [FIX_ADD, FIX_MULTIPLY], result: 'Fix both' }] });
    const { killed } = await killLoopAt(repo, ['--check', CHECK_COMMAND], (event) => event.type === 'step.started' && event.step === 'fix');
    expect(killed).toBe(true);

    const fresh = await runLoopCli(repo, ['--check', CHECK_COMMAND]);
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toContain('An unfinished loop exists for');
    expect(fresh.stderr).toContain('continue it with --resume, or discard it with --restart');

    const status = await runLoopCli(repo, ['--status']);
    expect(JSON.parse(status.stdout)).toMatchObject({ repo: realpathSync(repo.work), running: false, iteration: 1, step: 'fix' });

    expect(finished(await runLoopCli(repo, ['--resume']))?.outcome).toBe('passed');
    const again = await runLoopCli(repo, ['--resume']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already ended (passed');
  });

  it('usage mistakes in flags', async () => {
    repo = buildFixRepo();
    const bad = await runLoopCli(repo, ['--check', CHECK_COMMAND, '--max-iterations', 'lots']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("option '--max-iterations <n>' argument 'lots' is invalid. expected a whole number above 0");
    const both = await runLoopCli(repo, ['--resume', '--restart']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--resume and --restart cannot be used together');
    // --resume keeps the loop's definition: a flag that would change it is refused, not silently ignored.
    const redefine = await runLoopCli(repo, ['--resume', '--check', 'npm test', '--max-cost', '5']);
    expect(redefine.code).toBe(2);
    expect(redefine.stderr).toContain('--check cannot change a loop on --resume');
  });

  it('--resume takes new budgets', async () => {
    repo = buildFixRepo();
    repo.writeScenario({ runs: [{ steps: [{ tool: 'Read', file: 'src/math.mjs' }], result: 'Looked', costUsd: 0.05 }, { steps: [FIX_ADD], result: 'Fix add' }, { steps: [FIX_MULTIPLY], result: 'Fix multiply' }] });
    const first = await runLoopCli(repo, ['--check', CHECK_COMMAND, '--max-iterations', '1']);
    expect(finished(first)?.outcome).toBe('budget');
    // A loop that ended at its budget is over; a stopped one can go on with more.
    const { killed } = await killLoopAt(repo, ['--check', CHECK_COMMAND, '--restart', '--max-iterations', '1'], (event) => event.type === 'step.started' && event.step === 'check');
    expect(killed).toBe(true);
    // Two more fixes are needed: with the saved budget of 1 the loop would stop after the first.
    const resumed = await runLoopCli(repo, ['--resume', '--max-iterations', '3', '--max-cost', '5']);
    expect(finished(resumed)?.outcome).toBe('passed');
    expect(repo.pushes()).toHaveLength(2);
  });
});
