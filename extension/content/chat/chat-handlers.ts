import type { ContentMethods, ParamsOf, ResultOf } from '../../../shared/protocol';
import { ChatFrame } from './chat-frame';
import type { ShadowRootOf } from './deep-query';
import { probeFrame } from './frame-probe';
import { VENDOR_PROFILES } from './vendor-profiles';

type ChatMethod = Extract<keyof ContentMethods, `chat.${string}`>;

export type ChatHandlers = {
  [K in ChatMethod]: (params: ParamsOf<ContentMethods, K>) => Promise<ResultOf<ContentMethods, K>>;
};

export interface ChatHandlerDeps {
  doc: Document;
  shadowRootOf: ShadowRootOf;
  frameIdOf: (frame: HTMLIFrameElement | HTMLFrameElement) => number | null;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** The content-channel chat methods of one frame, for the content entry to wire. */
export function createChatHandlers(deps: ChatHandlerDeps): ChatHandlers {
  const frame = new ChatFrame(deps);
  return {
    'chat.probe': () => Promise.resolve(probeFrame({ ...deps, profiles: VENDOR_PROFILES })),
    'chat.launch': ({ vendor }) => Promise.resolve(frame.launch(vendor)),
    'chat.read': ({ vendor }) => Promise.resolve(frame.read(vendor)),
    'chat.send': ({ vendor, text }) => frame.send(vendor, text),
    'chat.wait': ({ vendor, baseline, timeoutMs, quietMs }) => frame.wait(vendor, baseline, timeoutMs, quietMs),
    'chat.choose': ({ vendor, choice }) => frame.choose(vendor, choice),
    'chat.fill': ({ vendor, form, values, submit }) => frame.fill(vendor, form, values, submit),
  };
}
