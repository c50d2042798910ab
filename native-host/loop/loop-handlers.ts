import { AppError } from '../../shared/errors';
import type { HostMethods } from '../../shared/protocol';
import type { Handlers } from '../host/router';
import type { LoopManager } from './loop-manager';

type LoopMethodNames = 'loop.start' | 'loop.status' | 'loop.stop' | 'loop.describe' | 'loop.describeCancel';

const unavailable = (): never => {
  throw new AppError('unavailable', 'The fix loop is not available in this host');
};

/** The host methods that start, watch and stop fix loops; each loop's events go out as `loop.event`. */
export function loopHandlers(manager: LoopManager | undefined): Pick<Handlers<HostMethods>, LoopMethodNames> {
  if (!manager) return { 'loop.start': unavailable, 'loop.status': unavailable, 'loop.stop': unavailable, 'loop.describe': unavailable, 'loop.describeCancel': unavailable };
  return {
    'loop.describe': async (params) => (await import('./describe-from-panel')).describeFromPanel(params),
    'loop.describeCancel': async (params) => ({ cancelled: (await import('./panel-drafts')).panelDrafts.cancel(params.draftId) }),
    'loop.start': (params, context) => manager.start(params, (event) => context.emit('loop.event', event)),
    'loop.status': (params) => ({ loops: manager.status(params.loopId) }),
    'loop.stop': (params) => manager.stop(params.loopId),
  };
}
