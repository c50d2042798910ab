import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { terminalPrompts } from '../../../../../native-host/cli/terminal-prompts';
import { shellSettings } from '../../../../../native-host/shell/agent/shell-settings';

const request = { taskId: 't', step: 0, callId: 'c', tool: 'run', intent: 'Run "git status"', classes: ['act' as const], reason: 'Ask first.', url: 'local:' };

describe('deputy shell flags', () => {
  it('runs on this machine in ask mode with the issue\'s budgets unless told otherwise', () => {
    const settings = shellSettings(['find', 'the', 'bug'], {}, { OPENAI_API_KEY: 'sk-test' });
    expect(settings).toMatchObject({ objective: 'find the bug', target: { kind: 'local' }, mode: 'ask', approve: 'ask', maxSteps: 20, waitMs: 10_000, memoryChars: 24_000 });
    expect(settings.provider).toMatchObject({ preset: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-test', vision: false });
    expect(settings.validator).toEqual(settings.provider);
  });

  it('takes an SSH destination, the mode, a validator model and the budgets', () => {
    const settings = shellSettings(['x'], { ssh: 'deploy@web1:2222', mode: 'act', approve: 'none', validatorModel: 'gpt-4.1', steps: '40', timeout: '30', memoryChars: '5000' }, { OPENAI_API_KEY: 'k' });
    expect(settings).toMatchObject({ target: { kind: 'ssh', destination: 'deploy@web1:2222' }, mode: 'act', approve: 'none', maxSteps: 40, waitMs: 30_000, memoryChars: 5000 });
    expect(settings.validator.model).toBe('gpt-4.1');
    expect(settings.maxCostUsd).toBeUndefined();
    expect(shellSettings([], { resume: 'latest', maxCost: '0.25' }, { OPENAI_API_KEY: 'k' }).maxCostUsd).toBe(0.25);
    expect(() => shellSettings(['x'], { maxCost: '0' }, { OPENAI_API_KEY: 'k' })).toThrow(/--max-cost takes dollars above 0/);
  });

  it('says what is wrong with bad flags', () => {
    expect(() => shellSettings([], {}, { OPENAI_API_KEY: 'k' })).toThrow(/Say what to reach/);
    expect(() => shellSettings(['x'], { resume: 'latest' }, { OPENAI_API_KEY: 'k' })).toThrow(/leave the objective out/);
    expect(shellSettings([], { resume: 'latest' }, { OPENAI_API_KEY: 'k' }).resume).toBe('latest');
    expect(() => shellSettings(['x'], { ssh: 'web1:port' }, { OPENAI_API_KEY: 'k' })).toThrow(/is not a port/);
    expect(() => shellSettings(['x'], { timeout: '0' }, { OPENAI_API_KEY: 'k' })).toThrow('--timeout must be a whole number from 1 to 600, not "0".');
    expect(() => shellSettings(['x'], {}, {})).toThrow(/No API key for openai/);
  });
});

describe('terminal prompts', () => {
  const terminal = (lines: string) => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (data: Buffer) => (shown += data.toString('utf8')));
    input.end(lines);
    return { terminal: { input, output }, shown: () => shown };
  };

  it('answers several questions from piped lines in order, and a closed input says no', async () => {
    const { terminal: io, shown } = terminal('yes\nn\nmy answer\n');
    const prompts = terminalPrompts(io, 'ask');
    expect(await prompts.confirm('Trust this host?')).toBe(true);
    expect(await prompts.approver(request)).toEqual({ approved: false, note: 'n' });
    expect(await prompts.askUser('Which port?')).toBe('my answer');
    expect(await prompts.approver(request)).toEqual({ approved: false });
    expect(await prompts.secret('Password for ada@web1')).toBeNull();
    prompts.close();
    expect(shown()).toContain('Trust this host? [y/N] yes\n');
    expect(shown()).not.toContain('my answer\n    your answer');
  });

  it('offers to always allow a prefix, and passes on the choice', async () => {
    const { terminal: io, shown } = terminal('a\n');
    const prompts = terminalPrompts(io, 'ask');
    expect(await prompts.approver({ ...request, alwaysAllowPrefix: 'git status' })).toEqual({ approved: true, alwaysAllowPrefix: 'git status' });
    prompts.close();
    expect(shown()).toContain('approve? [y/N, or a to always allow commands starting with "git status"]');
  });

  it('answers approvals at once with --approve, but never a host key or a password', async () => {
    const { terminal: io } = terminal('s3cret\n');
    const prompts = terminalPrompts(io, 'all');
    expect(await prompts.approver(request)).toEqual({ approved: true });
    expect(await prompts.secret('Password')).toBe('s3cret');
    prompts.close();
  });
});
