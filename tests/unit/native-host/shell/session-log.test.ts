import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatSearch, SessionLog } from '../../../../native-host/shell/session-log';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'deputy-log-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const open = (file = join(dir, 'log.jsonl')) => SessionLog.open(file, { redact: (text) => text.replace(/hunter2/g, '{{password}}'), now: () => 42 });

describe('the session log', () => {
  it('appends numbered records in order, redacted, and finds lines with context from the same command only', async () => {
    const log = await open();
    log.append({ type: 'command', process: 'p1', command: 'make build', cwd: null, pty: false, by: 'agent' });
    log.append({ type: 'command', process: 'p2', command: 'tail -f app.log', cwd: '/srv', pty: false, by: 'agent' });
    log.append({ type: 'output', process: 'p1', text: 'step 1\nstep 2\n' });
    log.append({ type: 'output', process: 'p2', text: 'GET /health 200\n' });
    log.append({ type: 'output', process: 'p1', text: 'error: missing libfoo\nstep 4\nstep 5\n' });
    log.append({ type: 'exit', process: 'p1', exitCode: 2, signal: null, durationMs: 10 });
    log.append({ type: 'file', path: '/etc/app.conf', bytes: 20, content: 'password=hunter2\nport=80\n' });
    await log.appendDurable({ type: 'note', text: 'done' });
    const lines = (await readFile(log.file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(lines[6]).toMatchObject({ type: 'file', content: 'password={{password}}\nport=80\n', at: 42 });

    const found = await log.search({ query: 'missing libfoo', context: 2 });
    expect(found.matches).toBe(1);
    expect(found.hits).toEqual([
      {
        source: 'p1 $ make build',
        lines: [
          { n: 3, text: 'step 1', match: false },
          { n: 4, text: 'step 2', match: false },
          { n: 6, text: 'error: missing libfoo', match: true },
          { n: 7, text: 'step 4', match: false },
          { n: 8, text: 'step 5', match: false },
        ],
      },
    ]);
    expect(formatSearch('missing libfoo', found)).toBe(
      '1 matching line for "missing libfoo" in the session log (13 lines):\n--- p1 $ make build\n       3  step 1\n       4  step 2\n>      6  error: missing libfoo\n       7  step 4\n       8  step 5',
    );
    const regex = await log.search({ query: 'port=\\d+', regex: true, context: 0 });
    expect(regex.hits).toEqual([{ source: 'file /etc/app.conf', lines: [{ n: 12, text: 'port=80', match: true }] }]);
    expect(formatSearch('nothing', await log.search({ query: 'nothing here' }))).toBe('No line of the session log (13 lines) matches "nothing".');
    await log.close();
  });

  it('goes on after a crash that tore its last line: the torn line ends, numbering continues, search skips it', async () => {
    const file = join(dir, 'log.jsonl');
    const first = await open(file);
    first.append({ type: 'note', text: 'before the crash' });
    await first.close();
    await appendFile(file, '{"seq":2,"at":1,"type":"out');
    const second = await open(file);
    second.append({ type: 'note', text: 'after the restart' });
    await second.flush();
    const raw = (await readFile(file, 'utf8')).split('\n');
    expect(raw[1]).toBe('{"seq":2,"at":1,"type":"out');
    expect(JSON.parse(raw[2] ?? '')).toMatchObject({ seq: 2, text: 'after the restart' });
    const found = await second.search({ query: 'restart' });
    expect(found).toMatchObject({ matches: 1, skipped: 1 });
    await second.close();
  });
});
