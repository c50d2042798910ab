import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLoopConfig } from '../../../../native-host/loop/load-loop-config';
import type { LoopState } from '../../../../native-host/loop/loop-state';
import { processStartTime } from '../../../../native-host/loop/process-identity';
import { acquireLock, loadState, loopPaths, saveState, setAside, writeFileAtomic } from '../../../../native-host/loop/state-store';
import { LoopConfig } from '../../../../shared/protocol/loop-protocol';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deputy-state-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const state = (): LoopState => ({
  version: 1,
  loopId: 'loop-1',
  repo: '/srv/app',
  branch: 'main',
  config: LoopConfig.parse({ repo: '/srv/app', check: 'npm test' }),
  startedAt: 1,
  updatedAt: 1,
  activeMs: 0,
  iteration: 2,
  step: 'push',
  history: [{ iteration: 1, startCommit: 'abc', failures: [], interruptedRuns: 0, commit: 'def' }],
  pushedCommits: ['def'],
  costUsd: 0.5,
});

describe('state store', () => {
  it('round-trips a state through an atomic write that leaves no temp file', () => {
    const file = join(dir, 'loops', 'x', 'state.json');
    saveState(file, state());
    expect(loadState(file, 'restart')).toEqual(state());
    expect(readdirSync(join(dir, 'loops', 'x'))).toEqual(['state.json']);
    writeFileAtomic(file, 'replaced');
    expect(readFileSync(file, 'utf8')).toBe('replaced');
  });

  it('returns nothing for a missing file and a clear error, touching nothing, for a damaged one', () => {
    const file = join(dir, 'state.json');
    expect(loadState(file, 'deputy loop --restart')).toBeUndefined();
    writeFileSync(file, '{"version":1,');
    expect(() => loadState(file, 'deputy loop --restart')).toThrow(/is corrupt .*It was left as it is; to start a new loop run deputy loop --restart/);
    writeFileSync(file, JSON.stringify({ ...state(), step: 'dance' }));
    expect(() => loadState(file, 'deputy loop --restart')).toThrow(/is not a valid loop state \(step: /);
    setAside(file, 'corrupt');
    expect(existsSync(`${file}.corrupt`)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('names one folder per repository', () => {
    const a = loopPaths('/state', '/srv/app');
    expect(a.stateFile).toMatch(/^\/state\/loops\/app-[0-9a-f]{10}\/state\.json$/);
    expect(loopPaths('/state', '/other/app').dir).not.toBe(a.dir);
  });

  it('lets one loop at a time hold a repo, and takes over a lock whose process is gone', () => {
    const lock = join(dir, 'lock');
    writeFileSync(lock, String(process.ppid));
    expect(() => acquireLock(lock)).toThrow(/Another loop \(pid \d+\) is running on this repository.*Lock: /);
    // The parent's pid with another start time is a later process that got the same pid: the lock is stale.
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, startTime: 'linux:1' }));
    acquireLock(lock)();
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, startTime: processStartTime(process.ppid) }));
    expect(() => acquireLock(lock)).toThrow(`Lock: ${lock}`);
    writeFileSync(lock, '999999999');
    const release = acquireLock(lock);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toEqual({ pid: process.pid, startTime: processStartTime(process.pid) });
    expect(() => acquireLock(lock)).toThrow(/already running on this repository in this process/);
    release();
    expect(existsSync(lock)).toBe(false);
  });
});

describe('loadLoopConfig', () => {
  it('fills defaults and lets flags override deputy.loop.json', () => {
    mkdirSync(join(dir, 'repo'));
    writeFileSync(join(dir, 'repo', 'deputy.loop.json'), JSON.stringify({ check: { command: 'npm test', format: 'vitest' }, budgets: { maxIterations: 3 }, protectedPaths: ['migrations/**'] }));
    const config = loadLoopConfig({ repo: 'repo', maxCost: 2, protect: ['schema.sql'], claudePrefix: ['wsl', '--'] }, dir);
    expect(config.repo).toBe(join(dir, 'repo'));
    expect(config.check).toEqual({ command: 'npm test', format: 'vitest', timeoutSeconds: 600 });
    expect(config.budgets).toEqual({ maxIterations: 3, maxCostUsd: 2, maxWallMinutes: 240 });
    expect(config.protectedPaths).toEqual(['migrations/**', 'schema.sql']);
    expect(config.fixer).toMatchObject({ kind: 'claude', claudePath: 'claude', commandPrefix: ['wsl', '--'], timeoutSeconds: 600, permissionMode: 'acceptEdits' });
    expect(loadLoopConfig({ repo: 'repo', check: 'make check' }, dir).check?.command).toBe('make check');
  });

  it('explains what is wrong', () => {
    mkdirSync(join(dir, 'repo'));
    expect(() => loadLoopConfig({ repo: 'missing', check: 'x' }, dir)).toThrow(/does not exist: pass --repo/);
    expect(() => loadLoopConfig({ repo: 'repo' }, dir)).toThrow(/No check: pass --check .*, or --output-template ref.pptx/);
    expect(() => loadLoopConfig({ repo: 'repo', check: 'x', healthUrl: 'not a url' }, dir)).toThrow(/The loop definition in the flags is invalid: deploy/);
    expect(() => loadLoopConfig({ repo: 'repo', check: 'x', startFrom: 'output' }, dir)).toThrow(/startFrom "output" needs an "output" section/);
    writeFileSync(join(dir, 'repo', 'deputy.loop.json'), '[1, 2]');
    expect(() => loadLoopConfig({ repo: 'repo' }, dir)).toThrow(/must hold one JSON object/);
    writeFileSync(join(dir, 'repo', 'deputy.loop.json'), JSON.stringify({ check: 'x', fixer: { kind: 'command' } }));
    expect(() => loadLoopConfig({ repo: 'repo' }, dir)).toThrow(/fixer kind "command" without fixer.command/);
    writeFileSync(join(dir, 'repo', 'deputy.loop.json'), JSON.stringify({ check: 'x', chek: 'typo' }));
    expect(() => loadLoopConfig({ repo: 'repo' }, dir)).toThrow(/chek/);
  });
});
