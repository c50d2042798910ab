import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_FROM_BROWSER_BYTES } from '../../shared/constants';
import { HostChannel } from '../../shared/protocol';
import { HostProcess, ensureBuiltHost, frame, helloFrame, lengthHeader, parseHostStdout, request, seededRandom, type HostReply } from './host-harness';

/**
 * Feeds the built host thousands of bad inputs over stdio, as a buggy or hostile browser side could. The host must
 * never crash, never write anything but valid frames, answer every message it can parse with a typed error naming
 * the request's id, and close cleanly (exit 1, a stderr line) on a length it cannot trust.
 */

const SEED = Number(process.env.DEPUTY_FUZZ_SEED ?? 20_260_211);
type Code = 'bad_json' | 'bad_request' | 'unknown_method' | 'invalid_params' | 'ok';

interface Case {
  body: Buffer;
  id: string | null;
  code: Code;
}

let workDir = '';
const hostEnv = (): NodeJS.ProcessEnv => ({ DEPUTY_LOG_FILE: join(workDir, 'host.log'), XDG_STATE_HOME: join(workDir, 'state') });

beforeAll(() => {
  ensureBuiltHost();
  workDir = mkdtempSync(join(tmpdir(), 'deputy-robustness-'));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Builds bad (and some good) messages, each with the reply it must get. */
function caseMaker(seed: number, prefix: string) {
  const random = seededRandom(seed);
  let counter = 0;
  const nextId = (): string => `${prefix}-${(counter += 1)}`;
  const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
  const randomString = (max: number): string => {
    const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '/', '\n', '\u0000', '\u001f', 'é', '✓', '😀', '\u2028', '{', '}', '[', ']', ':', ','];
    let text = '';
    const length = 1 + random.int(max);
    for (let index = 0; index < length; index += 1) text += random.pick(alphabet);
    return text;
  };
  const randomValue = (depth: number): unknown => {
    const kind = random.int(depth > 3 ? 4 : 6);
    if (kind === 0) return random.int(2) === 0 ? random.next() * 1e6 - 5e5 : random.int(1000);
    if (kind === 1) return randomString(20);
    if (kind === 2) return random.pick([true, false, null]);
    if (kind === 3) return -0;
    if (kind === 4) return Array.from({ length: random.int(4) }, () => randomValue(depth + 1));
    return Object.fromEntries(Array.from({ length: random.int(4) }, () => [randomString(8), randomValue(depth + 1)]));
  };
  const deepArray = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const deepObject = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const validHello = () => ({ protocolVersion: 1, client: random.pick(['extension', 'cli', 'test']), clientVersion: '1.0' });

  const badJson = (): Case => {
    const variant = random.int(7);
    let body: Buffer;
    if (variant === 0) {
      const whole = JSON.stringify({ kind: 'request', id: nextId(), method: 'ping', params: { echo: randomString(50) } });
      body = Buffer.from(whole.slice(0, 1 + random.int(whole.length - 1)));
    } else if (variant === 1) {
      body = Buffer.from(random.pick(['{kind:"request"}', "{'a':1}", 'NaN', 'Infinity', '[1,]', '{"a":1}//c', 'undefined', '{"a":1}{"b":2}', '"unterminated', '01', '+1', '.5', '{"a" 1}', 'nul', 'tru']));
    } else if (variant === 2) {
      // Valid JSON with bytes that are not UTF-8 inside a string: overlong, lone continuation, an encoded surrogate.
      const bad = random.pick([[0xff], [0xfe], [0xc0, 0xaf], [0x80], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]]);
      body = Buffer.concat([Buffer.from(`{"kind":"request","id":"${nextId()}","method":"ping","params":{"echo":"`), Buffer.from(bad), Buffer.from('"}}')]);
    } else if (variant === 3) {
      body = Buffer.alloc(0);
    } else if (variant === 4) {
      body = Buffer.from(`${deepArray(1000 + random.int(5000))}]`);
    } else if (variant === 5) {
      body = Buffer.from(JSON.stringify({ kind: 'request', id: nextId() }).replace('}', ',}'));
    } else {
      body = Buffer.from(`{"kind":"request","id":"${nextId()}","method":"ping","params":{"echo":"${'x'.repeat(random.int(300))}`);
    }
    return { body, id: null, code: 'bad_json' };
  };

  const badRequest = (): Case => {
    const variant = random.int(7);
    if (variant === 0) return { body: json(random.pick([0, -1, 3.5, true, false, null, 'request', '', [], [{ kind: 'request' }]])), id: null, code: 'bad_request' };
    if (variant === 1) {
      const id = nextId();
      const kind = random.pick([undefined, 'response', 'event', 'chunk', 'REQUEST', 1, null]);
      return { body: json({ kind, id, method: 'ping', params: {} }), id, code: 'bad_request' };
    }
    if (variant === 2) {
      const id = random.pick([0, 1.5, {}, [], true, null, '', 'i'.repeat(129), ['x']]);
      return { body: json({ kind: 'request', id, method: 'hello', params: validHello() }), id: null, code: 'bad_request' };
    }
    if (variant === 3) {
      const id = nextId();
      const method = random.pick([undefined, 5, '', 'm'.repeat(129), null, {}, ['ping'], true]);
      return { body: json({ kind: 'request', id, method, params: {} }), id, code: 'bad_request' };
    }
    if (variant === 4) return { body: Buffer.from(deepArray(10_000 + random.int(90_000))), id: null, code: 'bad_request' };
    if (variant === 5) {
      const id = nextId();
      return { body: Buffer.from(`{"kind":"request","id":"${id}","method":${deepObject(2000 + random.int(20_000))},"params":{}}`), id, code: 'bad_request' };
    }
    const id = nextId();
    return { body: json({ id, ...(randomValue(0) as object) }), id, code: 'bad_request' };
  };

  const unknownMethod = (): Case => {
    const id = nextId();
    let method = random.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'Hello', 'PING', 'hello ', ' ping', 'ping\u0000', 'héllo', 'desktop', 'loop.start.x', randomString(128)]);
    if (method.length === 0 || Object.hasOwn(HostChannel.methods, method)) method = `x-${method}`;
    const name = JSON.stringify(method.slice(0, 128));
    // Deep nesting is written by hand: JSON.stringify itself overflows the stack on it.
    const params = random.int(10) === 0 ? deepArray(5000 + random.int(50_000)) : JSON.stringify(randomValue(0));
    return { body: Buffer.from(`{"kind":"request","id":"${id}","method":${name},"params":${params}}`), id, code: 'unknown_method' };
  };

  const invalidParams = (): Case => {
    const id = nextId();
    const variant = random.int(6);
    let method = 'hello';
    let params: unknown;
    if (variant === 0) {
      params = { ...validHello(), protocolVersion: random.pick(['1', -1, 0, 1.5, null, {}, [1], true, 2 ** 60]) };
    } else if (variant === 1) {
      params = { ...validHello(), client: random.pick(['browser', '', 5, null, 'EXTENSION', ['cli']]) };
    } else if (variant === 2) {
      params = { ...validHello(), clientVersion: random.pick([5, 'v'.repeat(65), null, {}]) };
    } else if (variant === 3) {
      method = random.pick(['hello', 'ping']);
      params = random.pick([[], 'params', 5, null, true, undefined]);
      if (method === 'ping' && params === undefined) params = null;
    } else if (variant === 4) {
      method = 'ping';
      params = { echo: random.pick([5, {}, [], null, true, 1e21, { echo: 'nested' }]) };
    } else {
      return { body: Buffer.from(`{"kind":"request","id":"${id}","method":"hello","params":${deepObject(1000 + random.int(20_000))}}`), id, code: 'invalid_params' };
    }
    return { body: json({ kind: 'request', id, method, params }), id, code: 'invalid_params' };
  };

  const valid = (): Case => {
    const id = nextId();
    if (random.int(3) === 0) return { body: json({ kind: 'request', id, method: 'hello', params: { ...validHello(), extra: randomValue(0) } }), id, code: 'ok' };
    // Lone surrogates written as JSON escapes are valid JSON; the echo must come back intact and as valid JSON.
    const echo = `${randomString(100)}${random.int(4) === 0 ? '\ud800' : ''}`;
    return { body: Buffer.from(`{"kind":"request","id":"${id}","method":"ping","params":{"echo":${JSON.stringify(echo)}}}`), id, code: 'ok' };
  };

  const makers: Array<[number, () => Case]> = [
    [25, badJson],
    [25, badRequest],
    [20, unknownMethod],
    [25, invalidParams],
    [5, valid],
  ];
  const total = makers.reduce((sum, [weight]) => sum + weight, 0);
  return {
    next: (): Case => {
      let roll = random.int(total);
      for (const [weight, make] of makers) {
        if (roll < weight) return make();
        roll -= weight;
      }
      return valid();
    },
    /** Messages tens of megabytes long, still under the 64 MiB inbound cap. */
    huge: (): Case[] => {
      const mb = 1024 * 1024;
      const ids = [nextId(), nextId(), nextId(), nextId()];
      return [
        { body: json({ kind: 'request', id: ids[0], method: 'm'.repeat(10 * mb), params: {} }), id: ids[0] ?? null, code: 'bad_request' },
        { body: json({ kind: 'request', id: 'i'.repeat(10 * mb), method: 'ping', params: {} }), id: null, code: 'bad_request' },
        { body: json({ kind: 'request', id: ids[1], method: 'ping', params: { ignored: '😀'.repeat(5 * mb) } }), id: ids[1] ?? null, code: 'ok' },
        { body: json({ kind: 'request', id: ids[2], method: 'ping', params: { echo: 'e'.repeat(61 * mb) } }), id: ids[2] ?? null, code: 'invalid_params' },
        { body: json({ kind: 'request', id: ids[3], method: 'nope', params: '"\\'.repeat(3 * mb) }), id: ids[3] ?? null, code: 'unknown_method' },
      ];
    },
  };
}

type Delivery = 'random slices' | 'one write per frame' | 'one write';

async function deliver(host: HostProcess, frames: Buffer[], how: Delivery, seed: number): Promise<void> {
  if (how === 'one write per frame') {
    for (const bytes of frames) await host.write(bytes);
    return;
  }
  const all = Buffer.concat(frames);
  if (how === 'one write') return host.write(all);
  const random = seededRandom(seed);
  for (let offset = 0, writes = 0; offset < all.length; writes += 1) {
    // Mostly small pieces (a frame split over many reads, a header split in two), now and then a large one.
    const size = random.int(10) === 0 ? 1 + random.int(256 * 1024) : 1 + random.int(64);
    await host.write(all.subarray(offset, offset + size));
    offset += size;
    if (writes % 40 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

function tally(cases: Case[]): Record<Code, number> {
  const counts: Record<Code, number> = { bad_json: 0, bad_request: 0, unknown_method: 0, invalid_params: 0, ok: 0 };
  for (const item of cases) counts[item.code] += 1;
  return counts;
}

/** Checks that every case got exactly the reply it should: by id where there is one, by count where the id is null. */
function checkReplies(cases: Case[], replies: HostReply[]): void {
  const byId = new Map<string, HostReply>();
  const nullCodes: Record<string, number> = {};
  for (const reply of replies) {
    if (reply.id === null) {
      expect(reply.ok).toBe(false);
      if (!reply.ok) nullCodes[reply.error.code] = (nullCodes[reply.error.code] ?? 0) + 1;
      continue;
    }
    expect(byId.has(reply.id), `two replies for ${reply.id}`).toBe(false);
    byId.set(reply.id, reply);
  }
  const expectedNull: Record<string, number> = {};
  for (const item of cases) {
    if (item.id === null) {
      expectedNull[item.code] = (expectedNull[item.code] ?? 0) + 1;
      continue;
    }
    const reply = byId.get(item.id);
    expect(reply, `no reply for ${item.id} (expected ${item.code})`).toBeDefined();
    if (!reply) continue;
    if (item.code === 'ok') {
      expect(reply.ok, `${item.id}: ${JSON.stringify(reply).slice(0, 300)}`).toBe(true);
    } else {
      expect(reply.ok ? 'ok' : reply.error.code, `${item.id}: ${item.body.subarray(0, 200).toString()}`).toBe(item.code);
      if (!reply.ok) expect(reply.error.message.length).toBeGreaterThan(0);
    }
    byId.delete(item.id);
  }
  expect(nullCodes).toEqual(expectedNull);
  expect([...byId.keys()].filter((id) => id !== 'final')).toEqual([]);
}

describe('the built host under bad input', () => {
  it('answers thousands of bad messages with typed errors and keeps serving', async () => {
    const deliveries: Delivery[] = ['random slices', 'one write per frame', 'one write'];
    const perHost = 2000;
    const all: Case[] = [];
    let frames = 0;
    let largest = 0;
    for (const [index, how] of deliveries.entries()) {
      const maker = caseMaker(SEED + index, `h${index}`);
      const cases = Array.from({ length: perHost }, () => maker.next());
      if (index === 0) cases.push(...maker.huge());
      const host = new HostProcess(hostEnv());
      await deliver(host, [...cases.map((item) => frame(item.body)), helloFrame('final')], how, SEED + 100 + index);
      const expected = cases.length + 1;
      await host.waitForReplies((replies) => replies.length >= expected, 300_000);
      const exit = await host.end();
      expect(exit, host.stderr.slice(-2000)).toEqual({ code: 0, signal: null });
      const output = parseHostStdout(host.stdout);
      expect(output.replies).toHaveLength(expected);
      expect(output.replies.some((reply) => !reply.ok && reply.error.code === 'internal')).toBe(false);
      expect(output.replies.find((reply) => reply.id === 'final')).toMatchObject({ ok: true });
      checkReplies(cases, output.replies);
      all.push(...cases);
      frames += output.frames;
      largest = Math.max(largest, output.largestFrame);
    }
    const counts = tally(all);
    const bad = all.length - counts.ok;
    console.info(
      `host robustness (seed ${SEED}): sent ${bad} bad frames to ${deliveries.length} long-lived hosts (${deliveries.join(', ')}): ` +
        `${counts.bad_json} bad_json, ${counts.bad_request} bad_request, ${counts.unknown_method} unknown_method, ${counts.invalid_params} invalid_params, ` +
        `each answered with that code; ${counts.ok} valid requests among them answered ok; ${frames} frames read back, largest ${largest} bytes; 0 crashes`,
    );
    expect(bad).toBeGreaterThan(5000);
    // Three hosts read 6000 frames each way; on a busy 2-core machine that takes minutes, not the suite's default 2.
  }, 900_000);

  it('closes cleanly on corrupt lengths, random bytes and truncated frames', async () => {
    interface Stream {
      name: string;
      bytes: Buffer;
      /** End stdin after writing (a truncated stream); otherwise the host must leave on its own. */
      end: boolean;
      expectExit: 0 | 1 | 'either';
      stderr?: RegExp;
    }
    const random = seededRandom(SEED + 7);
    const cap = MAX_MESSAGE_FROM_BROWSER_BYTES;
    const streams: Stream[] = [];
    for (const length of [cap + 1, cap * 2, 2 ** 31, 2 ** 32 - 1]) {
      streams.push({ name: `length ${length} after a hello`, bytes: Buffer.concat([helloFrame(), lengthHeader(length), random.bytes(100)]), end: false, expectExit: 1, stderr: new RegExp(`closing connection: frame length ${length} exceeds the ${cap}-byte limit`) });
    }
    for (let index = 0; index < 36; index += 1) {
      streams.push({ name: `random bytes #${index}`, bytes: random.bytes(1 + random.int(8192)), end: true, expectExit: 'either' });
    }
    for (let index = 0; index < 12; index += 1) {
      // A plausible small length, so the random body is read as a frame; what follows decides the rest.
      const body = random.bytes(random.int(300));
      streams.push({ name: `random frame body #${index}`, bytes: Buffer.concat([lengthHeader(body.length), body, random.bytes(random.int(64))]), end: true, expectExit: 'either' });
    }
    streams.push(
      { name: 'a length exactly at the cap, body never sent', bytes: Buffer.concat([helloFrame(), lengthHeader(cap), Buffer.alloc(1000, 0x20)]), end: true, expectExit: 0, stderr: /stdin ended inside a frame; its bytes are dropped \{"bytes":1004\}/ },
      { name: 'a truncated body', bytes: Buffer.concat([lengthHeader(100), Buffer.from('{"kind":"request","id":"x"')]), end: true, expectExit: 0, stderr: /stdin ended inside a frame/ },
      { name: 'a truncated header', bytes: Buffer.from([0x10, 0x00]), end: true, expectExit: 0, stderr: /stdin ended inside a frame; its bytes are dropped \{"bytes":2\}/ },
      { name: 'a header alone', bytes: lengthHeader(10), end: true, expectExit: 0, stderr: /"bytes":4\}/ },
    );

    const outcomes = { corrupt: 0, ended: 0 };
    const run = async (stream: Stream): Promise<void> => {
      const host = new HostProcess(hostEnv());
      await host.write(stream.bytes);
      if (stream.end) {
        // Random bytes may already have formed a bad length (the host then leaves by itself), or may still be mid-frame.
        await Promise.race([host.exited, new Promise((resolve) => setTimeout(resolve, 300))]);
        host.child.stdin.end();
      }
      const exit = await host.waitForExit(60_000);
      const context = `${stream.name}; stderr:\n${host.stderr.slice(-1500)}`;
      expect(exit.signal, context).toBeNull();
      if (stream.expectExit !== 'either') expect(exit.code, context).toBe(stream.expectExit);
      expect([0, 1], context).toContain(exit.code);
      if (exit.code === 1) {
        expect(host.stderr, context).toMatch(/ERROR \[host\] closing connection: frame length \d+ exceeds the \d+-byte limit; the stream is out of step/);
        outcomes.corrupt += 1;
      } else {
        expect(host.stderr, context).toMatch(/"reason":"stdin-end"/);
        outcomes.ended += 1;
      }
      if (stream.stderr) expect(host.stderr, context).toMatch(stream.stderr);
      // Whatever came before the bad bytes may have been answered; nothing else may be on stdout.
      const { replies } = parseHostStdout(host.stdout);
      for (const reply of replies) {
        if (!reply.ok) expect(['bad_json', 'bad_request', 'unknown_method', 'invalid_params'], context).toContain(reply.error.code);
      }
      if (stream.name.includes('after a hello')) expect(replies.map((reply) => reply.id)).toEqual(['hello']);
    };
    for (let index = 0; index < streams.length; index += 4) await Promise.all(streams.slice(index, index + 4).map(run));
    console.info(
      `host robustness (seed ${SEED}): ${streams.length} corrupt or truncated streams closed cleanly: ` +
        `${outcomes.corrupt} by a corrupt length (exit 1, stderr line), ${outcomes.ended} at the end of stdin (exit 0); 0 crashes, 0 hangs`,
    );
    expect(outcomes.corrupt).toBeGreaterThanOrEqual(30);
  }, 900_000);
});

describe('the built host over stdio', () => {
  it('exits 0 when stdin ends', async () => {
    const host = new HostProcess(hostEnv());
    await host.write(helloFrame());
    await host.waitForReplies((replies) => replies.length === 1);
    expect(await host.end()).toEqual({ code: 0, signal: null });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('on %s, stops promptly with exit 0', async (signal) => {
    const host = new HostProcess(hostEnv());
    await host.write(helloFrame());
    // A signal at any time after start is a clean stop: here, once the (early) hello is answered.
    await host.waitForReplies((replies) => replies.length === 1);
    host.child.kill(signal);
    // Promptly means by its own clean stop, not by the host's forced exit (8 s after a shutdown that hangs) nor by the
    // harness's kill: timings on a busy machine decide nothing.
    expect(await host.waitForExit(60_000)).toEqual({ code: 0, signal: null });
    expect(host.stderr).toContain(`signal {"signal":"${signal}"}`);
    expect(host.stderr).toMatch(/stopped \{"reason":"signal"\}/);
    expect(host.stderr).not.toContain('forced exit');
  });

  it('reads a frame delivered one byte at a time', async () => {
    const host = new HostProcess(hostEnv());
    const bytes = request('slow', 'ping', { echo: 'é😀"' });
    for (const byte of bytes) {
      await host.write(Buffer.from([byte]));
      // Give each byte its own read on the host side.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const [reply] = await host.waitForReplies((replies) => replies.length === 1);
    expect(reply).toMatchObject({ id: 'slow', ok: true, result: { echo: 'é😀"' } });
    await host.end();
  });

  it('answers every frame of a write that holds many', async () => {
    const host = new HostProcess(hostEnv());
    const ids = Array.from({ length: 200 }, (_, index) => `p${index}`);
    await host.write(Buffer.concat(ids.map((id) => request(id, 'ping', { echo: id }))));
    const replies = await host.waitForReplies((seen) => seen.length === ids.length);
    expect(replies.map((reply) => (reply.ok ? (reply.result as { echo: string }).echo : reply.error.code)).sort()).toEqual([...ids].sort());
    await host.end();
  });

  it('sends a 3 MB echo back as chunk frames under 1 MB that join into the same reply', async () => {
    const host = new HostProcess(hostEnv());
    const echo = 'Deputy "✓" \\ 😀\n'.repeat(3 * 1024 * 1024 / 20);
    await host.write(request('big', 'ping', { echo }));
    await host.waitForReplies((replies) => replies.length === 1);
    await host.end();
    const output = parseHostStdout(host.stdout);
    expect(output.chunkFrames).toBeGreaterThan(3);
    expect(output.largestFrame).toBeLessThanOrEqual(1024 * 1024);
    expect(output.replies).toHaveLength(1);
    expect(output.replies[0]).toMatchObject({ id: 'big', ok: true, result: { echo } });
  });

  it('logs to stderr and the log file, never to stdout', async () => {
    const logDir = mkdtempSync(join(workDir, 'logs-'));
    const logFile = join(logDir, 'host.log');
    const host = new HostProcess({ DEPUTY_LOG_FILE: logFile, DEPUTY_LOG_LEVEL: 'debug' });
    await host.write(Buffer.concat([helloFrame(), frame('not json'), request('p', 'ping', {})]));
    await host.waitForReplies((replies) => replies.length === 3);
    await host.end();
    const log = readFileSync(logFile, 'utf8');
    for (const line of ['INFO [host] started', 'WARN [host:router] bad json', 'DEBUG [host:router] handled', 'INFO [host] stopped']) {
      expect(log).toContain(line);
      expect(host.stderr).toContain(line);
    }
    // Every byte of stdout is a frame: parseHostStdout throws on anything else.
    expect(parseHostStdout(host.stdout).replies).toHaveLength(3);

    // Without DEPUTY_LOG_FILE the log goes to the documented place (on Linux under XDG_STATE_HOME, ~/.local/state).
    const state = mkdtempSync(join(workDir, 'state-'));
    const plain = new HostProcess({ DEPUTY_LOG_FILE: '', XDG_STATE_HOME: state, HOME: state });
    await plain.write(helloFrame());
    await plain.waitForReplies((replies) => replies.length === 1);
    await plain.end();
    if (process.platform === 'linux') expect(readFileSync(join(state, 'deputy', 'logs', 'host.log'), 'utf8')).toContain('INFO [host] started');
  });
});
