import { join } from 'node:path';
import type { AgentEnvironment, Observation } from '../../../shared/agent/environment';
import { AppError } from '../../../shared/errors';
import type { DesktopAction, DesktopActResult, DesktopFrame, DesktopScreenshotParams, DesktopScreenshotResult } from '../../../shared/protocol';

/** The part of DesktopService the agent uses; tests pass a fake. */
export interface DesktopControl {
  screenshot(params: DesktopScreenshotParams): Promise<DesktopScreenshotResult>;
  act(params: { action: DesktopAction; frame?: DesktopFrame; dryRun?: boolean; approvedSensitive?: boolean }): Promise<DesktopActResult>;
}

/** One step's screenshot as the run folder records it. */
export interface ShotRecord {
  step: number;
  pngPath: string;
  frame: DesktopFrame;
  display: { width: number; height: number; scaleFactor: number };
  fingerprint: string;
  ms: number;
}

/** The screen as the agent drives it: each observation is a screenshot; tools act in its pixels. */
export interface DesktopAgentEnvironment extends AgentEnvironment {
  act(action: DesktopAction, options: { approvedSensitive: boolean }): Promise<DesktopActResult>;
  readonly dryRun: boolean;
  /** The screenshot taken for a step, for the run folder. */
  shot(step: number): ShotRecord | undefined;
}

export interface DesktopEnvironmentOptions {
  desktop: DesktopControl;
  runDir: string;
  width: number;
  quality: number;
  displayId?: string;
  dryRun: boolean;
  now: () => number;
  /** Each step's screenshot as the model gets it, for a live view (the side panel's thumbnails). */
  onShot?: (shot: ShotRecord & { jpegBase64: string }) => void;
}

/**
 * Observations are screenshots of one display, downscaled for the model, with the full-size PNG kept in the run folder
 * as step-N.png. The text beside the image tells the model the image's size (its coordinates are in those pixels) and
 * carries the screen's fingerprint, so the loop's stagnation check sees whether an action changed anything.
 */
export function createDesktopEnvironment(options: DesktopEnvironmentOptions): DesktopAgentEnvironment {
  const shots: ShotRecord[] = [];
  let frame: DesktopFrame | undefined;
  return {
    dryRun: options.dryRun,
    shot: (step) => shots.find((s) => s.step === step),
    observe: async (): Promise<Observation> => {
      const step = shots.length;
      const pngPath = join(options.runDir, `step-${String(step + 1).padStart(3, '0')}.png`);
      const started = options.now();
      const shot = await options.desktop.screenshot({
        width: options.width,
        quality: options.quality,
        pngPath,
        ...(options.displayId === undefined ? {} : { displayId: options.displayId }),
      });
      frame = shot.frame;
      const { display } = shot;
      const record: ShotRecord = {
        step,
        pngPath,
        frame: shot.frame,
        display: { width: display.width, height: display.height, scaleFactor: display.scaleFactor },
        fingerprint: shot.fingerprint,
        ms: options.now() - started,
      };
      shots.push(record);
      options.onShot?.({ ...record, jpegBase64: shot.image.base64 });
      const text = [
        `Screenshot of display ${display.id} (${display.name}, ${display.width}x${display.height}), shown as a ${shot.frame.width}x${shot.frame.height} image.`,
        `Give every x and y in this image's pixels, from its top-left corner (x to the right, y down).`,
        `Screen fingerprint: ${shot.fingerprint}`,
        ...(options.dryRun ? ['Dry run: actions are described, not performed, so the screen will not change.'] : []),
      ].join('\n');
      return {
        url: `desktop:display-${display.id}`,
        title: `Display ${display.id}`,
        text,
        screenshot: { mediaType: shot.image.mediaType, base64: shot.image.base64 },
      };
    },
    act: (action, actOptions) => {
      const needsFrame = action.kind !== 'type' && action.kind !== 'key' && action.kind !== 'wait';
      if (needsFrame && frame === undefined) return Promise.reject(new AppError('invalid_params', 'No screenshot yet: the next step takes one.'));
      return options.desktop.act({ action, ...(frame ? { frame } : {}), dryRun: options.dryRun, approvedSensitive: actOptions.approvedSensitive });
    },
  };
}
