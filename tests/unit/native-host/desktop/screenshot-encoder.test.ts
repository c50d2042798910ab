import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { drawClickMarker, encodeForModel, screenFingerprint, toRgba, writeFullPng } from '../../../../native-host/desktop/screenshot-encoder';
import type { RawCapture } from '../../../../native-host/desktop/desktop-driver';

/** A BGRA capture: left half pure red, right half pure blue (as the platform stores them: blue byte first). */
function redBlue(width: number, height: number): RawCapture {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 4;
      const red = x < width / 2;
      data[i] = red ? 0 : 255; // B
      data[i + 1] = 0; // G
      data[i + 2] = red ? 255 : 0; // R
      data[i + 3] = 255;
    }
  }
  return { width, height, data, order: 'bgra' };
}

async function pixel(jpeg: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i] ?? -1, data[i + 1] ?? -1, data[i + 2] ?? -1];
}

describe('encodeForModel', () => {
  it('downscales to the asked width, keeps the aspect ratio, and keeps the colours the right way round', async () => {
    const image = await encodeForModel(sharp, toRgba(redBlue(400, 200)), { width: 200, quality: 80, maxBytes: 1_000_000 });
    expect([image.width, image.height]).toEqual([200, 100]);
    const meta = await sharp(image.jpeg).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 200, 100]);
    const [r1, , b1] = await pixel(image.jpeg, 20, 50);
    const [r2, , b2] = await pixel(image.jpeg, 180, 50);
    expect(r1).toBeGreaterThan(200);
    expect(b1).toBeLessThan(60);
    expect(b2).toBeGreaterThan(200);
    expect(r2).toBeLessThan(60);
  });

  it('steps quality and then size down until the image fits the byte budget', async () => {
    const noisy = { width: 800, height: 600, data: Buffer.from(Array.from({ length: 800 * 600 * 4 }, (_, i) => (i * 7919) % 251)), order: 'rgba' as const };
    const loose = await encodeForModel(sharp, noisy, { width: 800, quality: 90, maxBytes: 10_000_000 });
    const tight = await encodeForModel(sharp, noisy, { width: 800, quality: 90, maxBytes: Math.floor(loose.jpeg.length / 4) });
    expect(tight.jpeg.length).toBeLessThanOrEqual(Math.floor(loose.jpeg.length / 4));
    expect(tight.quality < 90 || tight.width < 800).toBe(true);
  });
});

describe('writeFullPng', () => {
  it('writes the full-size capture as a PNG', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deputy-png-'));
    try {
      const path = join(dir, 'step-1.png');
      await writeFullPng(sharp, toRgba(redBlue(64, 32)), path);
      const meta = await sharp(await readFile(path)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 64, 32]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('screenFingerprint', () => {
  it('is the same for the same screen and differs when something visible changes', () => {
    const a = screenFingerprint(toRgba(redBlue(320, 200)));
    const b = screenFingerprint(toRgba(redBlue(320, 200)));
    const changed = redBlue(320, 200);
    changed.data.fill(255, 0, 320 * 4 * 100);
    expect(a).toBe(b);
    expect(a).toHaveLength(160);
    expect(screenFingerprint(toRgba(changed))).not.toBe(a);
  });
});

describe('drawClickMarker', () => {
  const grey = (width: number, height: number): RawCapture => ({ width, height, data: Buffer.alloc(width * height * 4, 128), order: 'rgba' });
  const at = (capture: RawCapture, x: number, y: number): number[] => [...capture.data.subarray((y * capture.width + x) * 4, (y * capture.width + x) * 4 + 3)];

  it('draws a red ring with a white rim and a red dot where the click landed, and nothing far from it', () => {
    const capture = grey(1280, 800);
    drawClickMarker(capture, { x: 400, y: 300 });
    expect(at(capture, 400, 300)).toEqual([230, 30, 30]);
    expect(at(capture, 411, 300)).toEqual([230, 30, 30]);
    expect(at(capture, 400, 289)).toEqual([230, 30, 30]);
    expect(at(capture, 413, 300)).toEqual([255, 255, 255]);
    expect(at(capture, 406, 300)).toEqual([128, 128, 128]);
    expect(at(capture, 440, 300)).toEqual([128, 128, 128]);
    const changed = [...capture.data].filter((v, i) => i % 4 !== 3 && v !== 128).length;
    expect(changed).toBeGreaterThan(100);
    expect(changed).toBeLessThan(3 * 40 * 40);
  });

  it('grows with the capture, so it stays visible once a large screen is scaled down for the model, and is clipped at edges', () => {
    const big = grey(3840, 2160);
    drawClickMarker(big, { x: 0, y: 0 });
    expect(at(big, 0, 0)).toEqual([230, 30, 30]);
    expect(at(big, 33, 0)).toEqual([230, 30, 30]);
    const outside = grey(100, 100);
    drawClickMarker(outside, { x: 150, y: 20 });
    drawClickMarker(outside, { x: -1, y: 20 });
    expect([...outside.data].every((v, i) => i % 4 === 3 || v === 128)).toBe(true);
  });
});
