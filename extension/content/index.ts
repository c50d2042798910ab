import { closedShadowRootOf } from '../platform/closed-shadow-root';
import { onBackgroundRequest } from '../platform/content-bridge';
import { frameIdOf, openOrClosedShadowRoot } from '../platform/page-dom';
import { createChatHandlers } from './chat/chat-handlers';
import { createContentServer } from './content-server';
import { frameInfo } from './frame-info';
import { createPerceptionHandlers } from './perception-handlers';

// Entry of the content script, which runs in every frame of every page: it only wires.
const serve = createContentServer({
  ping: () => Promise.resolve(frameInfo(window)),
  ...createChatHandlers({
    doc: document,
    shadowRootOf: openOrClosedShadowRoot,
    frameIdOf,
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }),
  ...createPerceptionHandlers({ win: window, shadowRootOf: closedShadowRootOf, randomId: () => crypto.randomUUID() }),
});
onBackgroundRequest((message) => serve(message));
