import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoopEvent, LoopSnapshot } from '../../shared/protocol/loop-protocol';
import { fakeClaudePath } from '../fixtures/fake-claude/build-fake-claude';
import { buildFixRepo, CHECK_COMMAND, FIX_ADD, FIX_MULTIPLY, type FixRepo, NO_DEPLOY_WAIT } from '../fixtures/repo/fix-repo';
import { HostClient, type HostEvent } from '../fixtures/repo/host-client';
import { finished, runLoopCli } from '../fixtures/repo/loop-cli';

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const loopEvent = (event: HostEvent): LoopEvent | undefined => (event.event === 'loop.event' ? (event.data as LoopEvent) : undefined);

describe('fix loop over native messaging: loop.start, loop.event, loop.status, loop.stop', () => {
  let repo: FixRepo | undefined;
  let host: HostClient | undefined;
  afterEach(async () => {
    await host?.close();
    repo?.cleanup();
    host = undefined;
  });

  const startHost = (fixture: FixRepo, env: Record<string, string> = {}): HostClient =>
    new HostClient({
      DEPUTY_STATE_DIR: fixture.stateDir,
      DEPUTY_LOG_FILE: `${fixture.root}/host.log`,
      FAKE_CLAUDE_SCENARIO: fixture.scenarioFile,
      FAKE_CLAUDE_LOG: fixture.claudeLog,
      ...env,
    });

  it('runs a loop to a pass and streams the same events as the CLI', async () => {
    repo = buildFixRepo(NO_DEPLOY_WAIT);
    repo.writeScenario({ runs: [{ steps: [FIX_ADD], result: 'Fix add' }, { steps: [FIX_MULTIPLY], result: 'Fix multiply' }] });
    host = startHost(repo);
    const config = { repo: repo.work, check: CHECK_COMMAND, fixer: { claudePath: fakeClaudePath() } };
    const started = await host.call('loop.start', { config });
    expect(started.ok).toBe(true);
    const snapshot = started.result as LoopSnapshot;
    expect(snapshot).toMatchObject({ repo: repo.work, running: true, iteration: 1, step: 'check' });

    const end = loopEvent(await host.nextEvent((event) => loopEvent(event)?.type === 'loop.finished'));
    expect(end).toMatchObject({ type: 'loop.finished', outcome: 'passed', loopId: snapshot.loopId });
    const types = host.events.map((event) => loopEvent(event)?.type);
    expect(types.filter((type) => type === 'push.verified')).toHaveLength(2);
    expect(types).toContain('fixer.progress');
    expect(repo.remoteCommits()).toHaveLength(2);

    const status = await host.call('loop.status', {});
    expect(status.result).toMatchObject({ loops: [{ loopId: snapshot.loopId, running: false, outcome: 'passed' }] });
  });

  it('answers loop.start with a clear error when the tree is dirty, and with invalid_params for a bad definition', async () => {
    repo = buildFixRepo(NO_DEPLOY_WAIT);
    writeFileSync(`${repo.work}/scratch.txt`, 'unsaved\n');
    host = startHost(repo);
    const dirty = await host.call('loop.start', { config: { repo: repo.work, check: CHECK_COMMAND, fixer: { claudePath: fakeClaudePath() } } });
    expect(dirty.ok).toBe(false);
    expect(dirty.error?.code).toBe('bad_request');
    expect(dirty.error?.message).toContain('has uncommitted changes (scratch.txt)');
    const bad = await host.call('loop.start', { config: { check: CHECK_COMMAND } });
    expect(bad.error).toMatchObject({ code: 'invalid_params', message: 'loop.start needs config.repo: the path of the git checkout to fix' });
    const unknown = await host.call('loop.stop', { loopId: 'nope' });
    expect(unknown.error?.code).toBe('not_found');
  });

  it('loop.stop ends a running fixer, rolls back its edits, and the CLI resumes the loop', async () => {
    repo = buildFixRepo(NO_DEPLOY_WAIT);
    repo.writeScenario({ runs: [{ steps: [FIX_ADD, FIX_MULTIPLY], result: 'Fix both' }], delayMs: 1500 });
    host = startHost(repo);
    const started = await host.call('loop.start', { config: { repo: repo.work, check: CHECK_COMMAND, fixer: { claudePath: fakeClaudePath() } } });
    const { loopId } = started.result as LoopSnapshot;
    await host.nextEvent((event) => loopEvent(event)?.type === 'fixer.progress');
    const second = await host.call('loop.start', { config: { repo: repo.work, check: CHECK_COMMAND, fixer: { claudePath: fakeClaudePath() } } });
    expect(second.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('already running on this repository') as unknown });

    const stopped = await host.call('loop.stop', { loopId });
    expect(stopped.result).toMatchObject({ loopId, running: false, outcome: 'stopped', step: 'fix' });
    expect(repo.git(['status', '--porcelain'])).toBe('');
    expect(repo.pushes()).toHaveLength(0);

    const resumed = await runLoopCli(repo, ['--resume'], { FAKE_CLAUDE_DELAY_MS: '0' });
    expect(finished(resumed)?.outcome).toBe('passed');
    expect(repo.remoteCommits()).toHaveLength(1);
  });

  it('a host that shuts down mid-fix ends the fixer, and the loop resumes from the CLI', async () => {
    repo = buildFixRepo(NO_DEPLOY_WAIT);
    repo.writeScenario({ runs: [{ steps: [FIX_ADD, FIX_MULTIPLY], result: 'Fix both' }], delayMs: 1500 });
    const closing = startHost(repo);
    await closing.call('loop.start', { config: { repo: repo.work, check: CHECK_COMMAND, fixer: { claudePath: fakeClaudePath() } } });
    await closing.nextEvent((event) => loopEvent(event)?.type === 'fixer.progress');
    await closing.close();
    const started = repo.fixerRuns().filter((entry) => entry.event === 'start');
    expect(started).toHaveLength(1);
    expect(isAlive(started[0]?.pid ?? 0)).toBe(false);

    const resumed = await runLoopCli(repo, ['--resume'], { FAKE_CLAUDE_DELAY_MS: '0' });
    expect(finished(resumed)?.outcome).toBe('passed');
    expect(repo.remoteCommits()).toHaveLength(1);
    expect(repo.fixerRuns().filter((entry) => entry.event === 'finish')).toHaveLength(1);
  });

  it('lists loops the CLI ran, from their saved state', async () => {
    repo = buildFixRepo(NO_DEPLOY_WAIT);
    repo.writeScenario({ runs: [{ steps: [FIX_ADD, FIX_MULTIPLY], result: 'Fix both' }] });
    const cli = await runLoopCli(repo, ['--check', CHECK_COMMAND]);
    expect(finished(cli)?.outcome).toBe('passed');
    host = startHost(repo);
    const status = await host.call('loop.status', {});
    expect(status.result).toMatchObject({ loops: [{ loopId: finished(cli)?.loopId, repo: repo.work, running: false, outcome: 'passed', iteration: 2 }] });
  });
});
