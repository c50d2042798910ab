import { describe, expect, it } from 'vitest';
import { RequestEnvelope } from '../../../../shared/protocol/channel';
import { HelloMethod } from '../../../../shared/protocol/hello-protocol';
import { readHello } from '../../../../native-host/host/hello-check';

/** What the full router accepts as a hello: its envelope schema, then hello's params schema (zod). */
function routerHello(value: unknown): { id: string; params: unknown } | undefined {
  const envelope = RequestEnvelope.safeParse(value);
  if (!envelope.success || envelope.data.method !== 'hello') return undefined;
  const params = HelloMethod.params.safeParse(envelope.data.params);
  return params.success ? { id: envelope.data.id, params: params.data } : undefined;
}

const VALID = { kind: 'request', id: 'h1', method: 'hello', params: { protocolVersion: 1, client: 'extension', clientVersion: '0.1.0' } };

// Each field of the hello, and of its params, given every sort of value: the hand check and the schemas must agree on
// every combination of one changed field (and on the whole message replaced).
const VALUES: unknown[] = [
  undefined, null, true, 0, 1, -1, 2, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 2 ** 53 - 1, -0,
  '', 'a', 'x'.repeat(64), 'x'.repeat(65), 'x'.repeat(128), 'x'.repeat(129), 'hello', 'request', 'response', 'extension', 'cli', 'test', 'Extension', '1',
  [], ['hello'], {}, { protocolVersion: 1 },
];
const ENVELOPE_KEYS = ['kind', 'id', 'method', 'params', 'extra'] as const;
const PARAM_KEYS = ['protocolVersion', 'client', 'clientVersion', 'extra'] as const;

function cases(): unknown[] {
  const all: unknown[] = [VALID, ...VALUES];
  for (const key of ENVELOPE_KEYS) {
    for (const value of VALUES) all.push({ ...VALID, [key]: value });
    const { [key]: _dropped, ...rest } = VALID as Record<string, unknown>;
    all.push(rest);
  }
  for (const key of PARAM_KEYS) {
    for (const value of VALUES) all.push({ ...VALID, params: { ...VALID.params, [key]: value } });
    const { [key]: _dropped, ...rest } = VALID.params as Record<string, unknown>;
    all.push({ ...VALID, params: rest });
  }
  for (const protocolVersion of [1, 2, 99]) for (const client of ['extension', 'cli', 'test']) all.push({ ...VALID, params: { protocolVersion, client, clientVersion: '' } });
  return all;
}

describe('the early hello check by hand', () => {
  it('accepts exactly what the router schemas accept, with the same id and params', () => {
    const matrix = cases();
    expect(matrix.length).toBeGreaterThan(250);
    let accepted = 0;
    for (const value of matrix) {
      const byHand = readHello(value);
      const bySchema = routerHello(value);
      expect({ value, byHand: byHand !== undefined }).toEqual({ value, byHand: bySchema !== undefined });
      if (byHand && bySchema) {
        accepted += 1;
        expect(byHand.id).toBe(bySchema.id);
        expect(byHand.params).toEqual(bySchema.params);
      }
    }
    expect(accepted).toBeGreaterThan(10);
  });
});
