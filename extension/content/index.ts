import { closedShadowRootOf } from '../platform/closed-shadow-root';
import { askBackground, onBackgroundRequest } from '../platform/content-bridge';
import { frameIdOf, openOrClosedShadowRoot } from '../platform/page-dom';
import { createChatHandlers } from './chat/chat-handlers';
import { createContentServer } from './content-server';
import { frameInfo } from './frame-info';
import { createPerceptionHandlers } from './perception-handlers';

// Entry of the content script, which runs in every frame of every page: it only wires.
// crypto.randomUUID exists only in secure contexts; in a plain http:// page the content script has getRandomValues alone.
const randomId = (): string => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
const serve = createContentServer({
  ping: () => Promise.resolve(frameInfo(window)),
  ...createChatHandlers({
    doc: document,
    shadowRootOf: openOrClosedShadowRoot,
    frameIdOf,
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }),
  ...createPerceptionHandlers({ win: window, shadowRootOf: closedShadowRootOf, randomId, ask: askBackground }),
});
onBackgroundRequest((message) => serve(message));
