import type { Pixels } from './png-pixels';
import { find, said, Unsolvable } from './solver-kit';
import { submit, type Solver } from './solvers-forms';
import { sight } from './solvers-sight';

/**
 * More families that need sight, solved from the screenshot Deputy sends a vision model (the screenshot tool), acting
 * through Deputy's tools: numbered controls where the page has them, click_at / drag_at at positions read off the image.
 */

type Box = { x0: number; y0: number; x1: number; y1: number };
type Blob = { x0: number; y0: number; x1: number; y1: number; size: number; cx: number; cy: number };

/** Connected regions of pixels that pass `keep` (4-neighbours), within an area. */
export function blobs(pixels: Pixels, area: Box, keep: (rgb: [number, number, number]) => boolean): Blob[] {
  const w = area.x1 - area.x0;
  const h = area.y1 - area.y0;
  const seen = new Uint8Array(w * h);
  const out: Blob[] = [];
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      if (seen[y * w + x] || !keep(pixels.at(area.x0 + x, area.y0 + y))) continue;
      const blob: Blob = { x0: x, y0: y, x1: x, y1: y, size: 0, cx: 0, cy: 0 };
      const stack = [[x, y]];
      seen[y * w + x] = 1;
      while (stack.length) {
        const [px = 0, py = 0] = stack.pop() ?? [];
        blob.size += 1;
        blob.cx += px;
        blob.cy += py;
        blob.x0 = Math.min(blob.x0, px);
        blob.x1 = Math.max(blob.x1, px);
        blob.y0 = Math.min(blob.y0, py);
        blob.y1 = Math.max(blob.y1, py);
        for (const [nx, ny] of [[px + 1, py], [px - 1, py], [px, py + 1], [px, py - 1]] as const) {
          if (nx < 0 || ny < 0 || nx >= w || ny >= h || seen[ny * w + nx]) continue;
          if (!keep(pixels.at(area.x0 + nx, area.y0 + ny))) continue;
          seen[ny * w + nx] = 1;
          stack.push([nx, ny]);
        }
      }
      out.push({ ...blob, x0: blob.x0 + area.x0, x1: blob.x1 + area.x0, y0: blob.y0 + area.y0, y1: blob.y1 + area.y0, cx: blob.cx / blob.size + area.x0, cy: blob.cy / blob.size + area.y0 });
    }
  }
  return out;
}

type Rgb = [number, number, number];

/** How coloured a pixel is (0 for grey). */
const chroma = ([r, g, b]: Rgb): number => Math.max(r, g, b) - Math.min(r, g, b);

/** A pixel's hue in degrees. */
export function hue([r, g, b]: Rgb): number {
  const max = Math.max(r, g, b);
  const c = max - Math.min(r, g, b);
  if (c === 0) return 0;
  const h = max === r ? ((g - b) / c) % 6 : max === g ? (b - r) / c + 2 : (r - g) / c + 4;
  return (h * 60 + 360) % 360;
}

function nearestHue(h: number, hues: number[]): number {
  const gap = (a: number) => Math.min(Math.abs(h - a), 360 - Math.abs(h - a));
  return hues.reduce((best, a) => (gap(a) < gap(best) ? a : best));
}

/** MiniWoB's task area: the 160 px wide column under the yellow instruction bar. */
function taskArea(pixels: Pixels): Box {
  return { x0: 0, y0: 50, x1: Math.min(pixels.width, 160), y1: Math.min(pixels.height, 210) };
}

export const SIGHT9_SOLVERS: Record<string, Solver> = {
  // Blocks are light blue squares on either side of a "+": count each side's, type the sum.
  'visual-addition': async (k) => {
    const pixels = await sight(k);
    const squares = blobs(pixels, taskArea(pixels), ([r, g, b]) => b > 200 && r > 90 && r < 170 && g > 140 && g < 210).filter((s) => s.size >= 30);
    if (squares.length < 2) throw new Unsolvable(`the screenshot shows ${squares.length} blocks`);
    await k.act({ kind: 'type', ref: find(k.text, 'textbox').ref, text: String(squares.length), clear: true, submit: false });
    await submit(k);
  },
  // A regular polygon's outline: its distance from the centre, walked round, rises at each corner, so the strongest
  // of the profile's frequencies 3 to 7 is the number of sides.
  'count-sides': async (k) => {
    const pixels = await sight(k);
    const outline = blobs(pixels, taskArea(pixels), ([r, g, b]) => r + g + b < 240).sort((a, b) => b.size - a.size)[0];
    if (!outline || outline.size < 100) throw new Unsolvable('the screenshot shows no outline');
    const cx = (outline.x0 + outline.x1) / 2;
    const cy = (outline.y0 + outline.y1) / 2;
    // The centre: where the outline's farthest reach is the same all round (its bounding box's middle is off for odd sides).
    const profile = (x: number, y: number): number[] => {
      const out: number[] = [];
      for (let step = 0; step < 360; step += 1) {
        const angle = (step * Math.PI) / 180;
        let reach = 0;
        for (let r = 0; r < 60; r += 0.5) {
          const [pr, pg, pb] = pixels.at(x + r * Math.cos(angle), y + r * Math.sin(angle));
          if (pr + pg + pb < 240) reach = r;
        }
        out.push(reach);
      }
      return out;
    };
    let best = { x: cx, y: cy, spread: Infinity };
    for (let dx = -6; dx <= 6; dx += 1) {
      for (let dy = -6; dy <= 6; dy += 1) {
        const p = profile(cx + dx, cy + dy);
        const spread = Math.max(...p) - Math.min(...p);
        if (spread < best.spread) best = { x: cx + dx, y: cy + dy, spread };
      }
    }
    const radii = profile(best.x, best.y);
    const strength = (n: number) => {
      let re = 0;
      let im = 0;
      radii.forEach((r, i) => {
        re += r * Math.cos((n * i * Math.PI) / 180);
        im += r * Math.sin((n * i * Math.PI) / 180);
      });
      return Math.hypot(re, im);
    };
    const sides = [3, 4, 5, 6, 7].reduce((a, b) => (strength(b) > strength(a) ? b : a));
    await k.act({ kind: 'click', ref: find(k.text, 'button', String(sides)).ref });
  },
  // Small squares in shades of red, green and blue: click each whose hue is the one asked for, then Submit.
  'click-shades': async (k) => {
    const [colour = ''] = said(k.text, /shades of (red|green|blue)/);
    const wanted = { red: 0, green: 120, blue: 240 }[colour as 'red' | 'green' | 'blue'];
    const pixels = await sight(k);
    const swatches = blobs(pixels, taskArea(pixels), (rgb) => chroma(rgb) >= 10 && rgb[0] + rgb[1] + rgb[2] < 720).filter((s) => s.size >= 60 && s.x1 - s.x0 < 24 && s.y1 - s.y0 < 24);
    if (swatches.length < 3) throw new Unsolvable(`the screenshot shows ${swatches.length} coloured squares`);
    const mine = swatches.filter((s) => nearestHue(hue(pixels.at(s.cx, s.cy)), [0, 120, 240]) === wanted);
    for (const swatch of mine) await k.act({ kind: 'click_at', x: Math.round(swatch.cx), y: Math.round(swatch.cy) });
    await submit(k);
  },
};
