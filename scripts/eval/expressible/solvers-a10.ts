import type { Pixels } from './png-pixels';
import { find, findAll, lines, said, type SolverKit, Unsolvable } from './solver-kit';
import { submit, type Solver } from './solvers-forms';
import { queryBar, sight } from './solvers-sight';
import { blobs, hue } from './solvers-sight9';

/**
 * Families solved through the words an SVG draws (now in the snapshot), separate paragraphs, and gestures at positions
 * read off the screenshot a vision model is sent: drags of shapes into boxes, a drawn line, a textarea's resize grip.
 */

type Rgb = [number, number, number];
type Box = { x0: number; y0: number; x1: number; y1: number };
type Shape = { kind: 'rectangle' | 'circle' | 'triangle'; colour: string; cx: number; cy: number; width: number; height: number };

const chroma = ([r, g, b]: Rgb): number => Math.max(r, g, b) - Math.min(r, g, b);

/** The colours MiniWoB's shapes are drawn in, by hue (black has none). */
const HUES: [string, number][] = [['red', 0], ['yellow', 60], ['green', 120], ['aqua', 180], ['blue', 240], ['magenta', 300], ['red', 360]];

/** The name of a drawn colour, from its most coloured pixel (edges are mixed with the white around them). */
function colourName(pixels: Pixels, box: Box): string {
  let best: Rgb = [255, 255, 255];
  let darkest = 765;
  for (let y = box.y0; y <= box.y1; y += 1) {
    for (let x = box.x0; x <= box.x1; x += 1) {
      const rgb = pixels.at(x, y);
      if (chroma(rgb) > chroma(best)) best = rgb;
      darkest = Math.min(darkest, rgb[0] + rgb[1] + rgb[2]);
    }
  }
  if (chroma(best) < 60) return darkest < 250 ? 'black' : 'grey';
  const h = hue(best);
  return HUES.reduce((a, b) => (Math.abs(b[1] - h) < Math.abs(a[1] - h) ? b : a))[0];
}

/** Ink: a coloured or dark pixel (the page is white, buttons light grey). */
const ink = (rgb: Rgb): boolean => chroma(rgb) > 50 || Math.max(...rgb) < 110;

/**
 * The filled shapes drawn in an area: solid blobs about as wide as tall, named by how much of their box they fill (a
 * square all of it, a circle π/4, a triangle half).
 */
function shapesIn(pixels: Pixels, area: Box, min = 10, max = 40): Shape[] {
  const out: Shape[] = [];
  for (const blob of blobs(pixels, area, ink)) {
    const width = blob.x1 - blob.x0 + 1;
    const height = blob.y1 - blob.y0 + 1;
    if (width < min || height < min || width > max || height > max || Math.abs(width - height) > Math.max(3, width / 5)) continue;
    const fill = blob.size / (width * height);
    if (fill < 0.4) continue;
    const kind = fill > 0.88 ? 'rectangle' : fill > 0.64 ? 'circle' : 'triangle';
    out.push({ kind, colour: colourName(pixels, blob), cx: (blob.x0 + blob.x1) / 2, cy: (blob.y0 + blob.y1) / 2, width, height });
  }
  return out;
}

/** Outlined boxes (dark, hollow, at least `min` wide): where shapes are to be dropped, left to right. */
function outlinesIn(pixels: Pixels, area: Box, min = 40): Box[] {
  return blobs(pixels, area, (rgb) => Math.max(...rgb) < 110)
    .filter((b) => b.x1 - b.x0 >= min && b.y1 - b.y0 >= 20 && b.size / ((b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1)) < 0.3)
    .map(({ x0, y0, x1, y1 }) => ({ x0, y0, x1, y1 }))
    .sort((a, b) => a.x0 - b.x0);
}

/** MiniWoB's task area under its instruction bar. */
function below(pixels: Pixels, height = 170): Box {
  const bar = queryBar(pixels);
  return { x0: bar.x0, y0: bar.y1 + 2, x1: Math.min(pixels.width, bar.x0 + 160), y1: Math.min(pixels.height, bar.y1 + 2 + height) };
}

const PLURAL: Record<string, Shape['kind']> = { rectangles: 'rectangle', circles: 'circle', triangles: 'triangle' };

/** Drags each shape that `wanted` picks onto the middle of `to`, and the others (if `rest` is given) onto `rest`'s. */
async function dragShapes(k: SolverKit, shapes: Shape[], wanted: (s: Shape) => boolean, to: Box, rest?: Box): Promise<void> {
  for (const shape of shapes) {
    const box = wanted(shape) ? to : rest;
    if (!box) continue;
    await k.act({ kind: 'drag_at', x: Math.round(shape.cx), y: Math.round(shape.cy), to_x: Math.round((box.x0 + box.x1) / 2), to_y: Math.round((box.y0 + box.y1) / 2) });
  }
}

/** The box of the first bordered control under the instruction bar: a long run of grey border with a side going down. */
function borderedBox(pixels: Pixels, area: Box): Box {
  const edge = (x: number, y: number): boolean => {
    const [r, g, b] = pixels.at(x, y);
    return Math.max(r, g, b) < 170 && chroma([r, g, b]) < 30;
  };
  for (let y = area.y0; y < area.y1; y += 1) {
    for (let x = area.x0; x < area.x1; x += 1) {
      if (!edge(x, y)) continue;
      let x1 = x;
      while (x1 + 1 < area.x1 && (edge(x1 + 1, y) || edge(x1 + 2, y))) x1 += 1;
      if (x1 - x < 30) continue;
      let y1 = y;
      // Down the left side, which a rounded corner starts a pixel to the left.
      const side = (row: number): boolean => edge(x - 1, row) || edge(x, row) || edge(x + 1, row);
      while (y1 + 1 < area.y1 && (side(y1 + 1) || side(y1 + 2))) y1 += 1;
      if (y1 - y >= 20) return { x0: x, y0: y, x1, y1 };
    }
  }
  throw new Unsolvable('the screenshot shows no bordered box under the instruction');
}

/** Each paragraph of text between the page's instruction and MiniWoB's score panel, as the snapshot gives them. */
function paragraphs(text: string): string[] {
  const rows = text.split('\n');
  const start = rows.findIndex((row) => row.startsWith('Page: ')) + 2;
  const out: string[] = [];
  for (const row of rows.slice(start)) {
    if (/label "Last reward:"/.test(row)) break;
    if (lines(row).length === 0 && row.trim()) out.push(row.trim());
  }
  return out;
}

export const A10_SOLVERS: Record<string, Solver> = {
  // A letter or digit is drawn as SVG text, which the snapshot now reads; a shape is known by its look.
  'identify-shape': async (k) => {
    const glyph = findAll(k.text, /^(clickable|graphics-symbol|img)$/, /^\S$/)[0];
    if (glyph) {
      await k.act({ kind: 'click', ref: find(k.text, 'button', /^\d$/.test(glyph.name) ? 'Number' : 'Letter').ref });
      return;
    }
    const pixels = await sight(k);
    const shape = shapesIn(pixels, below(pixels, 70), 15, 45)[0];
    if (!shape) throw new Unsolvable('the screenshot shows no figure under the instruction');
    await k.act({ kind: 'click', ref: find(k.text, 'button', shape.kind === 'rectangle' ? 'Rectangle' : shape.kind === 'circle' ? 'Circle' : 'Triangle').ref });
  },
  // Paragraphs drawn one below the other are lines of their own in the snapshot: the one asked for is selected whole.
  'highlight-text-2': async (k) => {
    const [ordinal = ''] = said(k.text, /Highlight the text in the (\d)\w+ paragraph/);
    const paragraph = paragraphs(k.text)[Number(ordinal) - 1];
    if (!paragraph) throw new Unsolvable(`the snapshot shows ${paragraphs(k.text).length} paragraphs`);
    await k.act({ kind: 'select_text', text: paragraph });
    await submit(k);
  },
  'drag-shapes': async (k) => {
    const [kind = ''] = said(k.text, /Drag all (\w+) into the black box/);
    const pixels = await sight(k);
    const area = below(pixels);
    const [box] = outlinesIn(pixels, area);
    if (!box) throw new Unsolvable('the screenshot shows no black box');
    await dragShapes(k, shapesIn(pixels, area), (s) => s.kind === PLURAL[kind], box);
    await submit(k);
  },
  'drag-shapes-2': async (k) => {
    const [what = ''] = said(k.text, /Drag all (\w+(?: shapes)?) into the left box/);
    const pixels = await sight(k);
    const area = below(pixels);
    const [left, right] = outlinesIn(pixels, area);
    if (!left || !right) throw new Unsolvable('the screenshot shows no two boxes');
    const colour = /^(\w+) shapes$/.exec(what)?.[1];
    await dragShapes(k, shapesIn(pixels, area), (s) => (colour ? s.colour === colour : s.kind === PLURAL[what]), left, right);
    await submit(k);
  },
  // A line is drawn by dragging through the dot, along the direction asked, within the drawing's dotted border.
  'draw-line': async (k) => {
    const [direction = ''] = said(k.text, /Draw a (horizontal|vertical) line/);
    const pixels = await sight(k);
    const area = below(pixels, 115);
    const dot = blobs(pixels, area, (rgb) => chroma(rgb) > 50).sort((a, b) => b.size - a.size)[0];
    if (!dot) throw new Unsolvable('the screenshot shows no dot');
    const [x, y] = [Math.round(dot.cx), Math.round(dot.cy)];
    const reach = 48;
    const [from, to] = direction === 'horizontal' ? [[x - reach, y], [x + reach, y]] : [[x, y - reach], [x, y + reach]];
    // The drawing starts at the bar's bottom; a line is kept inside it (a drag that starts outside draws nothing).
    const clamp = ([px = 0, py = 0]: number[]) => [Math.min(area.x1 - 12, Math.max(area.x0 + 4, px)), Math.min(area.y0 + 108, Math.max(area.y0 + 4, py))];
    const [[x0 = 0, y0 = 0], [x1 = 0, y1 = 0]] = [clamp(from ?? []), clamp(to ?? [])];
    await k.act({ kind: 'drag_at', x: x0, y: y0, to_x: x1, to_y: y1 });
    await submit(k);
  },
  // A circle is drawn round the mark as a hand draws it: one drag through points on the circle, back to its start. The
  // page scores how evenly the pointer's track keeps its distance from the mark, so the mark's middle is its pixels'
  // centroid (a pixel's middle is half a pixel in); 15 pixels keeps the whole circle inside the drawing wherever the
  // mark is, and wide enough for the page's size check.
  'draw-circle': async (k) => {
    const pixels = await sight(k);
    const mark = blobs(pixels, below(pixels, 115), (rgb) => chroma(rgb) > 50).sort((a, b) => b.size - a.size)[0];
    if (!mark) throw new Unsolvable('the screenshot shows no marked point');
    const [cx, cy] = [mark.cx + 0.5, mark.cy + 0.5];
    const radius = 15;
    const round = Array.from({ length: 25 }, (_, i) => ({ x: cx + radius * Math.cos((i * Math.PI) / 12), y: cy + radius * Math.sin((i * Math.PI) / 12) }));
    const [start, ...rest] = round;
    const end = rest.pop();
    if (!start || !end) throw new Unsolvable('no circle to draw');
    await k.act({ kind: 'drag_at', x: start.x, y: start.y, to_x: end.x, to_y: end.y, via: rest });
    await submit(k);
  },
  // The textarea's resize grip is in its bottom right corner: dragged in or out along the dimension asked.
  'resize-textarea': async (k) => {
    const [dimension = '', direction = ''] = said(k.text, /so that the (width|height) is (smaller|larger)/);
    const pixels = await sight(k);
    const box = borderedBox(pixels, below(pixels, 150));
    const step = direction === 'larger' ? 20 : -20;
    const [x, y] = [box.x1 - 5, box.y1 - 5];
    await k.act({ kind: 'drag_at', x, y, to_x: x + (dimension === 'width' ? step : 0), to_y: y + (dimension === 'height' ? step : 0) });
    await submit(k);
  },
};
