import type { DesktopDisplay } from '../../shared/protocol';
import type { KeyName } from './key-chord';
import type { ScreenPoint } from './map-coordinates';

/** A capture as raw pixels: 4 bytes per pixel, in the channel order the platform gives. */
export interface RawCapture {
  width: number;
  height: number;
  data: Buffer;
  order: 'bgra' | 'rgba';
}

export type MouseButton = 'left' | 'right' | 'middle';

/**
 * Everything desktop control needs from the operating system, in logical screen pixels. The real one is nut-js
 * (nut-driver.ts); unit tests pass a recording fake.
 */
export interface DesktopDriver {
  displays(): Promise<DesktopDisplay[]>;
  capture(display: DesktopDisplay): Promise<RawCapture>;
  movePointer(point: ScreenPoint): Promise<void>;
  click(button: MouseButton, count: 1 | 2): Promise<void>;
  pressButton(button: MouseButton): Promise<void>;
  releaseButton(button: MouseButton): Promise<void>;
  scroll(direction: 'up' | 'down' | 'left' | 'right', amount: number): Promise<void>;
  /** Types text key by key; only characters on the keyboard layout arrive reliably. */
  typeText(text: string): Promise<void>;
  pressChord(keys: readonly KeyName[]): Promise<void>;
  /** The focused window's title, or undefined where it cannot be read. */
  activeWindowTitle(): Promise<string | undefined>;
  readClipboard(): Promise<string>;
  writeClipboard(text: string): Promise<void>;
}
