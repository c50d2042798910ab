import type { ParamsOf, ResultOf, UiMethods } from '../../../shared/protocol';
import type { ChatDriver } from './chat-driver';

type ChatUiMethod = Extract<keyof UiMethods, `chat.${string}`>;

export type ChatUiHandlers = {
  [K in ChatUiMethod]: (params: ParamsOf<UiMethods, K>) => Promise<ResultOf<UiMethods, K>>;
};

/** The side panel's (and the tests') chat methods, each a direct call on the driver. */
export function createChatUiHandlers(chat: ChatDriver): ChatUiHandlers {
  return {
    'chat.detect': ({ tabId }) => chat.detect(tabId),
    'chat.open': ({ tabId }) => chat.open(tabId),
    'chat.read': ({ tabId }) => chat.read(tabId),
    'chat.send': ({ tabId, text }) => chat.send(tabId, text),
    'chat.wait': ({ tabId, timeoutMs, quietMs }) => chat.wait(tabId, timeoutMs ?? 30_000, quietMs ?? 800),
    'chat.choose': ({ tabId, choice }) => chat.choose(tabId, choice),
    'chat.fill': ({ tabId, form, values, submit }) => chat.fill(tabId, form ?? 0, values, submit ?? true),
    'chat.end': ({ tabId }) => chat.end(tabId),
  };
}
