import type { HostMethods } from '../../shared/protocol';
import type { HandlerContext, Handlers } from './router';

type HostHandlers = Handlers<HostMethods>;

/**
 * Handlers for a group of the host's methods whose code is loaded by the first call to any of them, not when the host
 * starts: the browser's hello is answered before the desktop or shell code is read. `names` are the group's methods as
 * its protocol declares them; `load` builds the real handlers once.
 */
export function lazyHandlers<K extends keyof HostHandlers>(names: readonly K[], load: () => Promise<Pick<HostHandlers, K>>): Pick<HostHandlers, K> {
  let loaded: Promise<Pick<HostHandlers, K>> | undefined;
  const handler =
    (name: K) =>
    async (params: unknown, context: HandlerContext): Promise<unknown> => {
      const handlers = await (loaded ??= load());
      return (handlers[name] as (params: unknown, context: HandlerContext) => unknown)(params, context);
    };
  return Object.fromEntries(names.map((name) => [name, handler(name)])) as unknown as Pick<HostHandlers, K>;
}
