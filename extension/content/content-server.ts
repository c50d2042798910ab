import { ContentChannel, type ContentMethods } from '../../shared/protocol/content-channel';
import { type ChannelHandlers, serveRequest } from '../../shared/protocol/serve-request';

export type ContentHandlers = ChannelHandlers<ContentMethods>;

/** Answers one background request in this frame: a typed result or a typed error, never a throw. */
export function createContentServer(handlers: ContentHandlers): (message: unknown) => Promise<unknown> {
  return (message) => serveRequest(ContentChannel, handlers, message);
}
