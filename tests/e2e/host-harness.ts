import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { MAX_MESSAGE_TO_BROWSER_BYTES } from '../../shared/constants';
import { Chunk, ChunkJoiner, HostChannel, Response } from '../../shared/protocol';

/** Helpers for the tests that drive the built host over stdio, as Chrome does. Shared by tests/e2e/host-*.test.ts. */

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const BUILT_HOST = join(ROOT, 'dist-host', 'deputy.mjs');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist-host/deputy.mjs when it is missing or older than the sources, so these tests never judge a stale
 * host. (`npm test` builds before the e2e suite; this covers running one file on its own.)
 */
export function ensureBuiltHost(): void {
  const built = existsSync(BUILT_HOST) ? statSync(BUILT_HOST).mtimeMs : 0;
  const sources = Math.max(newestSource(join(ROOT, 'native-host')), newestSource(join(ROOT, 'shared')), statSync(join(ROOT, 'package.json')).mtimeMs);
  if (built >= sources) return;
  execFileSync('npx', ['tsx', 'scripts/build-host.ts'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

export function frame(body: string | Buffer): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return Buffer.concat([lengthHeader(bytes.length), bytes]);
}

export function lengthHeader(length: number): Buffer {
  const header = Buffer.alloc(4);
  if (endianness() === 'LE') header.writeUInt32LE(length);
  else header.writeUInt32BE(length);
  return header;
}

export const request = (id: string, method: string, params: unknown): Buffer => frame(JSON.stringify({ kind: 'request', id, method, params }));
export const helloFrame = (id = 'hello'): Buffer => request(id, 'hello', { protocolVersion: 1, client: 'test', clientVersion: '0' });

/** Everything the host may write: a response, a piece of a chunked message, or one of the host channel's events. */
const HostOutput = z.union([Response, Chunk, HostChannel.Event]);
export type HostReply = z.infer<typeof Response>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads every byte the host wrote to stdout as native-messaging frames, independently of the host's own framing
 * code: each length within the 1 MB browser limit, each body valid UTF-8 JSON matching the host channel's schemas,
 * no stray byte before, between or after. Chunked messages are joined; joined messages must be responses or events.
 * `complete: false` reads output still arriving, where a chunked message may not be whole yet.
 */
export function parseHostStdout(
  bytes: Buffer,
  { complete = true }: { complete?: boolean } = {},
): { replies: HostReply[]; events: unknown[]; frames: number; chunkFrames: number; largestFrame: number } {
  const replies: HostReply[] = [];
  const events: unknown[] = [];
  const joiner = new ChunkJoiner(() => 0);
  let offset = 0;
  let frames = 0;
  let chunkFrames = 0;
  let largestFrame = 0;
  const accept = (message: unknown): void => {
    const response = Response.safeParse(message);
    if (response.success) return void replies.push(response.data);
    const event = HostChannel.Event.safeParse(message);
    if (event.success) return void events.push(event.data);
    throw new Error(`stdout held a message that is neither a response nor an event: ${JSON.stringify(message).slice(0, 200)}`);
  };
  while (offset < bytes.length) {
    if (bytes.length - offset < 4) throw new Error(`stdout ends with ${bytes.length - offset} stray bytes`);
    const length = endianness() === 'LE' ? bytes.readUInt32LE(offset) : bytes.readUInt32BE(offset);
    if (length > MAX_MESSAGE_TO_BROWSER_BYTES) throw new Error(`stdout frame ${frames} is ${length} bytes, over the browser's 1 MB limit`);
    if (offset + 4 + length > bytes.length) throw new Error(`stdout frame ${frames} is cut short: ${length} bytes announced`);
    const body = bytes.subarray(offset + 4, offset + 4 + length);
    const message = HostOutput.parse(JSON.parse(utf8.decode(body)));
    frames += 1;
    largestFrame = Math.max(largestFrame, length);
    offset += 4 + length;
    const chunk = Chunk.safeParse(message);
    if (chunk.success) {
      chunkFrames += 1;
      const whole = joiner.add(chunk.data);
      if (whole !== undefined) accept(whole);
    } else {
      accept(message);
    }
  }
  if (complete && joiner.openStreams > 0) throw new Error(`stdout ends inside ${joiner.openStreams} chunked message(s)`);
  return { replies, events, frames, chunkFrames, largestFrame };
}

export interface HostExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The built host started as Chrome starts it: `node dist-host/deputy.mjs native-host <origin>` with piped stdio. */
export class HostProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<HostExit>;
  private readonly stdoutChunks: Buffer[] = [];
  private stdoutBytes = 0;
  private stderrText = '';
  private waiters: Array<() => void> = [];

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [BUILT_HOST, 'native-host', 'chrome-extension://iflppjigbdmbeacfohhgbfikdaaamjod/'], {
      env: { ...process.env, ...env },
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.stdoutChunks.push(chunk);
      this.stdoutBytes += chunk.length;
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => (this.stderrText += text));
    // The host may close stdin first (corrupt length); later writes then fail with EPIPE, which is expected.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  get stdout(): Buffer {
    return Buffer.concat(this.stdoutChunks, this.stdoutBytes);
  }

  get stderr(): string {
    return this.stderrText;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  write(bytes: Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (!this.running || this.child.stdin.destroyed) return resolve();
      this.child.stdin.write(bytes, () => resolve());
    });
  }

  /** Waits until the replies parsed so far satisfy `done`, or the host exits, or the time is up. */
  async waitForReplies(done: (replies: HostReply[]) => boolean, timeoutMs = 100_000): Promise<HostReply[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { replies } = parseHostStdout(this.completeFrames(), { complete: false });
      if (done(replies)) return replies;
      if (!this.running) throw new Error(`the host exited before the expected replies (got ${replies.length}); stderr:\n${this.stderr.slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for replies (got ${replies.length}); stderr:\n${this.stderr.slice(-2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Closes stdin (the browser closed the port) and waits for the exit. */
  async end(timeoutMs = 60_000): Promise<HostExit> {
    this.child.stdin.end();
    return this.waitForExit(timeoutMs);
  }

  async waitForExit(timeoutMs = 60_000): Promise<HostExit> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const result = await Promise.race([this.exited, timeout]);
    clearTimeout(timer);
    if (result === 'timeout') {
      this.child.kill('SIGKILL');
      throw new Error(`the host did not exit within ${timeoutMs} ms; stderr:\n${this.stderr.slice(-2000)}`);
    }
    return result;
  }

  /** The stdout bytes up to the last whole frame: replies may still be arriving. */
  private completeFrames(): Buffer {
    const bytes = this.stdout;
    let offset = 0;
    while (bytes.length - offset >= 4) {
      const length = endianness() === 'LE' ? bytes.readUInt32LE(offset) : bytes.readUInt32BE(offset);
      if (length > MAX_MESSAGE_TO_BROWSER_BYTES || offset + 4 + length > bytes.length) break;
      offset += 4 + length;
    }
    return bytes.subarray(0, offset);
  }
}

/** A small seeded generator (mulberry32), so a failing run can be repeated with DEPUTY_FUZZ_SEED. */
export function seededRandom(seed: number): { next: () => number; int: (max: number) => number; pick: <T>(items: readonly T[]) => T; bytes: (count: number) => Buffer } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number): number => Math.floor(next() * max);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)] as T,
    bytes: (count) => {
      const buffer = Buffer.alloc(count);
      for (let index = 0; index < count; index += 1) buffer[index] = int(256);
      return buffer;
    },
  };
}
