import { z } from 'zod';
import {
  DesktopActParams,
  DesktopActResult,
  DesktopDisplay,
  DesktopScreenshotParams,
  DesktopScreenshotResult,
  DesktopStoppedEvent,
  defineChannel,
} from '../../shared/protocol';
import { DesktopPolicy } from './desktop-policy';

/**
 * The host <-> desktop worker channel, over the child's IPC pipe. The worker is the only process that loads nut-js and
 * the keyboard hook, so a lost X server or a native crash ends the worker and never the host.
 */
export const DesktopWorkerChannel = defineChannel(
  'desktop-worker',
  {
    init: {
      params: z.object({ policy: DesktopPolicy, stopHotkey: z.string(), listenForHotkey: z.boolean() }),
      result: z.object({
        platform: z.string(),
        displays: z.array(DesktopDisplay).min(1),
        stopHotkey: z.string(),
        stopHotkeyActive: z.boolean(),
        /** Why the hotkey listener did not start, when it did not. */
        hotkeyProblem: z.string().optional(),
      }),
    },
    displays: { params: z.object({}), result: z.array(DesktopDisplay).min(1) },
    screenshot: {
      params: DesktopScreenshotParams.extend({ maxBytes: z.number().int().positive() }),
      result: DesktopScreenshotResult,
    },
    act: { params: DesktopActParams, result: DesktopActResult },
    /** Cuts off every action in progress, as the stop hotkey does. */
    cancel: { params: z.object({}), result: z.object({ cancelled: z.number().int() }) },
  },
  { stopped: DesktopStoppedEvent },
);
export type DesktopWorkerMethods = (typeof DesktopWorkerChannel)['methods'];
