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
  /** Sends the next observation's image even when the screen has not changed (the model asked to see it). */
  showNextImage(): void;
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
  /**
   * While the model only waits for the screen to change, leave out an image identical to the last one it was sent
   * (same fingerprint), with a note instead; default true. After any other step the image is sent, unchanged or not:
   * the model keeps one screenshot in view, and it needs it to act.
   */
  skipUnchanged?: boolean;
  /** Draw a ring where the last click landed on the next screenshot (the model's image and the PNG); default true. */
  markClicks?: boolean;
}

/** Unchanged screens in a row after which the image is sent anyway, so the model never works long from memory. */
export const RESEND_UNCHANGED_AFTER = 3;

const CLICKS = new Set(['click', 'double_click', 'right_click']);

/**
 * Observations are screenshots of one display, downscaled for the model, with the full-size PNG kept in the run folder
 * as step-N.png. The text beside the image tells the model the image's size (its coordinates are in those pixels) and
 * carries the screen's fingerprint, so the loop's stagnation check sees whether an action changed anything.
 */
export function createDesktopEnvironment(options: DesktopEnvironmentOptions): DesktopAgentEnvironment {
  const shots: ShotRecord[] = [];
  let frame: DesktopFrame | undefined;
  /** The last image the model was sent: its screen's fingerprint, its step and the frame its coordinates are in. */
  let lastSent: { fingerprint: string; step: number; frame: DesktopFrame } | undefined;
  let unchangedInRow = 0;
  let forceImage = false;
  /** What the model did since the last image it was sent: only waits (so it has seen this screen and is waiting). */
  let since = { waited: false, other: false };
  let lastClick: { x: number; y: number; frame: DesktopFrame } | undefined;
  return {
    dryRun: options.dryRun,
    shot: (step) => shots.find((s) => s.step === step),
    showNextImage: () => {
      forceImage = true;
    },
    observe: async (): Promise<Observation> => {
      const step = shots.length;
      const pngPath = join(options.runDir, `step-${String(step + 1).padStart(3, '0')}.png`);
      const started = options.now();
      const click = options.markClicks === false ? undefined : lastClick;
      lastClick = undefined;
      const shot = await options.desktop.screenshot({
        width: options.width,
        quality: options.quality,
        pngPath,
        ...(options.displayId === undefined ? {} : { displayId: options.displayId }),
        ...(click ? { marker: { x: click.x, y: click.y, frame: { width: click.frame.width, height: click.frame.height } } } : {}),
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
      // The model only waited, and the screen is the one it was last sent (in the same frame, so its coordinates still
      // hold): a note instead of the same picture again, up to a few steps in a row, unless the model asked to see it.
      const unchanged =
        options.skipUnchanged !== false &&
        !forceImage &&
        since.waited &&
        !since.other &&
        lastSent !== undefined &&
        lastSent.fingerprint === shot.fingerprint &&
        unchangedInRow < RESEND_UNCHANGED_AFTER &&
        lastSent.frame.width === shot.frame.width &&
        lastSent.frame.height === shot.frame.height;
      forceImage = false;
      since = { waited: false, other: false };
      if (unchanged) {
        unchangedInRow += 1;
      } else {
        unchangedInRow = 0;
        lastSent = { fingerprint: shot.fingerprint, step, frame: shot.frame };
      }
      const text = [
        `Screenshot of display ${display.id} (${display.name}, ${display.width}x${display.height}), shown as a ${shot.frame.width}x${shot.frame.height} image.`,
        `Give every x and y in this image's pixels, from its top-left corner (x to the right, y down).`,
        `Screen fingerprint: ${shot.fingerprint}`,
        ...(click && !unchanged ? [`A red ring marks where your last click landed, at (${Math.round(click.x)}, ${Math.round(click.y)}).`] : []),
        ...(unchanged && lastSent
          ? [
              `The screen is unchanged since the screenshot of step ${lastSent.step + 1} (same fingerprint), so no new image is attached. Call show_screen to see it again.`,
            ]
          : []),
        ...(options.dryRun ? ['Dry run: actions are described, not performed, so the screen will not change.'] : []),
      ].join('\n');
      return {
        url: `desktop:display-${display.id}`,
        title: `Display ${display.id}`,
        text,
        // The screen itself decides whether a step changed anything, not the notes around its image.
        changeKey: shot.fingerprint,
        ...(unchanged ? {} : { screenshot: { mediaType: shot.image.mediaType, base64: shot.image.base64 } }),
      };
    },
    act: (action, actOptions) => {
      const needsFrame = action.kind !== 'type' && action.kind !== 'key' && action.kind !== 'wait';
      if (needsFrame && frame === undefined) return Promise.reject(new AppError('invalid_params', 'No screenshot yet: the next step takes one.'));
      if (frame && CLICKS.has(action.kind) && 'x' in action && 'y' in action) lastClick = { x: action.x, y: action.y, frame };
      if (action.kind === 'wait') since.waited = true;
      else since.other = true;
      return options.desktop.act({ action, ...(frame ? { frame } : {}), dryRun: options.dryRun, approvedSensitive: actOptions.approvedSensitive });
    },
  };
}
