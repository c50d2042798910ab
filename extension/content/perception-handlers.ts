import type { ContentMethods, ParamsOf, ResultOf } from '../../shared/protocol';
import { FrameKeys } from './frame-keys';
import type { DomAccess } from './perception/dom-access';
import { PageSession } from './page-session';

type Handler<K extends keyof ContentMethods> = (params: ParamsOf<ContentMethods, K>) => Promise<ResultOf<ContentMethods, K>>;

export interface PerceptionDeps {
  win: Window;
  shadowRootOf: (el: Element) => ShadowRoot | null;
  randomId: () => string;
}

/**
 * The content channel's perception methods for this frame: snapshot, act and find, over one page session. A child
 * frame is named to the background by a key posted to it (Chrome gives content scripts no frame id for an iframe).
 */
export function createPerceptionHandlers(deps: PerceptionDeps): {
  snapshot: Handler<'snapshot'>;
  act: Handler<'act'>;
  effect: Handler<'effect'>;
  find: Handler<'find'>;
  highlight: Handler<'highlight'>;
  settle: Handler<'settle'>;
} {
  const keys = new FrameKeys(deps.randomId);
  keys.listen(deps.win);
  const access: DomAccess = { shadowRootOf: deps.shadowRootOf, frameKeyOf: (frame) => keys.keyOf(frame) };
  const session = new PageSession({ win: deps.win, access, frameKey: () => keys.ownKey, token: deps.randomId() });
  return {
    snapshot: (params) => Promise.resolve(session.snapshot(params)),
    act: (params) => session.act(params),
    effect: (params) => Promise.resolve(session.effect(params)),
    find: (params) => Promise.resolve(session.find(params)),
    highlight: (params) => Promise.resolve(session.highlight(params)),
    settle: (params) => session.settle(params),
  };
}
