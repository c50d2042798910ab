import { spawn } from 'node:child_process';
import { endianness } from 'node:os';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../../../shared/constants';
import { Chunk, ChunkJoiner } from '../../../../shared/protocol';
import { createLogger } from '../../../../native-host/log/logger';
import { ProcessRegistry } from '../../../../native-host/host/process-registry';
import { runHost, type RunHostOptions } from '../../../../native-host/host/run-host';

function frame(value: unknown): Buffer {
  const body = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
  const header = Buffer.alloc(4);
  if (endianness() === 'LE') header.writeUInt32LE(body.length);
  else header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
}

/** Reads every byte written to stdout as frames; fails on anything else. */
function parseFrames(bytes: Buffer): unknown[] {
  const messages: unknown[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    expect(bytes.length - offset).toBeGreaterThanOrEqual(4);
    const length = endianness() === 'LE' ? bytes.readUInt32LE(offset) : bytes.readUInt32BE(offset);
    expect(offset + 4 + length).toBeLessThanOrEqual(bytes.length);
    messages.push(JSON.parse(bytes.subarray(offset + 4, offset + 4 + length).toString('utf8')));
    offset += 4 + length;
  }
  return messages;
}

function startHost(options: Partial<RunHostOptions> = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => written.push(chunk));
  const lines: string[] = [];
  const processes = options.processes ?? new ProcessRegistry();
  const host = runHost({
    io: { stdin, stdout },
    log: createLogger('host', [{ write: (line) => lines.push(line) }]),
    processes,
    info: { version: '9.9.9', platform: 'test', pid: 1, now: () => 1234 },
    graceMs: 500,
    ...options,
  });
  const replies = (): unknown[] => parseFrames(Buffer.concat(written));
  return { stdin, stdout, host, lines, replies, processes };
}

const hello = { kind: 'request', id: 'h1', method: 'hello', params: { protocolVersion: PROTOCOL_VERSION, client: 'test', clientVersion: '1' } };
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe('runHost', () => {
  it('answers hello and ping, then stops cleanly when stdin ends', async () => {
    const { stdin, host, replies } = startHost();
    stdin.write(Buffer.concat([frame(hello), frame({ kind: 'request', id: 'p1', method: 'ping', params: { echo: 'hi' } })]));
    stdin.end();
    expect(await host.stopped).toBe('stdin-end');
    expect(replies()).toEqual([
      {
        kind: 'response',
        id: 'h1',
        ok: true,
        result: { hostVersion: '9.9.9', protocolVersion: PROTOCOL_VERSION, compatible: true, platform: 'test', pid: 1, capabilities: expect.arrayContaining(['ping']) as unknown },
      },
      { kind: 'response', id: 'p1', ok: true, result: { time: 1234, echo: 'hi' } },
    ]);
  });

  it('answers the frames before a corrupt length, then stops and says why', async () => {
    const { stdin, host, replies, lines } = startHost();
    const corrupt = Buffer.from([0xff, 0xff, 0xff, 0x7f]);
    stdin.write(Buffer.concat([frame(hello), corrupt, frame({ kind: 'request', id: 'late', method: 'ping', params: {} })]));
    expect(await host.stopped).toBe('corrupt-length');
    expect(replies()).toHaveLength(1);
    expect(lines.join('')).toMatch(/ERROR \[host\] closing connection: frame length \d+ exceeds the 67108864-byte limit/);
    expect(stdin.isPaused()).toBe(true);
  });

  it('warns when stdin ends in the middle of a frame', async () => {
    const { stdin, host, lines } = startHost();
    stdin.end(frame(hello).subarray(0, 10));
    expect(await host.stopped).toBe('stdin-end');
    expect(lines.join('')).toContain('stdin ended inside a frame; its bytes are dropped {"bytes":10}');
  });

  it('answers with too_large, not silence, when a reply needs more chunks than allowed', async () => {
    // Under a 1 KB frame limit a chunk carries ~128 characters, so 1024 chunks hold far less than this echo.
    const { stdin, host, replies } = startHost({ maxOutboundBytes: 1024 });
    stdin.end(frame({ kind: 'request', id: 'big', method: 'ping', params: { echo: 'x'.repeat(200_000) } }));
    await host.stopped;
    expect(replies()).toEqual([{ kind: 'response', id: 'big', ok: false, error: { code: 'too_large', message: expect.stringMatching(/could not be sent/) as unknown } }]);
  });

  it('chunks a large reply so that every frame fits the outbound limit', async () => {
    const { stdin, host, replies } = startHost({ maxOutboundBytes: 4096 });
    const echo = '😀"\\'.repeat(5000);
    stdin.end(frame({ kind: 'request', id: 'c', method: 'ping', params: { echo } }));
    await host.stopped;
    const joiner = new ChunkJoiner(() => 0);
    let whole: unknown;
    for (const message of replies()) whole = joiner.add(Chunk.parse(message)) ?? whole;
    expect(whole).toEqual({ kind: 'response', id: 'c', ok: true, result: { time: 1234, echo } });
  });

  it.skipIf(process.platform === 'win32')('ends its children when stopped by a signal', async () => {
    const processes = new ProcessRegistry();
    const { stdin, host } = startHost({ processes });
    const child = processes.track(spawn('sleep', ['30']));
    await new Promise((resolve) => child.once('spawn', resolve));
    stdin.write(frame(hello));
    await tick();
    host.stop('signal');
    expect(await host.stopped).toBe('signal');
    expect(child.signalCode).toBe('SIGTERM');
    expect(processes.size).toBe(0);
  });

  it('stops quietly when stdout breaks (the browser is gone)', async () => {
    const { stdout, host, lines } = startHost();
    stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(await host.stopped).toBe('stdout-closed');
    expect(lines.join('')).toContain('stdout closed {"code":"EPIPE"}');
  });
});
