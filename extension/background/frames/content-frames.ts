import { AppError } from '../../../shared/errors';
import { ContentChannel, RpcClient, type ContentMethods, type ParamsOf, type ResultOf, type UiMethods } from '../../../shared/protocol';

export interface FramePorts {
  listFrames(tabId: number): Promise<number[]>;
  sendToFrame(tabId: number, frameId: number, message: unknown): Promise<unknown>;
}

/** Calls one content-channel method in one frame and validates the reply against the channel's declaration. */
export async function callFrame<K extends keyof ContentMethods & string>(
  ports: FramePorts,
  tabId: number,
  frameId: number,
  method: K,
  params: ParamsOf<ContentMethods, K>,
  timeoutMs = 5000,
): Promise<ResultOf<ContentMethods, K>> {
  let reply: Promise<unknown> | undefined;
  const client = new RpcClient(ContentChannel, {
    send: (message) => {
      reply = ports.sendToFrame(tabId, frameId, message);
    },
    timeoutMs,
    idPrefix: 'bg',
  });
  const result = client.call(method, params);
  reply?.then(
    (message) => {
      if (!client.receive(message)) client.rejectAll(new AppError('bad_request', `Frame ${frameId} gave no valid reply`));
    },
    (error: unknown) => client.rejectAll(new AppError('unavailable', `Frame ${frameId} cannot be reached: ${String(error)}`)),
  );
  return result;
}

/** Pings the content script in every frame of a tab; frames that cannot answer are left out. */
export async function pingFrames(ports: FramePorts, tabId: number): Promise<ResultOf<UiMethods, 'content.ping'>> {
  const frameIds = await ports.listFrames(tabId);
  const replies = await Promise.allSettled(
    frameIds.map(async (frameId) => ({ frameId, ...(await callFrame(ports, tabId, frameId, 'ping', {})) })),
  );
  const frames = replies.flatMap((reply) =>
    reply.status === 'fulfilled'
      ? [{ frameId: reply.value.frameId, url: reply.value.url, top: reply.value.top, title: reply.value.title }]
      : [],
  );
  return { frames };
}
