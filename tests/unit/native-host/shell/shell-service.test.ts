import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalTarget, groupAlive } from '../../../../native-host/shell/local-target';
import { SessionLog } from '../../../../native-host/shell/session-log';
import { ShellService, type ShellEvent } from '../../../../native-host/shell/shell-service';

let dir: string;
let log: SessionLog;
let service: ShellService;
const events: ShellEvent[] = [];
const prompts: string[] = [];
let password: string | null = 'hunter2';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'deputy-service-'));
  log = await SessionLog.open(join(dir, 'log.jsonl'), { redact: (text) => text, now: () => Date.now() });
  events.length = 0;
  prompts.length = 0;
  password = 'hunter2';
  service = new ShellService({
    target: createLocalTarget({ cwd: dir, env: process.env }),
    log,
    redact: (text) => text,
    now: () => Date.now(),
    onEvent: (event) => events.push(event),
    onPasswordPrompt: ({ prompt }) => {
      prompts.push(prompt);
      return Promise.resolve(password);
    },
  });
});
afterEach(async () => {
  await service.closeAll();
  await log.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the shell service on this machine', () => {
  it('returns a quick command at once, and moves a slow one to the background with its output so far', async () => {
    const quick = await service.run({ command: 'echo "it\'s $((6*7))"; exit 3', waitMs: 5000 });
    expect(quick.process).toMatchObject({ id: 'p1', status: 'exited', exitCode: 3, background: false });
    expect(quick.output.text).toBe("it's 42\n");
    const slow = await service.run({ command: 'echo started; sleep 30', waitMs: 300 });
    expect(slow.process).toMatchObject({ id: 'p2', status: 'running', background: true });
    expect(slow.output.text).toBe('started\n');
    expect(service.check('p2').output).toMatchObject({ fresh: false });
    expect(events.filter((e) => e.kind === 'process' && e.process.id === 'p2').map((e) => e.kind === 'process' && e.process.background)).toEqual([false, true]);
  });

  it('waits for a pattern in new output, or for the end, or until the time runs out', async () => {
    await service.run({ command: 'for i in 1 2 3; do echo "tick $i"; sleep 0.2; done; echo ready; sleep 0.3', waitMs: 0, background: true });
    const ready = await service.waitForOutput('p1', { pattern: /ready/, timeoutMs: 10_000 });
    expect(ready.reason).toBe('output');
    expect(ready.output.text).toBe('tick 1\ntick 2\ntick 3\nready\n');
    const end = await service.waitForOutput('p1', { timeoutMs: 10_000 });
    expect(end).toMatchObject({ reason: 'exited', process: { status: 'exited', exitCode: 0 } });
    await service.run({ command: 'sleep 30', waitMs: 0, background: true });
    expect((await service.waitForOutput('p2', { timeoutMs: 200 })).reason).toBe('timeout');
    await expect(service.waitForOutput('p9', { timeoutMs: 10 })).rejects.toThrow('There is no process p9; known: p1, p2.');
  });

  it('kills a process and every child it started, and can still end a group known only from before a restart', async () => {
    const started = await service.run({ command: 'sleep 300 & sleep 301 & echo children; wait', waitMs: 300 });
    const group = started.process.group ?? 0;
    expect(groupAlive(group)).toBe(true);
    const killed = await service.kill('p1');
    expect(killed.process.status).toBe('killed');
    expect(groupAlive(group)).toBe(false);

    const orphan = await service.run({ command: 'sleep 302', waitMs: 0, background: true });
    const saved = service.snapshot();
    const restarted = new ShellService({ target: createLocalTarget({ cwd: dir, env: process.env }), log, redact: (t) => t, now: () => Date.now() });
    restarted.restore(saved);
    expect(restarted.list().map((p) => [p.id, p.status])).toEqual([
      ['p1', 'killed'],
      ['p2', 'unknown'],
    ]);
    await restarted.kill('p2', 'user');
    expect(groupAlive(orphan.process.group ?? 0)).toBe(false);
    expect((await restarted.run({ command: 'true', waitMs: 2000 })).process.id).toBe('p3');
  });

  it('hands a password prompt in a pty to the user and types the answer into the terminal only', async () => {
    const result = await service.run({ command: 'read -r -s -p "[sudo] password for ada: " pw; echo; echo "got ${#pw} characters"', pty: true, waitMs: 10_000 });
    expect(prompts).toEqual(['[sudo] password for ada:']);
    expect(result.process).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(result.output.text).toContain('got 7 characters');
    await log.flush();
    const text = await readFile(join(dir, 'log.jsonl'), 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('p1 asked for a password; the user typed it (not logged).');
  });

  it('interrupts a password prompt nobody answers', async () => {
    password = null;
    const result = await service.run({ command: 'read -r -s -p "Password: " pw; echo "should not get here"', pty: true, waitMs: 10_000 });
    expect(result.process.status).toBe('exited');
    expect(result.process.exitCode).not.toBe(0);
    expect(result.output.text).not.toContain('should not get here');
  });

  it('writes files atomically, relative to the start folder, and logs their content', async () => {
    const written = await service.writeFile('conf/app.ini', '[app]\nport = 8080\n');
    expect(written).toEqual({ path: join(dir, 'conf', 'app.ini'), bytes: 18 });
    expect(await readFile(written.path, 'utf8')).toBe('[app]\nport = 8080\n');
    expect((await log.search({ query: 'port = 8080' })).hits[0]?.source).toBe(`file ${written.path}`);
  });
});
