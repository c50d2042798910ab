import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../../../shared/errors';
import { defineChannel } from '../../../../shared/protocol';
import { createLogger } from '../../../../native-host/log/logger';
import { createRouter, type HandlerContext } from '../../../../native-host/host/router';

const TestChannel = defineChannel(
  'test',
  {
    add: { params: z.object({ a: z.number(), b: z.number() }), result: z.object({ sum: z.number() }) },
    refuse: { params: z.object({}), result: z.object({}) },
    crash: { params: z.object({}), result: z.object({}) },
    slow: { params: z.object({ ms: z.number() }), result: z.object({ waited: z.number() }) },
  },
  {},
);

function setup(): { route: (body: Buffer) => Promise<unknown>; lines: string[] } {
  const lines: string[] = [];
  const log = createLogger('test', [{ write: (line) => lines.push(line) }], 'debug');
  const context: HandlerContext = { log, emit: () => undefined };
  const route = createRouter(
    TestChannel,
    {
      add: ({ a, b }) => ({ sum: a + b }),
      refuse: () => {
        throw new AppError('forbidden', 'Not allowed');
      },
      crash: () => {
        throw new TypeError('x is undefined');
      },
      slow: async ({ ms }) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return { waited: ms };
      },
    },
    context,
  );
  return { route, lines };
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('createRouter', () => {
  it('answers a valid request with its result and id', async () => {
    const { route } = setup();
    expect(await route(json({ kind: 'request', id: 'r1', method: 'add', params: { a: 2, b: 3 } }))).toEqual({
      kind: 'response',
      id: 'r1',
      ok: true,
      result: { sum: 5 },
    });
  });

  it.each([
    ['not JSON', Buffer.from('{"kind":'), null, 'bad_json'],
    ['not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), null, 'bad_json'],
    ['an empty frame', Buffer.alloc(0), null, 'bad_json'],
    ['a JSON number', json(42), null, 'bad_request'],
    ['an array', json([{ kind: 'request' }]), null, 'bad_request'],
    ['an event', json({ kind: 'event', event: 'x', data: {} }), null, 'bad_request'],
    ['a request without a method, but with an id', json({ kind: 'request', id: 'r2', params: {} }), 'r2', 'bad_request'],
    ['an id that is not a string', json({ kind: 'request', id: 7, method: 'add', params: {} }), null, 'bad_request'],
    ['an id over 128 characters', json({ kind: 'request', id: 'i'.repeat(129), method: 'add', params: {} }), null, 'bad_request'],
    ['an unknown method', json({ kind: 'request', id: 'r3', method: 'subtract', params: {} }), 'r3', 'unknown_method'],
    ['a method named after an Object.prototype key', json({ kind: 'request', id: 'r4', method: 'constructor', params: {} }), 'r4', 'unknown_method'],
    ['__proto__ as a method', Buffer.from('{"kind":"request","id":"r5","method":"__proto__","params":{}}'), 'r5', 'unknown_method'],
    ['params of the wrong type', json({ kind: 'request', id: 'r6', method: 'add', params: { a: '2', b: 3 } }), 'r6', 'invalid_params'],
    ['missing params', json({ kind: 'request', id: 'r7', method: 'add' }), 'r7', 'invalid_params'],
    ['a handler that refuses', json({ kind: 'request', id: 'r8', method: 'refuse', params: {} }), 'r8', 'forbidden'],
    ['a handler that crashes', json({ kind: 'request', id: 'r9', method: 'crash', params: {} }), 'r9', 'internal'],
  ])('answers %s with a typed error', async (_, body, id, code) => {
    const { route } = setup();
    const reply = (await route(body)) as { kind: string; id: unknown; ok: boolean; error: { code: string; message: string } };
    expect(reply).toMatchObject({ kind: 'response', id, ok: false, error: { code } });
    expect(reply.error.message.length).toBeGreaterThan(10);
  });

  it('logs rejected messages by code and id, never their content', async () => {
    const { route, lines } = setup();
    await route(json({ kind: 'request', id: 'r1', method: 'add', params: { a: 'secret-token-123', b: 1 } }));
    expect(lines.join('')).toContain('"code":"invalid_params","id":"r1"');
    expect(lines.join('')).not.toContain('secret-token-123');
  });

  it('does not hold one request behind a slower one', async () => {
    const { route } = setup();
    const order: string[] = [];
    await Promise.all([
      route(json({ kind: 'request', id: 'slow', method: 'slow', params: { ms: 30 } })).then(() => order.push('slow')),
      route(json({ kind: 'request', id: 'fast', method: 'add', params: { a: 1, b: 1 } })).then(() => order.push('fast')),
    ]);
    expect(order).toEqual(['fast', 'slow']);
  });
});
