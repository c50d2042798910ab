import { AppError, toErrorShape } from '../../shared/errors';
import {
  errorResponse,
  okResponse,
  parseRequest,
  type Channel,
  type EventMap,
  type MethodMap,
  type ParamsOf,
  type ResultOf,
} from '../../shared/protocol';
import type { Logger } from '../log/logger';
import { parseBody } from './parse-body';

export { parseBody };

export interface HandlerContext {
  log: Logger;
  /** Sends an event to the other side, outside any request/response pair. */
  emit: (event: string, data: unknown) => void;
}

export type Handlers<M extends MethodMap> = {
  [K in keyof M & string]: (params: ParamsOf<M, K>, context: HandlerContext) => Promise<ResultOf<M, K>> | ResultOf<M, K>;
};

/**
 * Turns one frame body into exactly one reply: a result, or a typed error that names what was wrong. It never throws:
 * a handler's failure becomes an error reply and the host keeps serving.
 */
export function createRouter<M extends MethodMap, E extends EventMap>(
  channel: Channel<M, E>,
  handlers: Handlers<M>,
  context: HandlerContext,
): (body: Buffer) => Promise<unknown> {
  const route = createMessageRouter(channel, handlers, context);
  return async (body) => {
    const message = parseBody(body);
    if (!message.ok) {
      context.log.warn('bad json', { bytes: body.length, error: message.error.slice(0, 120) });
      return errorResponse(null, {
        code: 'bad_json',
        message: `Frame of ${body.length} bytes is not valid UTF-8 JSON; each frame must hold one JSON message`,
      });
    }
    return route(message.value);
  };
}

/** Like createRouter, for a message already parsed from JSON (the host reads responses and chunks on the same stream). */
export function createMessageRouter<M extends MethodMap, E extends EventMap>(
  channel: Channel<M, E>,
  handlers: Handlers<M>,
  context: HandlerContext,
): (message: unknown) => Promise<unknown> {
  return async (message) => {
    const parsed = parseRequest(channel, message);
    if (!parsed.ok) {
      context.log.warn('rejected message', { code: parsed.error.code, id: parsed.id });
      return errorResponse(parsed.id, parsed.error);
    }
    const { id, method, params } = parsed.request;
    const started = Date.now();
    try {
      const handler = handlers[method] as (p: unknown, c: HandlerContext) => unknown;
      const result = await handler(params, context);
      context.log.debug('handled', { method, id, ms: Date.now() - started });
      return okResponse(id, result);
    } catch (error) {
      const shape = toErrorShape(error);
      const level = error instanceof AppError ? 'warn' : 'error';
      context.log[level]('handler failed', { method, id, code: shape.code, message: shape.message });
      return errorResponse(id, shape);
    }
  };
}
