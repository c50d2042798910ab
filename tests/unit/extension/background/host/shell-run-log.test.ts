import { describe, expect, it } from 'vitest';
import { ShellRunLog, applyShellEvent, newShellRun } from '../../../../../extension/background/host/shell-run-log';
import { createShellUiHandlers } from '../../../../../extension/background/host/shell-ui-handlers';
import { nextShellRun } from '../../../../../extension/ui/use-shell-run';
import { shellResultText, shellStepText } from '../../../../../extension/ui/shell-format';
import { DEFAULT_SETTINGS, SHELL_OUTPUT_TAIL_CHARS, type Settings, type ShellProcess, type ShellRunRecord } from '../../../../../shared/protocol';
import { memoryStore } from '../support/memory-store';

const process = (id: string, status: ShellProcess['status'], extra: Partial<ShellProcess> = {}): ShellProcess => ({
  id,
  command: 'npm run dev',
  cwd: null,
  pty: false,
  status,
  exitCode: null,
  signal: null,
  lost: null,
  startedAt: 1,
  endedAt: null,
  background: true,
  group: 4242,
  outputBytes: 0,
  outputLines: 0,
  unread: false,
  by: 'agent',
  ...extra,
});

function setup() {
  const store = memoryStore();
  const sent: ShellRunRecord[] = [];
  let now = 1000;
  const log = new ShellRunLog({ store, broadcast: (record) => sent.push(record), now: () => (now += 1) });
  return { store, sent, log };
}

describe('the shell run log the side panel reads', () => {
  it('folds the session start, steps, cards, processes, their output and the end into one record', async () => {
    const { log, sent } = setup();
    await log.begin({ sessionId: 's1', sessionDir: '/data/shell/s1', objective: 'start the dev server', target: 'deploy@web1', mode: 'ask' });
    await log.apply({ sessionId: 's1', kind: 'hostkey', id: 'h1', host: 'web1', port: 22, keyType: 'ssh-ed25519', fingerprint: 'SHA256:abc', knownHostsFile: '~/.ssh/known_hosts' });
    expect((await log.current())?.status).toBe('connecting');
    await log.answered('s1', 'h1');
    await log.apply({ sessionId: 's1', kind: 'started', sessionDir: '/data/shell/s1', objective: 'start the dev server', mode: 'ask', target: 'deploy@web1:22', resumed: false });
    await log.apply({ sessionId: 's1', kind: 'connected', description: 'deploy@web1:22 (Linux, bash, user deploy)' });
    await log.apply({ sessionId: 's1', kind: 'approval', id: 'a1', intent: 'Run "npm run dev"', reason: 'Ask first.', classes: ['act'], alwaysAllowPrefix: 'npm run' });
    expect((await log.current())?.approval).toMatchObject({ id: 'a1', alwaysAllowPrefix: 'npm run' });
    await log.apply({ sessionId: 's1', kind: 'process', process: process('p1', 'running') });
    await log.apply({ sessionId: 's1', kind: 'output', processId: 'p1', text: 'ready on :3000\n' });
    await log.apply({ sessionId: 's1', kind: 'trace', record: { type: 'tool', at: 5, step: 0, callId: 'c1', name: 'run', arguments: '{"command":"npm run dev","background":true}', status: 'finished', ok: true, content: 'Started in the background as p1.' } });
    await log.apply({ sessionId: 's1', kind: 'secret', id: 'x1', prompt: 'deploy@web1:22 asks: [sudo] password for deploy:' });
    await log.answered('s1', 'x1');
    await log.apply({ sessionId: 's1', kind: 'finished', status: 'completed', summary: 'It runs as p1.', sessionDir: '/data/shell/s1' });
    const record = await log.current();
    expect(record).toMatchObject({
      sessionId: 's1',
      status: 'completed',
      objective: 'start the dev server',
      target: 'deploy@web1:22',
      description: 'deploy@web1:22 (Linux, bash, user deploy)',
      approval: null,
      secret: null,
      hostKey: null,
      summary: 'It runs as p1.',
    });
    expect(record?.steps.map((s) => [s.tool, s.ok])).toEqual([['run', true]]);
    expect(record?.processes).toEqual([{ ...process('p1', 'running'), tail: 'ready on :3000\n' }]);
    expect(sent.at(-1)).toEqual(record);
  });

  it('keeps only the end of a process\'s output, and only the prompt of a password, never an answer', () => {
    let record = applyShellEvent(undefined, { sessionId: 's', kind: 'process', process: process('p1', 'running') }, 1);
    record = applyShellEvent(record, { sessionId: 's', kind: 'output', processId: 'p1', text: 'x'.repeat(SHELL_OUTPUT_TAIL_CHARS + 500) }, 2);
    expect(record.processes[0]?.tail).toHaveLength(SHELL_OUTPUT_TAIL_CHARS);
    record = applyShellEvent(record, { sessionId: 's', kind: 'secret', id: 'x', prompt: 'Password:' }, 3);
    expect(JSON.stringify(record.secret)).toBe('{"id":"x","prompt":"Password:","askedAt":3}');
  });

  it('marks a session the host dropped as resumable, its running processes as unknown', async () => {
    const { log } = setup();
    await log.apply({ sessionId: 's2', kind: 'started', sessionDir: '/d', objective: 'o', mode: 'act', target: 'this machine', resumed: false });
    await log.apply({ sessionId: 's2', kind: 'process', process: process('p1', 'running') });
    await log.hostStatus({ state: 'disconnected', message: 'The host exited', updatedAt: 1 });
    expect(await log.current()).toMatchObject({ status: 'failed', resumable: true, processes: [{ id: 'p1', status: 'unknown' }] });
  });

  it('shows the newest version of a session and a later session, never an older one', () => {
    const shown = { ...newShellRun('a', 100), updatedAt: 200 };
    expect(nextShellRun(shown, { ...shown, updatedAt: 150 })).toBe(shown);
    const later = newShellRun('b', 500);
    expect(nextShellRun(shown, later)).toBe(later);
  });
});

describe('shell steps in the panel', () => {
  it('writes each step as a command line or a short action', () => {
    expect(shellStepText({ tool: 'run', arguments: '{"command":"git log --oneline","pty":true,"cwd":"/srv/app"}' })).toBe('$ git log --oneline  (pty, in /srv/app)');
    expect(shellStepText({ tool: 'wait_for_output', arguments: '{"id":"p2","pattern":"ready"}' })).toBe('wait_for_output p2 /ready/');
    expect(shellStepText({ tool: 'search_history', arguments: '{"query":"error"}' })).toBe('search "error"');
    expect(shellStepText({ tool: 'run', arguments: 'not json' })).toBe('run not json');
    expect(shellResultText('Exit code 1.\n<untrusted_output process="p1">\nboom\n</untrusted_output>')).toBe('Exit code 1.\nboom');
  });
});

describe('the panel\'s shell methods in the background', () => {
  it('send the saved model to the host, never the one the panel sent, and remember the new session', async () => {
    const { log } = setup();
    const calls: [string, unknown][] = [];
    const settings: Settings = { ...DEFAULT_SETTINGS, provider: { preset: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-saved', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 2 } };
    const handlers = createShellUiHandlers({
      host: {
        call: ((method: string, params: unknown) => {
          calls.push([method, params]);
          return Promise.resolve(method === 'shell.run' ? { sessionId: 's9', sessionDir: '/d/s9' } : { accepted: true });
        }) as never,
      },
      settings: { get: () => Promise.resolve(settings) },
      log,
    });
    await handlers['shell.run']({ objective: 'check disk space', target: { kind: 'ssh', destination: 'ops@db1' }, mode: 'act', provider: { preset: 'openai', apiKey: 'from-the-page' } });
    expect(calls[0]).toEqual(['shell.run', { objective: 'check disk space', target: { kind: 'ssh', destination: 'ops@db1' }, mode: 'act', provider: settings.provider }]);
    expect(await log.current()).toMatchObject({ sessionId: 's9', objective: 'check disk space', target: 'ops@db1', mode: 'act', status: 'connecting' });
    const none = createShellUiHandlers({ host: { call: (() => Promise.resolve({})) as never }, settings: { get: () => Promise.resolve(DEFAULT_SETTINGS) }, log });
    await expect(none['shell.run']({ objective: 'x', target: { kind: 'local' }, mode: 'ask', provider: null })).rejects.toThrow(/Choose a model provider in Settings first/);
  });
});
