import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellTaskEvent } from '../../shared/protocol';
import { startHost, type HostClient } from '../fixtures/desktop/host-client';
import { call, scriptShellModel } from '../fixtures/fake-provider/scripted-shell-model';
import { sshdMissingReason, startSshd, type SshServer } from '../fixtures/ssh/sshd-server';
import { ensureBuiltHost } from './host-harness';
import { useE2e } from './support/e2e-fixture';
import { waitUntil } from './support/wait-until';

const skipReason = sshdMissingReason();
if (skipReason) console.warn(`shell-host tests skipped: ${skipReason}`);

const shellEvents = (host: HostClient, sessionId: string): ShellTaskEvent[] =>
  host.events.filter((e) => e.event === 'shell.task').map((e) => e.data as ShellTaskEvent).filter((e) => e.sessionId === sessionId);

async function until<T>(what: string, probe: () => T | undefined, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every line of a session's log, parsed: it must stay valid JSONL whatever the commands printed. */
async function logOf(dir: string): Promise<Record<string, unknown>[]> {
  return (await readFile(join(dir, 'log.jsonl'), 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.skipIf(skipReason !== undefined)('shell tasks over native messaging (the built host, a real sshd, a scripted model)', () => {
  const e2e = useE2e({ browser: false, model: true, work: true });
  let server: SshServer;
  let env: NodeJS.ProcessEnv;
  const provider = (): unknown => ({ preset: 'custom', baseUrl: e2e.fake.openaiBaseUrl, model: 'fake-model', apiKey: 'test-key', maxRetries: 0, timeoutMs: 30_000 });

  beforeAll(async () => {
    ensureBuiltHost();
    server = await startSshd();
    const scratch = e2e.work;
    const home = join(scratch, 'home');
    await mkdir(join(home, '.ssh'), { recursive: true, mode: 0o700 });
    await copyFile(join(server.home, '.ssh', 'id_ed25519'), join(home, '.ssh', 'id_ed25519'));
    await writeFile(join(home, '.ssh', 'known_hosts'), `${server.knownHostsLine}\n`);
    env = { ...process.env, HOME: home, DEPUTY_SHELL_DIR: join(scratch, 'sessions'), DEPUTY_SHELL_RULES: join(scratch, 'rules.json'), DEPUTY_LOG_FILE: join(scratch, 'host.log') };
    delete env.SSH_AUTH_SOCK;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('survives 50 MB of output, binary output and a command that never ends: bounded results, a valid log, and the host keeps answering', async () => {
    const host = startHost(env);
    try {
      const model = scriptShellModel(e2e.fake, {
        agent: [
          call('run', { command: "head -c 50000000 /dev/zero | tr '\\0' 'x' | fold -w 100" }),
          call('run', { command: 'head -c 3000000 /dev/urandom' }),
          call('set_timeout', { seconds: 2 }),
          call('run', { command: 'tail -f /dev/null' }),
          call('report', { success: true, summary: 'Printed a lot; tail still runs as p3.' }),
        ],
      });
      const started = await host.rpc.call('shell.run', { objective: 'stress the output', target: { kind: 'ssh', destination: server.destination }, mode: 'act', provider: provider(), waitSeconds: 600 });
      // The 50 MB command must finish in the foreground (the assertions read its exit code): the longest foreground wait
      // the host allows, so a busy machine only makes it slower, never sends it to the background.
      const end = await until('the end', () => shellEvents(host, started.sessionId).find((e) => e.kind === 'finished'), 540_000);
      expect(end).toMatchObject({ status: 'completed' });
      expect((await host.rpc.call('ping', {})).time).toBeGreaterThan(0);

      const big = model.agent[1]?.text ?? '';
      expect(big).toContain('Exit code 0.');
      expect(big).toMatch(/\[… 49\d{4} lines \(48\.2 MB\) not shown: they are in the session log, where search_history finds them …\]/);
      expect(big.length).toBeLessThan(60_000);
      expect(model.agent[2]?.text).toContain('[binary output: 2.9 MB not shown]');
      expect(model.agent[4]?.text).toContain('Still running after 2 s: it goes on in the background as p3.');

      // Live output went out in bounded batches, never one event per line or one huge message.
      const outputs = shellEvents(host, started.sessionId).filter((e) => e.kind === 'output');
      expect(outputs.length).toBeLessThan(400);
      expect(Math.max(...outputs.map((e) => (e.kind === 'output' ? e.text.length : 0)))).toBeLessThan(17_000);

      // The never-ending command is still there, and the user's Kill ends it.
      const { sessions } = await host.rpc.call('shell.sessions', {});
      expect(sessions.find((s) => s.sessionId === started.sessionId)).toMatchObject({ open: true, status: 'completed' });
      const killed = await host.rpc.call('shell.kill', { sessionId: started.sessionId, processId: 'p3' });
      expect(killed.process).toMatchObject({ id: 'p3', status: 'killed' });
      await expect(host.rpc.call('shell.kill', { sessionId: 'no-such-session', processId: 'p1' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(host.rpc.call('shell.run', { objective: '', target: { kind: 'ssh', destination: '' }, provider: provider() } as never)).rejects.toMatchObject({ code: 'invalid_params' });
      const found = await host.rpc.call('shell.search', { sessionId: started.sessionId, query: 'tail -f', regex: false, context: 1, maxResults: 5 });
      expect(found.hits.map((hit) => hit.source)).toEqual(expect.arrayContaining(['p3 $ tail -f /dev/null', 'safety']));

      const log = await logOf(started.sessionDir);
      const printed = log.filter((l) => l.type === 'output' && l.process === 'p1').reduce((sum, l) => sum + String(l.text).length, 0);
      expect(printed).toBe(50_500_000);
      expect(log.find((l) => l.type === 'output' && l.process === 'p2')).toMatchObject({ text: '[binary output: 2.9 MB not shown]\n' });
      expect(log.find((l) => l.type === 'kill')).toMatchObject({ process: 'p3', by: 'user' });
      expect((await host.rpc.call('ping', {})).time).toBeGreaterThan(0);
    } finally {
      await host.close();
    }
  }, 600_000);

  it('resumes a session after the host was killed mid-command, without running that command again', async () => {
    const counter = join(e2e.work, 'counter');
    const first = startHost(env);
    const model = scriptShellModel(e2e.fake, {
      agent: [
        call('run', { command: `sleep 2; echo ran >> ${counter}` }),
        // After the restart: the model reads that the command may or may not have run, and checks.
        call('run', { command: `cat ${counter}` }),
        call('report', { success: true, summary: 'The command ran once.' }),
      ],
    });
    const started = await first.rpc.call('shell.run', { objective: 'append to the counter once', target: { kind: 'local' }, mode: 'act', provider: provider() });
    await until('the command to start', () => shellEvents(first, started.sessionId).find((e) => e.kind === 'process' && e.process.status === 'running'));
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    // The command was in its own process group: it finishes on its own, once.
    await waitUntil('the orphaned command to finish', async () => (await readFile(counter, 'utf8').catch(() => '')) === 'ran\n');

    const second = startHost(env);
    try {
      const { sessions } = await second.rpc.call('shell.sessions', {});
      expect(sessions.find((s) => s.sessionId === started.sessionId)).toMatchObject({ resumable: true, open: false });
      const resumed = await second.rpc.call('shell.resume', { sessionId: started.sessionId, provider: provider() });
      expect(resumed.sessionId).toBe(started.sessionId);
      const end = await until('the resumed end', () => shellEvents(second, started.sessionId).find((e) => e.kind === 'finished'));
      expect(end).toMatchObject({ status: 'completed' });
      expect(shellEvents(second, started.sessionId).find((e) => e.kind === 'started')).toMatchObject({ resumed: true, objective: 'append to the counter once' });
      expect(model.agent.at(-2)?.text).toContain('Deputy was restarted while this action was running, so it may or may not have happened. It was not repeated');
      expect(await readFile(counter, 'utf8')).toBe('ran\n');
      const log = await logOf(started.sessionDir);
      expect(log.filter((l) => l.type === 'command' && String(l.command).startsWith('sleep 2'))).toHaveLength(1);
      expect(log.filter((l) => l.type === 'session').map((l) => l.resumed)).toEqual([false, true]);
      // The process from before the restart is listed as unknown (its output after the crash is gone); the new one is p2.
      const processes = shellEvents(second, started.sessionId).flatMap((e) => (e.kind === 'process' ? [e.process] : []));
      expect(processes.find((p) => p.id === 'p1')).toMatchObject({ status: 'unknown', command: `sleep 2; echo ran >> ${counter}` });
      expect(processes.find((p) => p.id === 'p2')?.command).toBe(`cat ${counter}`);
    } finally {
      await second.close();
    }
    expect((await readdir(join(e2e.work, 'sessions'))).length).toBeGreaterThanOrEqual(2);
  });
});
