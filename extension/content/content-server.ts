import { toErrorShape } from '../../shared/errors';
import {
  ContentChannel,
  errorResponse,
  okResponse,
  parseRequest,
  type ContentMethods,
  type ParamsOf,
  type ResultOf,
} from '../../shared/protocol';

export type ContentHandlers = {
  [K in keyof ContentMethods & string]: (params: ParamsOf<ContentMethods, K>) => Promise<ResultOf<ContentMethods, K>>;
};

/** Answers one background request in this frame: a typed result or a typed error, never a throw. */
export function createContentServer(handlers: ContentHandlers): (message: unknown) => Promise<unknown> {
  return async (message) => {
    const parsed = parseRequest(ContentChannel, message);
    if (!parsed.ok) return errorResponse(parsed.id, parsed.error);
    const { id, method, params } = parsed.request;
    try {
      const handler = handlers[method] as (p: unknown) => Promise<unknown>;
      return okResponse(id, await handler(params));
    } catch (error) {
      return errorResponse(id, toErrorShape(error));
    }
  };
}
