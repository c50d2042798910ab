import { join } from 'node:path';
import { lazyProvider as createProvider } from '../../shared/agent/providers/lazy-provider';
import { AppError } from '../../shared/errors';
import type { HostMethods } from '../../shared/protocol';
import type { Handlers } from '../host/router';
import { appPaths, currentPathEnv } from '../paths';
import { DesktopRuns, type DesktopRunsDeps } from './agent/desktop-runs';
import type { DesktopService } from './desktop-service';
import { loadSharp } from './screenshot-encoder';

type DesktopMethodNames = 'desktop.status' | 'desktop.screenshot' | 'desktop.act' | 'desktop.run' | 'desktop.answer' | 'desktop.stop';
export type DesktopHandlers = Pick<Handlers<HostMethods>, DesktopMethodNames>;

/** Where host-started desktop runs are kept, and how their model is built; tests replace both. */
export type DesktopRunOptions = Pick<DesktopRunsDeps, 'runsRoot' | 'createProvider' | 'thumbnail'>;

/** The side panel's image of a step: 240 pixels wide, a few kilobytes. */
const THUMBNAIL_WIDTH = 240;

const NOT_BUILT = 'Desktop control is not part of this host build.';

function defaultRunOptions(): DesktopRunOptions {
  return {
    runsRoot: join(appPaths(currentPathEnv()).stateDir, 'runs'),
    // Desktop tasks always send screenshots, so the model is used as one that reads images.
    createProvider: (settings) => createProvider({ ...(settings as object), vision: true } as Parameters<typeof createProvider>[0], { browser: false }),
    thumbnail: async (jpegBase64) => {
      const sharp = await loadSharp();
      const { data, info } = await sharp(Buffer.from(jpegBase64, 'base64'))
        .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
        .jpeg({ quality: 60 })
        .toBuffer({ resolveWithObject: true });
      return { mediaType: 'image/jpeg', base64: data.toString('base64'), width: info.width, height: info.height };
    },
  };
}

/**
 * The host channel's desktop methods. The first call also forwards the stop hotkey to the other side as a
 * `desktop.stopped` event, so the side panel learns at once that the user stopped the task; task runs report through
 * `desktop.task` events.
 */
export function desktopHandlers(desktop: DesktopService | undefined, runOptions: () => DesktopRunOptions = defaultRunOptions): DesktopHandlers {
  let forwarding = false;
  let runs: DesktopRuns | undefined;
  const service = (emit: (event: string, data: unknown) => void): DesktopService => {
    if (!desktop) throw new AppError('unavailable', NOT_BUILT);
    if (!forwarding) {
      forwarding = true;
      desktop.onStop((event) => emit('desktop.stopped', event));
    }
    return desktop;
  };
  const taskRuns = (emit: (event: string, data: unknown) => void): DesktopRuns => {
    const control = service(emit);
    runs ??= new DesktopRuns({ desktop: control, ...runOptions(), emit: (event) => emit('desktop.task', event), log: control.log, now: () => Date.now() });
    return runs;
  };
  return {
    'desktop.status': (params, context) => (desktop ? service(context.emit).status(params.refresh) : { available: false, reason: NOT_BUILT }),
    'desktop.screenshot': (params, context) => service(context.emit).screenshot(params),
    'desktop.act': (params, context) => service(context.emit).act(params),
    'desktop.run': async (params, context) => {
      const status = await service(context.emit).status();
      if (!status.available) throw new AppError('unavailable', `Desktop control is unavailable: ${status.reason}`);
      return taskRuns(context.emit).start(params);
    },
    'desktop.answer': (params, context) => ({ accepted: taskRuns(context.emit).answer(params) }),
    'desktop.stop': (params, context) => ({ stopped: taskRuns(context.emit).stop(params.runId) }),
  };
}
