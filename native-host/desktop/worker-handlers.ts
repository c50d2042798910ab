import { AppError } from '../../shared/errors';
import type { DesktopDisplay } from '../../shared/protocol';
import type { Handlers } from '../host/router';
import type { DesktopDriver } from './desktop-driver';
import { validatePolicy, type DesktopPolicy } from './desktop-policy';
import { formatKeyChord, parseKeyChord, type KeyName } from './key-chord';
import { performAction } from './perform-action';
import { drawClickMarker, encodeForModel, screenFingerprint, toRgba, writeFullPng, type Sharp } from './screenshot-encoder';
import type { DesktopWorkerMethods } from './worker-channel';

export interface WorkerDeps {
  driver: DesktopDriver;
  sharp: Sharp;
  platform: NodeJS.Platform;
  /** Starts the global stop-hotkey listener; resolves with why it could not, or undefined once it runs. */
  listenForHotkey: (chord: string, onStop: () => void) => Promise<string | undefined>;
  emit: (event: 'stopped', data: { hotkey: string; at: number }) => void;
  flagsSensitive: (text: string) => boolean;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  onPngError?: (path: string, error: unknown) => void;
}

/**
 * The desktop worker's methods. Actions in flight share one abort controller per call; the stop hotkey and `cancel`
 * abort them all at once, so a long text stops being typed mid-word.
 */
export function workerHandlers(deps: WorkerDeps): Handlers<DesktopWorkerMethods> & { flush(): Promise<void> } {
  let policy: DesktopPolicy | undefined;
  let stopChord: KeyName[] = [];
  let displays: DesktopDisplay[] = [];
  const running = new Set<AbortController>();
  const pngWrites = new Set<Promise<void>>();

  // The full-size PNG is written beside the reply, not before it: the model's image is what the next step waits for.
  // flush() (on shutdown) waits for the writes still going.
  const keepPng = (rgba: Parameters<typeof writeFullPng>[1], path: string): void => {
    const write = writeFullPng(deps.sharp, rgba, path).catch((error: unknown) => deps.onPngError?.(path, error));
    pngWrites.add(write);
    void write.finally(() => pngWrites.delete(write));
  };

  const cancelAll = (): number => {
    const count = running.size;
    for (const controller of running) controller.abort(new AppError('cancelled', 'Stopped by the user'));
    return count;
  };

  const refreshDisplays = async (): Promise<DesktopDisplay[]> => {
    displays = await deps.driver.displays();
    if (displays.length === 0) throw new AppError('unavailable', 'The screen reports no displays.');
    return displays;
  };

  const displayFor = async (id: string | undefined): Promise<DesktopDisplay> => {
    if (displays.length === 0) await refreshDisplays();
    const pick = (): DesktopDisplay | undefined => (id === undefined ? (displays.find((d) => d.primary) ?? displays[0]) : displays.find((d) => d.id === id));
    const found = pick() ?? (await refreshDisplays(), pick());
    if (!found) throw new AppError('not_found', `No display "${id}"; the displays are ${displays.map((d) => d.id).join(', ')}.`);
    return found;
  };

  return {
    init: async (params) => {
      validatePolicy(params.policy);
      policy = params.policy;
      stopChord = parseKeyChord(params.stopHotkey);
      const hotkey = formatKeyChord(stopChord);
      await refreshDisplays();
      const problem = params.listenForHotkey
        ? await deps.listenForHotkey(params.stopHotkey, () => {
            cancelAll();
            deps.emit('stopped', { hotkey, at: deps.now() });
          })
        : 'The stop hotkey was not requested.';
      return {
        platform: deps.platform,
        displays,
        stopHotkey: hotkey,
        stopHotkeyActive: problem === undefined,
        ...(problem === undefined ? {} : { hotkeyProblem: problem }),
      };
    },
    displays: () => refreshDisplays(),
    screenshot: async (params) => {
      const display = await displayFor(params.displayId);
      const started = deps.now();
      const rgba = toRgba(await deps.driver.capture(display));
      const captured = deps.now();
      // The fingerprint is the screen's own: taken before the click marker is drawn on the images.
      const fingerprint = screenFingerprint(rgba);
      if (params.marker) {
        const { x, y, frame } = params.marker;
        drawClickMarker(rgba, { x: (x * rgba.width) / frame.width, y: (y * rgba.height) / frame.height });
      }
      if (params.pngPath !== undefined) keepPng(rgba, params.pngPath);
      const image = await encodeForModel(deps.sharp, rgba, { width: params.width, quality: params.quality, maxBytes: params.maxBytes });
      return {
        display,
        frame: { displayId: display.id, width: image.width, height: image.height },
        image: { mediaType: 'image/jpeg', base64: image.jpeg.toString('base64'), bytes: image.jpeg.length },
        captured: { width: rgba.width, height: rgba.height },
        fingerprint,
        ...(params.pngPath === undefined ? {} : { pngPath: params.pngPath }),
        timings: { captureMs: captured - started, encodeMs: deps.now() - captured },
      };
    },
    act: async (params) => {
      if (!policy) throw new AppError('unavailable', 'The desktop worker was not initialised.');
      const display = await displayFor(params.frame?.displayId);
      const controller = new AbortController();
      running.add(controller);
      try {
        return await performAction(
          { ...params, display, signal: controller.signal },
          { driver: deps.driver, policy, flagsSensitive: deps.flagsSensitive, platform: deps.platform, stopChord, sleep: deps.sleep, now: deps.now },
        );
      } catch (error) {
        if (controller.signal.aborted) throw new AppError('cancelled', 'The action was stopped by the user before it finished.');
        throw error;
      } finally {
        running.delete(controller);
      }
    },
    cancel: () => ({ cancelled: cancelAll() }),
    flush: async () => {
      await Promise.all([...pngWrites]);
    },
  };
}
