import { z } from 'zod';
import { ErrorShape, describeZodError } from '../errors';

/**
 * A channel is declared once: its methods (params and result schemas) and its events. From that one declaration come
 * the channel's discriminated union (every message that may cross it), the staged request parser that gives precise
 * error codes, and the TypeScript types that clients and routers use.
 */
export interface MethodSpec {
  params: z.ZodType;
  result: z.ZodType;
}

export type MethodMap = Record<string, MethodSpec>;
export type EventMap = Record<string, z.ZodType>;

export const RequestId = z.string().min(1).max(128);

export type RequestOf<M extends MethodMap> = {
  [K in keyof M & string]: { kind: 'request'; id: string; method: K; params: z.infer<M[K]['params']> };
}[keyof M & string];

export type EventOf<E extends EventMap> = {
  [K in keyof E & string]: { kind: 'event'; event: K; data: z.infer<E[K]> };
}[keyof E & string];

export type ParamsOf<M extends MethodMap, K extends keyof M> = z.infer<M[K]['params']>;
/** What a caller may send: defaults are filled in when the receiver parses the params. */
export type ParamsInputOf<M extends MethodMap, K extends keyof M> = z.input<M[K]['params']>;
export type ResultOf<M extends MethodMap, K extends keyof M> = z.infer<M[K]['result']>;

export const ResponseOk = z.object({
  kind: z.literal('response'),
  id: RequestId,
  ok: z.literal(true),
  // A handler that returns nothing serializes without a result key; the method's result schema still judges it.
  result: z.unknown().optional(),
});

/** `id` is null when the request was too broken to read an id from. */
export const ResponseError = z.object({
  kind: z.literal('response'),
  id: RequestId.nullable(),
  ok: z.literal(false),
  error: ErrorShape,
});

export const Response = z.discriminatedUnion('ok', [ResponseOk, ResponseError]);
export type Response = z.infer<typeof Response>;

/**
 * One piece of a message too large for a single frame (native messaging caps messages to the browser at 1 MB).
 * The receiver joins `data` from index 0 to count-1 and parses the result as one message.
 */
export const Chunk = z.object({
  kind: z.literal('chunk'),
  stream: z.string().min(1).max(128),
  index: z.number().int().nonnegative(),
  count: z.number().int().positive().max(1024), // MAX_CHUNKS
  data: z.string(),
});
export type Chunk = z.infer<typeof Chunk>;

/** The loose outer shape of a request, read before the method is known so errors can name the id. */
export const RequestEnvelope = z.object({
  kind: z.literal('request'),
  id: RequestId,
  method: z.string().min(1).max(128),
  // Optional here so that a known method with missing params is reported as invalid_params, not as a bad envelope.
  params: z.unknown().optional(),
});

export interface Channel<M extends MethodMap, E extends EventMap> {
  readonly name: string;
  readonly methods: M;
  readonly events: E;
  /** Every request on this channel, discriminated by `method`. */
  readonly Request: z.ZodType<RequestOf<M>>;
  /** Every event on this channel, discriminated by `event`. */
  readonly Event: z.ZodType<EventOf<E>>;
  /** The channel's one discriminated union: any message that may cross it, discriminated by `kind`. */
  readonly Message: z.ZodType<RequestOf<M> | EventOf<E> | Response | Chunk>;
}

type NonEmpty<T> = [T, ...T[]];

function unionOn(key: string, options: z.ZodObject[]): z.ZodType {
  if (options.length === 0) return z.never();
  if (options.length === 1) return options[0] as z.ZodObject;
  return z.discriminatedUnion(key, options as NonEmpty<z.ZodObject>);
}

/**
 * The unions are built on first use, not when the channel is defined: a process that only routes by method (the host,
 * `deputy mcp`) does not pay at its start for wrapping every method and event of every channel in a second schema.
 */
export function defineChannel<M extends MethodMap, E extends EventMap>(
  name: string,
  methods: M,
  events: E,
): Channel<M, E> {
  const request = once(() => {
    const requests = Object.entries(methods).map(([method, spec]) =>
      z.object({ kind: z.literal('request'), id: RequestId, method: z.literal(method), params: spec.params }),
    );
    return unionOn('method', requests) as z.ZodType<RequestOf<M>>;
  });
  const event = once(() => {
    const eventObjects = Object.entries(events).map(([eventName, data]) =>
      z.object({ kind: z.literal('event'), event: z.literal(eventName), data }),
    );
    return unionOn('event', eventObjects) as z.ZodType<EventOf<E>>;
  });
  const message = once(() => z.union([request(), event(), Response, Chunk]));
  return {
    name,
    methods,
    events,
    get Request() {
      return request();
    },
    get Event() {
      return event();
    },
    get Message() {
      return message();
    },
  };
}

/** `build`'s value, built by the first call and kept. */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

export type ParsedRequest<M extends MethodMap> =
  | { ok: true; request: RequestOf<M> }
  | { ok: false; id: string | null; error: ErrorShape };

/**
 * Parses an incoming request in stages so the error says what was wrong: not a request at all (bad_request), a method
 * this channel does not have (unknown_method), or params of the wrong shape (invalid_params).
 */
export function parseRequest<M extends MethodMap, E extends EventMap>(
  channel: Channel<M, E>,
  message: unknown,
): ParsedRequest<M> {
  const envelope = RequestEnvelope.safeParse(message);
  if (!envelope.success) {
    const id = readId(message);
    return {
      ok: false,
      id,
      error: { code: 'bad_request', message: `Not a ${channel.name} request: ${describeZodError(envelope.error)}` },
    };
  }
  const { id, method, params } = envelope.data;
  const spec = Object.hasOwn(channel.methods, method) ? channel.methods[method] : undefined;
  if (!spec) {
    const known = Object.keys(channel.methods).join(', ');
    return {
      ok: false,
      id,
      error: { code: 'unknown_method', message: `Unknown method "${method.slice(0, 64)}"; this ${channel.name} channel has: ${known}` },
    };
  }
  const parsed = spec.params.safeParse(params);
  if (!parsed.success) {
    return {
      ok: false,
      id,
      error: { code: 'invalid_params', message: `Invalid params for ${method}: ${describeZodError(parsed.error)}` },
    };
  }
  return { ok: true, request: { kind: 'request', id, method, params: parsed.data } as RequestOf<M> };
}

function readId(message: unknown): string | null {
  if (typeof message !== 'object' || message === null || !('id' in message)) return null;
  const id = RequestId.safeParse(message.id);
  return id.success ? id.data : null;
}

export function okResponse(id: string, result: unknown): z.infer<typeof ResponseOk> {
  return { kind: 'response', id, ok: true, result };
}

export function errorResponse(id: string | null, error: ErrorShape): z.infer<typeof ResponseError> {
  return { kind: 'response', id, ok: false, error };
}
