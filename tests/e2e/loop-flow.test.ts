import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../shared/protocol/loop-protocol';
import { buildFixRepo, CHECK_COMMAND, FIX_ADD, FIX_MULTIPLY, type FixRepo } from '../fixtures/repo/fix-repo';
import { finished, runLoopCli, startLoopCli } from '../fixtures/repo/loop-cli';

const steps = (events: LoopEvent[], iteration: number): string[] =>
  events.filter((event) => event.type === 'step.started' && event.iteration === iteration).map((event) => (event.type === 'step.started' ? event.step : ''));

/** The service's job: computes a report from the code into ../out; the check compares it with what it must say. */
const TRIGGER = `node --input-type=module -e "import { add } from './src/math.mjs'; import { writeFileSync } from 'node:fs'; writeFileSync('../out/report-' + Date.now() + '.json', JSON.stringify({ sum: add(2, 3) }));"`;
const OUTPUT_CHECK = `node -e "const r = JSON.parse(require('fs').readFileSync(process.env.DEPUTY_OUTPUT, 'utf8')); console.log('report {output}: sum is ' + r.sum); process.exit(r.sum === 5 ? 0 : 1)"`;

describe('deputy loop: trigger, output, startFrom, a remote that moved, Ctrl-C', () => {
  let repo: FixRepo | undefined;
  afterEach(() => repo?.cleanup());

  it('triggers the job, waits for its output file, and checks that file', async () => {
    repo = buildFixRepo();
    mkdirSync(`${repo.root}/out`);
    const loopFile = `${repo.root}/loop.json`;
    writeFileSync(loopFile, JSON.stringify({ check: OUTPUT_CHECK, trigger: { command: TRIGGER }, output: { folder: '../out', pattern: 'report-*.json', pollSeconds: 0.05, timeoutSeconds: 30 } }));
    repo.writeScenario({ runs: [{ steps: [FIX_ADD], result: 'Fix add' }] });
    const run = await runLoopCli(repo, ['--config', loopFile]);

    expect(finished(run)?.outcome).toBe('passed');
    expect(steps(run.events, 1)).toEqual(['trigger', 'output', 'check', 'fix', 'validate', 'commit', 'push']);
    expect(steps(run.events, 2)).toEqual(['trigger', 'output', 'check']);
    expect(readdirSync(`${repo.root}/out`)).toHaveLength(2);
    const firstCheck = run.events.find((event) => event.type === 'check.result');
    expect(firstCheck?.type === 'check.result' && firstCheck.failures[0]?.message).toMatch(/report .*\/out\/report-\d+\.json: sum is -1/);
  });

  it('starts from the check with an existing output file on the first iteration only', async () => {
    repo = buildFixRepo();
    mkdirSync(`${repo.root}/out`);
    writeFileSync(`${repo.root}/out/existing.json`, JSON.stringify({ sum: 4 }));
    const loopFile = `${repo.root}/loop.json`;
    writeFileSync(loopFile, JSON.stringify({ check: OUTPUT_CHECK, trigger: { command: TRIGGER }, output: { folder: '../out', pattern: 'report-*.json', pollSeconds: 0.05 } }));
    repo.writeScenario({ runs: [{ steps: [FIX_ADD], result: 'Fix add' }] });
    const run = await runLoopCli(repo, ['--config', loopFile, '--start-from', 'check', '--output-file', `${repo.root}/out/existing.json`]);

    expect(finished(run)?.outcome).toBe('passed');
    expect(steps(run.events, 1)[0]).toBe('check');
    expect(steps(run.events, 2)).toEqual(['trigger', 'output', 'check']);
    const firstCheck = run.events.find((event) => event.type === 'check.result');
    expect(firstCheck?.type === 'check.result' && firstCheck.failures[0]?.message).toContain('existing.json: sum is 4');
  });

  it('rebases once onto a remote that moved during the fix, and pushes without force', async () => {
    repo = buildFixRepo();
    const other = `${repo.root}/other`;
    repo.git(['clone', '--quiet', repo.remote, other], repo.root);
    repo.git(['config', 'user.email', 'colleague@service.test'], other);
    repo.git(['config', 'user.name', 'Colleague'], other);
    const colleague = `cd ${other} && echo "Release notes" > NOTES.md && git add NOTES.md && git commit -qm "Add release notes" && git push -q origin main`;
    // The colleague's push happens outside the fixer (bypassHooks): the fixer itself may not push.
    repo.writeScenario({ runs: [{ steps: [{ tool: 'Bash', command: colleague, bypassHooks: true }, FIX_ADD, FIX_MULTIPLY], result: 'Fix both' }] });
    const run = await runLoopCli(repo, ['--check', CHECK_COMMAND]);

    expect(finished(run)?.outcome).toBe('passed');
    expect(run.events.find((event) => event.type === 'push.verified')).toMatchObject({ rebased: true });
    expect(repo.git(['log', '--format=%s', 'main'], repo.remote).split('\n').slice(0, 3)).toEqual(['Fix: Fix both', 'Add release notes', 'Initial service']);
    expect(repo.pushes()).toHaveLength(2);
  });

  it('reports a push that cannot be rebased, and keeps the commit for --resume', async () => {
    repo = buildFixRepo();
    const other = `${repo.root}/other`;
    repo.git(['clone', '--quiet', repo.remote, other], repo.root);
    repo.git(['config', 'user.email', 'colleague@service.test'], other);
    repo.git(['config', 'user.name', 'Colleague'], other);
    const conflicting = `cd ${other} && sed -i 's/a - b/b - a/' src/math.mjs && git commit -qam "Swap operands" && git push -q origin main`;
    repo.writeScenario({ runs: [{ steps: [{ tool: 'Bash', command: conflicting, bypassHooks: true }, FIX_ADD], result: 'Fix add' }] });
    const run = await runLoopCli(repo, ['--check', CHECK_COMMAND]);

    expect(run.code).toBe(1);
    expect(finished(run)).toMatchObject({ outcome: 'failed' });
    expect(finished(run)?.reason).toContain('the remote moved and rebasing onto it conflicts');
    expect(repo.git(['log', '-1', '--format=%s'])).toBe('Fix: Fix add');
    expect(repo.git(['log', '-1', '--format=%s', 'main'], repo.remote)).toBe('Swap operands');
  });

  it('stops on Ctrl-C after saving, discarding the running fix, and resumes later', async () => {
    repo = buildFixRepo();
    repo.writeScenario({ runs: [{ steps: [FIX_ADD, FIX_MULTIPLY], result: 'Fix both' }], delayMs: 1500 });
    let interrupted = false;
    const first = await startLoopCli(repo, ['--check', CHECK_COMMAND], {
      onEvent: (event, child) => {
        if (!interrupted && event.type === 'fixer.progress') {
          interrupted = true;
          child.kill('SIGINT');
        }
      },
    }).done;
    expect(first.code).toBe(130);
    expect(finished(first)).toMatchObject({ outcome: 'stopped' });
    expect(first.stderr).toContain('Stopping after saving the loop state');
    expect(repo.git(['status', '--porcelain'])).toBe('');

    const resumed = await runLoopCli(repo, ['--resume'], { FAKE_CLAUDE_DELAY_MS: '0' });
    expect(finished(resumed)?.outcome).toBe('passed');
    expect(repo.remoteCommits()).toHaveLength(1);
    // The interrupted run's Claude session is continued, told that its edits were dropped, and what it used is paid.
    const starts = repo.fixerRuns().filter((entry) => entry.event === 'start') as Array<{ sessionId?: string; prompt?: string; flags?: Record<string, string> }>;
    expect(starts).toHaveLength(2);
    expect(starts[1]?.flags?.['--resume']).toBe(starts[0]?.sessionId);
    expect(starts[1]?.prompt).toContain('Your previous run was interrupted before it finished, and the edits it had made were discarded');
    expect(finished(resumed)?.costUsd).toBeGreaterThan(0.05);
  });
});
