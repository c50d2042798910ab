import type { HelloParams } from '../../shared/protocol/hello-protocol';

const CLIENTS: ReadonlySet<string> = new Set(['extension', 'cli', 'test']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown, min: number, max: number): value is string => typeof value === 'string' && value.length >= min && value.length <= max;

/**
 * The browser's hello read by hand, so the early answer (early-hello.ts) needs no schema library: zod is most of what
 * the host would otherwise load before it answers. It accepts no more than the router's schemas do (RequestEnvelope,
 * then HelloMethod.params; tests/unit/native-host/host/hello-check.test.ts holds the two side by side); anything it
 * does not accept is left to the full router, which answers it with its usual error.
 */
export function readHello(value: unknown): { id: string; params: HelloParams } | undefined {
  if (!isRecord(value) || value.kind !== 'request' || value.method !== 'hello' || !textOf(value.id, 1, 128)) return undefined;
  const params = value.params;
  if (!isRecord(params)) return undefined;
  const { protocolVersion, client, clientVersion } = params;
  if (typeof protocolVersion !== 'number' || !Number.isSafeInteger(protocolVersion) || protocolVersion <= 0) return undefined;
  if (typeof client !== 'string' || !CLIENTS.has(client) || !textOf(clientVersion, 0, 64)) return undefined;
  return { id: value.id, params: { protocolVersion, client: client as HelloParams['client'], clientVersion } };
}
