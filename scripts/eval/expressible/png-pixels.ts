import { inflateSync } from 'node:zlib';

/** A decoded screenshot: RGB at any pixel. */
export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number];
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Decodes the PNG a browser's screenshot is (8-bit RGB or RGBA, not interlaced), for scripted solutions that read
 * the picture a vision model would be sent. Other PNGs are refused with the reason.
 */
export function decodePng(png: Buffer): Pixels {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const kind = png.toString('ascii', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (kind === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) throw new Error(`a PNG this reader does not take (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
      channels = colour === 6 ? 4 : 3;
    } else if (kind === 'IDAT') data.push(body);
    else if (kind === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const line = y * (stride + 1) + 1;
    for (let i = 0; i < stride; i += 1) {
      const left = i >= channels ? (out[y * stride + i - channels] ?? 0) : 0;
      const up = y > 0 ? (out[(y - 1) * stride + i] ?? 0) : 0;
      const upLeft = y > 0 && i >= channels ? (out[(y - 1) * stride + i - channels] ?? 0) : 0;
      const value = raw[line + i] ?? 0;
      const predicted = filter === 1 ? left : filter === 2 ? up : filter === 3 ? Math.floor((left + up) / 2) : filter === 4 ? paeth(left, up, upLeft) : 0;
      out[y * stride + i] = (value + predicted) & 0xff;
    }
  }
  return {
    width,
    height,
    at: (x, y) => {
      const i = (Math.round(y) * width + Math.round(x)) * channels;
      return [out[i] ?? 0, out[i + 1] ?? 0, out[i + 2] ?? 0];
    },
  };
}

/** Horizontal runs of near-black pixels at least `min` and at most `max` long: the top edges of bordered boxes. */
export function blackRuns(pixels: Pixels, box: { x0: number; y0: number; x1: number; y1: number }, min: number, max: number): { x: number; y: number; length: number }[] {
  const runs: { x: number; y: number; length: number }[] = [];
  for (let y = box.y0; y < box.y1; y += 1) {
    let start = -1;
    for (let x = box.x0; x <= box.x1; x += 1) {
      const [r, g, b] = x < box.x1 ? pixels.at(x, y) : [255, 255, 255];
      const dark = r < 60 && g < 60 && b < 60;
      if (dark && start < 0) start = x;
      if (!dark && start >= 0) {
        if (x - start >= min && x - start <= max) runs.push({ x: start, y, length: x - start });
        start = -1;
      }
    }
  }
  return runs;
}

/** Decodes a screenshot as Deputy sends it (a JPEG from the browser's capture; a PNG is read here too). */
export async function decodeImage(image: Buffer): Promise<Pixels> {
  if (image.readUInt32BE(0) === 0x89504e47) return decodePng(image);
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  return {
    width,
    height,
    at: (x, y) => {
      const i = (Math.min(height - 1, Math.max(0, Math.round(y))) * width + Math.min(width - 1, Math.max(0, Math.round(x)))) * 3;
      return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
    },
  };
}
