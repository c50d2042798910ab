import { AppError } from '../../shared/errors';
import type { DesktopDisplay, DesktopFrame } from '../../shared/protocol';

export interface ScreenPoint {
  x: number;
  y: number;
}

/**
 * Maps a point in the pixels of the screenshot the model saw to the screen's logical pixels, which is what the mouse
 * uses. The screenshot may be downscaled for the model and the capture itself may be in physical pixels (twice the
 * logical size on a 200% display), so the mapping goes from the frame straight to the display's logical bounds and
 * never through the capture's size. Points on the far edge land on the last pixel, not beyond the display.
 */
export function mapToScreen(point: ScreenPoint, frame: DesktopFrame, display: DesktopDisplay): ScreenPoint {
  if (frame.displayId !== display.id) {
    throw new AppError(
      'invalid_params',
      `The coordinates refer to a screenshot of display ${frame.displayId}, but display ${display.id} is being controlled; take a new screenshot.`,
    );
  }
  const outside = point.x < 0 || point.y < 0 || point.x > frame.width || point.y > frame.height;
  if (outside) {
    throw new AppError(
      'invalid_params',
      `Point (${point.x}, ${point.y}) is outside the ${frame.width}x${frame.height} screenshot; use coordinates inside the image.`,
    );
  }
  // A screenshot pixel covers several screen pixels when the image is downscaled; aim at the middle of them.
  const x = display.x + Math.min(display.width - 1, Math.floor(((point.x + 0.5) * display.width) / frame.width));
  const y = display.y + Math.min(display.height - 1, Math.floor(((point.y + 0.5) * display.height) / frame.height));
  return { x, y };
}

/** The size of the model's image for a display: `width` wide at the display's aspect ratio, never upscaled. */
export function frameSize(capture: { width: number; height: number }, width: number): { width: number; height: number } {
  const target = Math.min(width, capture.width);
  return { width: target, height: Math.max(1, Math.round((capture.height * target) / capture.width)) };
}
