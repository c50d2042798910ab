import type { ContentMethods, ParamsOf, ResultOf } from '../../shared/protocol';
import { FrameKeys } from './frame-keys';
import type { DomAccess } from './perception/dom-access';
import { ListenerMarks } from './perception/listener-marks';
import { PageSession } from './page-session';

type Handler<K extends keyof ContentMethods> = (params: ParamsOf<ContentMethods, K>) => Promise<ResultOf<ContentMethods, K>>;

export interface PerceptionDeps {
  win: Window;
  shadowRootOf: (el: Element) => ShadowRoot | null;
  randomId: () => string;
  /** Sends a request to the background and returns its reply. */
  ask: (message: unknown) => Promise<unknown>;
}

/**
 * The content channel's perception methods for this frame: snapshot, act and find, over one page session. A child
 * frame is named to the background by its origin and a key of its own (Chrome gives content scripts no frame id for an
 * iframe; frame-keys.ts).
 */
export function createPerceptionHandlers(deps: PerceptionDeps): {
  snapshot: Handler<'snapshot'>;
  act: Handler<'act'>;
  effect: Handler<'effect'>;
  find: Handler<'find'>;
  highlight: Handler<'highlight'>;
  settle: Handler<'settle'>;
  frameBox: Handler<'frameBox'>;
} {
  const keys = new FrameKeys(deps.randomId);
  keys.listen(deps.win);
  const marks = new ListenerMarks();
  marks.listen(deps.win);
  const access: DomAccess = {
    shadowRootOf: deps.shadowRootOf,
    frameKeyOf: (frame) => keys.keyOf(frame),
    listens: (el) => marks.has(el),
    listenersKnown: () => marks.known(),
    delegates: (el) => marks.delegates(el),
    holdsListener: (el) => marks.holdsAny(el),
  };
  const session = new PageSession({ win: deps.win, access, frameKey: () => keys.ownKey, token: deps.randomId(), ask: deps.ask, randomId: deps.randomId });
  return {
    snapshot: (params) => Promise.resolve(session.snapshot(params)),
    act: (params) => session.act(params),
    effect: (params) => Promise.resolve(session.effect(params)),
    find: (params) => Promise.resolve(session.find(params)),
    highlight: (params) => Promise.resolve(session.highlight(params)),
    settle: (params) => session.settle(params),
    frameBox: (params) => Promise.resolve(session.frameBox(params, keys)),
  };
}
