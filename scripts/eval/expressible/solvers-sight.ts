import { writeFileSync } from 'node:fs';
import { blackRuns, decodeImage, type Pixels } from './png-pixels';
import { type SolverKit, Unsolvable } from './solver-kit';
import type { Solver } from './solvers-forms';

/**
 * Families that need sight: solved from the screenshot a vision model would be sent, acting with click_at at the
 * positions read off it (the page's boxes have no words for the snapshot to give).
 */

type Rgb = [number, number, number];

/** CSS's named colours, those MiniWoB's colour tasks use. */
const NAMED: Record<string, Rgb> = {
  red: [255, 0, 0], blue: [0, 0, 255], olive: [128, 128, 0], lime: [0, 255, 0], black: [0, 0, 0], white: [255, 255, 255], grey: [128, 128, 128],
  gray: [128, 128, 128], purple: [128, 0, 128], orange: [255, 165, 0], yellow: [255, 255, 0], cyan: [0, 255, 255], pink: [255, 192, 203], magenta: [255, 0, 255],
  green: [0, 128, 0], brown: [165, 42, 42], navy: [0, 0, 128], teal: [0, 128, 128], maroon: [128, 0, 0], silver: [192, 192, 192],
};

export const distance = (a: Rgb, b: Rgb): number => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);

/** The task's yellow instruction bar (MiniWoB's #query), whose place tells where the task area is. */
export function queryBar(pixels: Pixels): { x0: number; y0: number; x1: number; y1: number } {
  // Loosely: the screenshot is a JPEG, whose flat colours come back a little off.
  const yellow = (x: number, y: number): boolean => {
    const [r, g, b] = pixels.at(x, y);
    return r > 200 && g > 200 && b < 110;
  };
  for (let y = 0; y < Math.min(pixels.height, 400); y += 1) {
    for (let x = 0; x < Math.min(pixels.width, 600); x += 1) {
      if (!yellow(x, y)) continue;
      // The bar is the yellow block from its top-left corner: as far right and down as it goes unbroken.
      let x1 = x;
      while (x1 + 1 < pixels.width && yellow(x1 + 1, y)) x1 += 1;
      let y1 = y;
      while (y1 + 1 < pixels.height && yellow(x, y1 + 1)) y1 += 1;
      return { x0: x, y0: y, x1, y1 };
    }
  }
  throw new Unsolvable('the screenshot shows no instruction bar');
}

/** Boxes with a black border of about `size` pixels: their centres and the colour inside. */
function borderedBoxes(pixels: Pixels, area: { x0: number; y0: number; x1: number; y1: number }, size: number): { x: number; y: number; colour: Rgb }[] {
  const found: { x: number; y: number; colour: Rgb }[] = [];
  for (const run of blackRuns(pixels, area, size - 3, size + 4)) {
    const half = run.length / 2;
    // A top edge has its left border going down from it; a bottom edge has white below.
    const [r, g, b] = pixels.at(run.x, run.y + half);
    if (r > 60 || g > 60 || b > 60) continue;
    if (found.some((f) => Math.abs(f.x - (run.x + half)) < half && Math.abs(f.y - (run.y + half)) < half)) continue;
    found.push({ x: run.x + half, y: run.y + half, colour: pixels.at(run.x + half, run.y + half) });
  }
  return found;
}

export async function sight(k: SolverKit): Promise<Pixels> {
  const view = await k.look(true);
  if (!view.screenshot) throw new Unsolvable('no screenshot was given');
  if (process.env.SIGHT_DUMP) writeFileSync(process.env.SIGHT_DUMP, view.screenshot);
  return decodeImage(view.screenshot);
}

export const SIGHT_SOLVERS: Record<string, Solver> = {
  'click-color': async (k) => {
    for (let look = 0; look < 3; look += 1) {
      // A screenshot taken while the page still draws its boxes is looked at again, as a person would look twice.
      const seen = await clickColor(k, await sight(k));
      if (seen === 'clicked') return;
    }
    throw new Unsolvable('three screenshots showed no swatch and box of one colour');
  },
};

/**
 * The colour of the first flat patch (4 x 4 pixels of one colour) in an area that is not its background: a swatch,
 * where text's thin strokes never make one.
 */
export function flatPatch(pixels: Pixels, area: { x0: number; y0: number; x1: number; y1: number }, background: Rgb): Rgb | undefined {
  for (let y = area.y0; y + 4 < area.y1; y += 1) {
    for (let x = area.x0; x + 4 < area.x1; x += 1) {
      const centre = pixels.at(x + 1, y + 1);
      if (distance(centre, background) < 90) continue;
      let flat = true;
      for (let dy = 0; dy < 4 && flat; dy += 1) for (let dx = 0; dx < 4 && flat; dx += 1) flat = distance(pixels.at(x + dx, y + dy), centre) < 30;
      if (flat) return pixels.at(x + 2, y + 2);
    }
  }
  return undefined;
}

async function clickColor(k: SolverKit, pixels: Pixels): Promise<'clicked' | 'unclear'> {
  {
    const bar = queryBar(pixels);
    const named = /Click on the (\w+) colored box/.exec(k.text)?.[1];
    let wanted: Rgb | undefined = named ? NAMED[named.toLowerCase()] : undefined;
    if (named && !wanted) throw new Unsolvable(`a colour name the script does not know: ${named}`);
    if (!wanted) {
      const swatch = flatPatch(pixels, { x0: bar.x0, y0: bar.y0, x1: bar.x1 + 1, y1: bar.y1 + 1 }, [255, 255, 0]);
      if (!swatch) return 'unclear';
      wanted = swatch;
    }
    const target = wanted;
    const area = { x0: bar.x0, y0: bar.y1 + 1, x1: Math.min(pixels.width, bar.x0 + 170), y1: Math.min(pixels.height, bar.y0 + 215) };
    const boxes = borderedBoxes(pixels, area, 52).sort((a, b) => distance(a.colour, target) - distance(b.colour, target));
    const best = boxes[0];
    if (!best || distance(best.colour, target) > 60) return 'unclear';
    await k.act({ kind: 'click_at', x: best.x, y: best.y });
    return 'clicked';
  }
}
