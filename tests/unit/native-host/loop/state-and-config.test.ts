import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLoopConfig } from '../../../../native-host/loop/load-loop-config';
import type { LoopState } from '../../../../native-host/loop/loop-state';
import { processStartTime } from '../../../../native-host/loop/process-identity';
import { writeFileAtomic } from '../../../../native-host/atomic-file';
import { acquireLock, loadState, loopPaths, saveState, setAside } from '../../../../native-host/loop/state-store';
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
  it('builds the trigger from its flags: a form-encoded, JSON or multipart request, or a web form; and the output mailbox from its settings file', () => {
    mkdirSync(join(dir, 'repo'));
    const base = { repo: 'repo', outputTemplate: 'ref.pptx' };
    const form = loadLoopConfig({ ...base, trigger: 'https://svc.test/run', triggerData: ['client=acme', 'region=eu', 'region=us', 'q=a=b'], output: 'out/*.pptx' }, dir);
    expect(form.trigger).toMatchObject({ url: 'https://svc.test/run', method: 'POST', form: { client: 'acme', region: ['eu', 'us'], q: 'a=b' }, idempotent: false });
    const json = loadLoopConfig({ ...base, trigger: 'https://svc.test/run', triggerMethod: 'put', triggerJson: '{"client":"acme"}', output: 'out/*.pptx' }, dir);
    expect(json.trigger).toMatchObject({ method: 'PUT', json: { client: 'acme' } });
    const multipart = loadLoopConfig({ ...base, trigger: 'https://svc.test/run', triggerData: ['client=acme'], triggerFile: ['list=clients.csv'], triggerRetry: true, output: 'out/*.pptx' }, dir);
    expect(multipart.trigger).toMatchObject({ multipart: { client: 'acme', list: { file: join(dir, 'clients.csv') } }, idempotent: true });
    const page = loadLoopConfig({ ...base, triggerPage: 'https://svc.test/request', triggerField: ['Client=acme', 'Include appendix=true'], triggerSubmit: 'Request', triggerConfirm: 'on its way', output: 'out/*.pptx' }, dir);
    expect(page.trigger).toMatchObject({ page: 'https://svc.test/request', fields: { Client: 'acme', 'Include appendix': 'true' }, submit: 'Request', confirm: 'on its way', idempotent: false });

    writeFileSync(join(dir, 'password'), 'secret-pass\n', { mode: 0o600 });
    writeFileSync(join(dir, 'mail.json'), JSON.stringify({ kind: 'imap', host: '127.0.0.1', port: 1143, tls: 'plain', user: 'alice', password: { file: 'password' }, from: ['*@svc.test'] }));
    const mail = loadLoopConfig({ ...base, trigger: 'https://svc.test/run', outputMail: 'mail.json' }, dir);
    // The settings are read in with their files made absolute; the password stays a reference, never its value.
    expect(mail.output).toMatchObject({ mail: { kind: 'imap', host: '127.0.0.1', user: 'alice', password: { file: join(dir, 'password') } } });
    expect(JSON.stringify(mail)).not.toContain('secret-pass');
  });

  it('says which trigger flags do not go together', () => {
    mkdirSync(join(dir, 'repo'));
    const base = { repo: 'repo', check: 'npm test' };
    expect(() => loadLoopConfig({ ...base, trigger: 'make report', triggerData: ['a=b'] }, dir)).toThrow('--trigger-method, --trigger-data, --trigger-json and --trigger-file shape an HTTP request');
    expect(() => loadLoopConfig({ ...base, trigger: 'https://svc.test/run', triggerField: ['Client=acme'] }, dir)).toThrow('describe a web form: give its page with --trigger-page');
    expect(() => loadLoopConfig({ ...base, trigger: 'https://svc.test/run', triggerPage: 'https://svc.test/request' }, dir)).toThrow('--trigger and --trigger-page are two ways to start the job: give one');
    expect(() => loadLoopConfig({ ...base, trigger: 'make report', triggerRetry: true }, dir)).toThrow('--trigger-retry marks an HTTP request or a web form');
    expect(() => loadLoopConfig({ ...base, trigger: 'https://svc.test/run', triggerData: ['client'] }, dir)).toThrow('--trigger-data takes name=value');
    expect(() => loadLoopConfig({ ...base, trigger: 'https://svc.test/run', triggerJson: '{client' }, dir)).toThrow('--trigger-json is not valid JSON');
    expect(() => loadLoopConfig({ ...base, trigger: 'https://svc.test/run', triggerMethod: 'GET', triggerData: ['a=b'] }, dir)).toThrow('a GET request has no body');
    expect(() => loadLoopConfig({ ...base, triggerPage: 'https://svc.test/request' }, dir)).toThrow('--trigger-page needs --trigger-confirm');
    // In deputy.loop.json the same is said of the shape the trigger comes closest to, not as "Invalid input".
    writeFileSync(join(dir, 'repo', 'deputy.loop.json'), JSON.stringify({ check: 'npm test', trigger: { page: 'https://svc.test/request', fields: { Client: 'acme' } } }));
    expect(() => loadLoopConfig({ repo: 'repo' }, dir)).toThrow(/is invalid: trigger\.confirm: Invalid input: expected string, received undefined$/);
    writeFileSync(join(dir, 'repo', 'deputy.loop.json'), JSON.stringify({ check: 'npm test', trigger: { url: 'https://svc.test/run', form: { a: 'b' }, json: {} } }));
    expect(() => loadLoopConfig({ repo: 'repo' }, dir)).toThrow('give one body: body, json, form or multipart');
    rmSync(join(dir, 'repo', 'deputy.loop.json'));
    expect(() => loadLoopConfig({ ...base, output: 'out/*.pptx', outputMail: true }, dir)).toThrow('--output and --output-mail name two places for the same output');
    writeFileSync(join(dir, 'inline.json'), JSON.stringify({ kind: 'imap', host: '127.0.0.1', tls: 'plain', user: 'alice', password: 'hunter2-inline', from: ['*'] }));
    const inline = (() => {
      try {
        loadLoopConfig({ ...base, outputMail: 'inline.json' }, dir);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(inline).toMatch(/password/i);
    expect(inline).not.toContain('hunter2-inline');
  });
});
