import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../../../shared/errors';
import { RpcClient, defineChannel } from '../../../../shared/protocol';

const Channel = defineChannel(
  'demo',
  {
    add: { params: z.object({ a: z.number(), b: z.number() }), result: z.object({ sum: z.number() }) },
    noop: { params: z.object({}), result: z.undefined() },
  },
  {},
);

type Sent = { kind: 'request'; id: string; method: string; params: unknown };

function client(options: { timeoutMs?: number; send?: (message: unknown) => void } = {}) {
  const sent: Sent[] = [];
  const rpc = new RpcClient(Channel, {
    send: options.send ?? ((message) => sent.push(message as Sent)),
    timeoutMs: options.timeoutMs ?? 1000,
    idPrefix: 'test',
  });
  return { rpc, sent };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RpcClient', () => {
  it('sends a request with a fresh id and resolves with the validated result', async () => {
    const { rpc, sent } = client();
    const first = rpc.call('add', { a: 1, b: 2 });
    const second = rpc.call('add', { a: 3, b: 4 });
    expect(sent.map((message) => message.id)[0]).toMatch(/^test-1-/);
    expect(new Set(sent.map((message) => message.id)).size).toBe(2);
    expect(rpc.receive({ kind: 'response', id: sent[1]?.id, ok: true, result: { sum: 7 } })).toBe(true);
    expect(rpc.receive({ kind: 'response', id: sent[0]?.id, ok: true, result: { sum: 3, extra: true } })).toBe(true);
    await expect(first).resolves.toEqual({ sum: 3 });
    await expect(second).resolves.toEqual({ sum: 7 });
    expect(rpc.pendingCount).toBe(0);
  });

  it('resolves a method whose result is undefined from a response without a result key', async () => {
    const { rpc, sent } = client();
    const call = rpc.call('noop', {});
    expect(rpc.receive(JSON.parse(JSON.stringify({ kind: 'response', id: sent[0]?.id, ok: true, result: undefined })))).toBe(true);
    await expect(call).resolves.toBeUndefined();
  });

  it('rejects with the AppError the other side sent', async () => {
    const { rpc, sent } = client();
    const call = rpc.call('add', { a: 1, b: 2 });
    rpc.receive({ kind: 'response', id: sent[0]?.id, ok: false, error: { code: 'forbidden', message: 'No', details: { why: 1 } } });
    await expect(call).rejects.toMatchObject({ code: 'forbidden', message: 'No', details: { why: 1 } });
  });

  it('rejects a result that does not match the method schema', async () => {
    const { rpc, sent } = client();
    const call = rpc.call('add', { a: 1, b: 2 });
    expect(rpc.receive({ kind: 'response', id: sent[0]?.id, ok: true, result: { sum: 'three' } })).toBe(true);
    await expect(call).rejects.toThrow(/Malformed add result: sum/);
  });

  it('times out each request on its own clock and ignores the late answer', async () => {
    const { rpc, sent } = client({ timeoutMs: 1000 });
    const quick = rpc.call('add', { a: 1, b: 1 }, { timeoutMs: 100 });
    const slow = rpc.call('add', { a: 2, b: 2 });
    const quickResult = quick.catch((error: unknown) => error);
    vi.advanceTimersByTime(101);
    expect(await quickResult).toMatchObject({ code: 'timeout', message: 'demo.add got no answer within 100 ms' });
    expect(rpc.pendingCount).toBe(1);
    expect(rpc.receive({ kind: 'response', id: sent[0]?.id, ok: true, result: { sum: 2 } })).toBe(false);
    rpc.receive({ kind: 'response', id: sent[1]?.id, ok: true, result: { sum: 4 } });
    await expect(slow).resolves.toEqual({ sum: 4 });
  });

  it('rejects every pending request at once, and clears their timers', async () => {
    const { rpc } = client();
    const calls = [rpc.call('add', { a: 1, b: 1 }), rpc.call('add', { a: 2, b: 2 })].map((call) => call.catch((error: unknown) => error));
    rpc.rejectAll(new AppError('disconnected', 'port closed'));
    for (const error of await Promise.all(calls)) expect(error).toMatchObject({ code: 'disconnected' });
    expect(rpc.pendingCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once when the transport refuses to send', async () => {
    const { rpc } = client({
      send: () => {
        throw new Error('Attempting to use a disconnected port object');
      },
    });
    await expect(rpc.call('add', { a: 1, b: 1 })).rejects.toMatchObject({ code: 'disconnected' });
    expect(rpc.pendingCount).toBe(0);
  });

  it('leaves messages that are not its responses to others', () => {
    const { rpc } = client();
    expect(rpc.receive({ kind: 'event', event: 'x', data: {} })).toBe(false);
    expect(rpc.receive({ kind: 'response', id: 'unknown', ok: true, result: {} })).toBe(false);
    expect(rpc.receive({ kind: 'response', id: null, ok: false, error: { code: 'bad_json', message: 'x' } })).toBe(false);
  });
});
