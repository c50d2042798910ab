import { rename, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Sharp as SharpPipeline } from 'sharp';
import type sharpModule from 'sharp';
import type { RawCapture } from './desktop-driver';
import { frameSize } from './map-coordinates';

export interface ModelImage {
  jpeg: Buffer;
  width: number;
  height: number;
  quality: number;
}

/** Turns a BGRA capture into RGBA in place: a 32-bit swap of the red and blue bytes, far cheaper than a colour matrix. */
export function toRgba(capture: RawCapture): RawCapture {
  if (capture.order === 'rgba') return capture;
  const { data } = capture;
  const words = new Uint32Array(data.buffer, data.byteOffset, data.length >>> 2);
  for (let i = 0; i < words.length; i += 1) {
    const v = words[i] as number;
    words[i] = (v & 0xff00ff00) | ((v & 0xff) << 16) | ((v >>> 16) & 0xff);
  }
  return { ...capture, order: 'rgba' };
}

export type Sharp = typeof sharpModule;

/**
 * Loads sharp on first use. It is imported dynamically so that the host, which shares one bundle with the desktop
 * worker, does not load libvips every time the browser starts it.
 */
export async function loadSharp(): Promise<Sharp> {
  return (await import('sharp')).default;
}

function pipeline(sharp: Sharp, capture: RawCapture): SharpPipeline {
  return sharp(capture.data, { raw: { width: capture.width, height: capture.height, channels: 4 } }).removeAlpha();
}

/**
 * The image the model sees: downscaled to `width` (never up) and JPEG-encoded. If it would not fit in `maxBytes`
 * (base64 and the reply around it must stay under the browser's 1 MB message cap), the quality and then the size step
 * down until it does. Linear resampling keeps small text legible at a fraction of Lanczos's cost.
 */
export async function encodeForModel(
  sharp: Sharp,
  rgba: RawCapture,
  options: { width: number; quality: number; maxBytes: number },
): Promise<ModelImage> {
  let width = options.width;
  let quality = options.quality;
  for (let attempt = 0; attempt < 12; attempt += 1) {
    const size = frameSize(rgba, width);
    let image = pipeline(sharp, rgba);
    if (size.width !== rgba.width) image = image.resize(size.width, size.height, { kernel: 'linear', fit: 'fill' });
    // Huffman optimisation saves a few per cent of bytes for a third more encoding time; latency matters more here.
    const jpeg = await image.jpeg({ quality, optimiseCoding: false }).toBuffer();
    if (jpeg.length <= options.maxBytes) return { jpeg, width: size.width, height: size.height, quality };
    if (quality > 40) quality = Math.max(40, quality - 15);
    else width = Math.max(160, Math.floor(frameSize(rgba, width).width * 0.75));
  }
  throw new Error(`Could not encode the screenshot under ${options.maxBytes} bytes`);
}

/**
 * A short code that changes when the screen visibly changes and stays put when it does not (a blinking caret or a
 * JPEG's noise does not count): the screen in 16x10 cells, each cell's mean brightness in eight levels, from a sparse
 * sample of its pixels. It reads a few thousand pixels, so it costs well under a millisecond.
 */
export function screenFingerprint(rgba: RawCapture): string {
  const { width, height, data } = rgba;
  const cells: string[] = [];
  for (let cy = 0; cy < 10; cy += 1) {
    for (let cx = 0; cx < 16; cx += 1) {
      let sum = 0;
      let count = 0;
      for (let sy = 0; sy < 8; sy += 1) {
        const y = Math.floor(((cy + (sy + 0.5) / 8) * height) / 10);
        for (let sx = 0; sx < 8; sx += 1) {
          const x = Math.floor(((cx + (sx + 0.5) / 8) * width) / 16);
          const i = (y * width + x) * 4;
          sum += (data[i] ?? 0) + (data[i + 1] ?? 0) + (data[i + 2] ?? 0);
          count += 3;
        }
      }
      cells.push(Math.min(7, Math.floor(sum / count / 32)).toString(8));
    }
  }
  return cells.join('');
}

/**
 * Draws a ring where a click landed, in place: a red ring with a white rim and a dot at its centre, so it shows on
 * light and dark screens alike. `at` is in the capture's pixels; the ring's size follows the capture's width (about
 * the size of a mouse pointer once the image is downscaled for the model). Points off the capture draw nothing.
 */
export function drawClickMarker(rgba: RawCapture, at: { x: number; y: number }): void {
  const { width, height, data } = rgba;
  const cx = Math.round(at.x);
  const cy = Math.round(at.y);
  if (cx < 0 || cy < 0 || cx >= width || cy >= height) return;
  const scale = Math.max(1, width / 1280);
  const radius = 11 * scale;
  const ring = 2.5 * scale;
  const rim = 1.5 * scale;
  const dot = 2 * scale;
  const reach = Math.ceil(radius + ring + rim);
  for (let y = Math.max(0, cy - reach); y <= Math.min(height - 1, cy + reach); y += 1) {
    for (let x = Math.max(0, cx - reach); x <= Math.min(width - 1, cx + reach); x += 1) {
      const d = Math.hypot(x - cx, y - cy);
      const off = Math.abs(d - radius);
      let colour: [number, number, number] | undefined;
      if (off <= ring / 2 || d <= dot) colour = [230, 30, 30];
      else if (off <= ring / 2 + rim || d <= dot + rim) colour = [255, 255, 255];
      if (!colour) continue;
      const i = (y * width + x) * 4;
      data[i] = colour[0];
      data[i + 1] = colour[1];
      data[i + 2] = colour[2];
    }
  }
}

/** Keeps the full-size capture as a PNG, written to a temporary name first so a reader never sees half a file. */
export async function writeFullPng(sharp: Sharp, rgba: RawCapture, path: string): Promise<void> {
  // Light compression: these files are for the user to look at later, and the next step should not wait on them.
  const png = await pipeline(sharp, rgba).png({ compressionLevel: 2 }).toBuffer();
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, png);
  await rename(temp, path);
}
