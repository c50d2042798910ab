import { hostPassthroughEvents, hostPassthroughMethods, type HostPassthroughEvent, type HostPassthroughMethod } from '../../../shared/protocol';
import type { HostConnection } from './host-connection';
import type { UiHandlers } from '../ui/ui-server';

type PassthroughHandlers = Pick<UiHandlers, HostPassthroughMethod>;

/** Loop and desktop calls from the side panel, forwarded to the host unchanged (the host validates them again). */
export function createHostPassthroughHandlers(host: Pick<HostConnection, 'call'>): PassthroughHandlers {
  const forward = <K extends HostPassthroughMethod>(method: K) =>
    ((params: Parameters<PassthroughHandlers[K]>[0]) => host.call(method, params as never)) as PassthroughHandlers[K];
  const handlers = {} as Record<HostPassthroughMethod, unknown>;
  for (const method of Object.keys(hostPassthroughMethods) as HostPassthroughMethod[]) handlers[method] = forward(method);
  return handlers as PassthroughHandlers;
}

/** True for host events every open panel should see (loop progress, desktop task progress). */
export function isPassthroughEvent(event: string): event is HostPassthroughEvent {
  return Object.hasOwn(hostPassthroughEvents, event);
}
