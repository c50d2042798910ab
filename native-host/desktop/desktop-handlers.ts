import { AppError } from '../../shared/errors';
import type { HostMethods } from '../../shared/protocol';
import type { Handlers } from '../host/router';
import type { DesktopService } from './desktop-service';

type DesktopMethodNames = 'desktop.status' | 'desktop.screenshot' | 'desktop.act';
export type DesktopHandlers = Pick<Handlers<HostMethods>, DesktopMethodNames>;

/**
 * The host channel's desktop methods. The first call also forwards the stop hotkey to the other side as a
 * `desktop.stopped` event, so the side panel learns at once that the user stopped the task.
 */
export function desktopHandlers(desktop: DesktopService | undefined): DesktopHandlers {
  let forwarding = false;
  const service = (emit: (event: string, data: unknown) => void): DesktopService => {
    if (!desktop) throw new AppError('unavailable', 'Desktop control is not part of this host build.');
    if (!forwarding) {
      forwarding = true;
      desktop.onStop((event) => emit('desktop.stopped', event));
    }
    return desktop;
  };
  return {
    'desktop.status': (params, context) =>
      desktop ? service(context.emit).status(params.refresh) : { available: false, reason: 'Desktop control is not part of this host build.' },
    'desktop.screenshot': (params, context) => service(context.emit).screenshot(params),
    'desktop.act': (params, context) => service(context.emit).act(params),
  };
}
