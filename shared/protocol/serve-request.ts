import { toErrorShape } from '../errors';
import { errorResponse, okResponse, parseRequest, type Channel, type EventMap, type MethodMap, type ParamsOf, type ResultOf } from './channel';

/** One async handler per method of a channel, taking parsed params and returning the method's result. */
export type ChannelHandlers<M extends MethodMap> = {
  [K in keyof M & string]: (params: ParamsOf<M, K>) => Promise<ResultOf<M, K>>;
};

/**
 * Answers one incoming message on a channel: parses it, runs the method's handler, and turns any failure into a typed
 * error reply. It never throws, so a bad message from one sender cannot take the receiver down.
 */
export async function serveRequest<M extends MethodMap, E extends EventMap>(
  channel: Channel<M, E>,
  handlers: ChannelHandlers<M>,
  message: unknown,
): Promise<unknown> {
  const parsed = parseRequest(channel, message);
  if (!parsed.ok) return errorResponse(parsed.id, parsed.error);
  const { id, method, params } = parsed.request;
  try {
    const handler = handlers[method] as (p: unknown) => Promise<unknown>;
    return okResponse(id, await handler(params));
  } catch (error) {
    return errorResponse(id, toErrorShape(error));
  }
}
