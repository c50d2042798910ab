import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Response, defineChannel, errorResponse, okResponse, parseRequest } from '../../../../shared/protocol';

const Channel = defineChannel(
  'demo',
  {
    greet: { params: z.object({ name: z.string().max(10) }), result: z.object({ text: z.string() }) },
    nothing: { params: z.object({}), result: z.undefined() },
  },
  { tick: z.object({ n: z.number() }) },
);

describe('parseRequest', () => {
  it('returns the typed request when every stage passes', () => {
    expect(parseRequest(Channel, { kind: 'request', id: 'a', method: 'greet', params: { name: 'Ada', extra: 1 } })).toEqual({
      ok: true,
      request: { kind: 'request', id: 'a', method: 'greet', params: { name: 'Ada' } },
    });
  });

  it.each([
    ['null', null, null, 'bad_request'],
    ['a string', 'greet', null, 'bad_request'],
    ['the wrong kind', { kind: 'response', id: 'a', method: 'greet', params: {} }, 'a', 'bad_request'],
    ['an empty method', { kind: 'request', id: 'b', method: '', params: {} }, 'b', 'bad_request'],
    ['a method that is not a string', { kind: 'request', id: 'c', method: ['greet'], params: {} }, 'c', 'bad_request'],
    ['an empty id', { kind: 'request', id: '', method: 'greet', params: {} }, null, 'bad_request'],
    ['an unknown method', { kind: 'request', id: 'd', method: 'wave', params: {} }, 'd', 'unknown_method'],
    ['an inherited property as method', { kind: 'request', id: 'e', method: 'hasOwnProperty', params: {} }, 'e', 'unknown_method'],
    ['params that break the schema', { kind: 'request', id: 'f', method: 'greet', params: { name: 'x'.repeat(11) } }, 'f', 'invalid_params'],
    ['params that are not an object', { kind: 'request', id: 'g', method: 'greet', params: [] }, 'g', 'invalid_params'],
    ['no params at all', { kind: 'request', id: 'h', method: 'greet' }, 'h', 'invalid_params'],
  ])('rejects %s with the code that says what was wrong', (_, message, id, code) => {
    const parsed = parseRequest(Channel, message);
    expect(parsed).toMatchObject({ ok: false, id, error: { code } });
  });

  it('names the channel, the method and the field in its messages, and never echoes a huge method name', () => {
    const invalid = parseRequest(Channel, { kind: 'request', id: 'a', method: 'greet', params: { name: 5 } });
    expect(!invalid.ok && invalid.error.message).toMatch(/^Invalid params for greet: name: /);
    const unknown = parseRequest(Channel, { kind: 'request', id: 'a', method: 'w'.repeat(120), params: {} });
    expect(!unknown.ok && unknown.error.message).toContain('this demo channel has: greet, nothing');
    expect(!unknown.ok && unknown.error.message.length).toBeLessThan(200);
  });
});

describe('defineChannel', () => {
  it('builds one union of every message that may cross the channel', () => {
    expect(Channel.Message.safeParse({ kind: 'request', id: 'a', method: 'greet', params: { name: 'A' } }).success).toBe(true);
    expect(Channel.Message.safeParse({ kind: 'event', event: 'tick', data: { n: 1 } }).success).toBe(true);
    expect(Channel.Message.safeParse({ kind: 'event', event: 'tick', data: { n: 'x' } }).success).toBe(false);
    expect(Channel.Message.safeParse(okResponse('a', { text: 'hi' })).success).toBe(true);
    expect(Channel.Message.safeParse(errorResponse(null, { code: 'bad_json', message: 'x' })).success).toBe(true);
    expect(Channel.Message.safeParse({ kind: 'chunk', stream: 's', index: 0, count: 1, data: '{}' }).success).toBe(true);
    expect(Channel.Message.safeParse({ kind: 'request', id: 'a', method: 'wave', params: {} }).success).toBe(false);
  });

  it('accepts a response whose result was undefined, as JSON writes it (no result key)', () => {
    const wire = JSON.parse(JSON.stringify(okResponse('a', undefined))) as unknown;
    expect(Response.safeParse(wire).success).toBe(true);
  });

  it('rejects error codes outside the known set', () => {
    expect(Response.safeParse({ kind: 'response', id: 'a', ok: false, error: { code: 'oops', message: 'x' } }).success).toBe(false);
  });
});
