import { describe, expect, it } from 'vitest';
import {
  readBefore,
  readingOrder,
  sameLine,
  unionBox,
  type Box,
} from '../../../../../extension/content/perception/reading-order';

/** A box from its left, top, width and height, as a page author would place it. */
function box(left: number, top: number, width: number, height: number): Box {
  return { left, top, right: left + width, bottom: top + height };
}

/** Applies an order (null: unchanged) to labels, so expectations read as the sequence a user would see. */
function read(labels: string[], boxes: Array<Box | null>): string[] {
  const order = readingOrder(boxes);
  return order === null ? labels : order.map((i) => labels[i] ?? '?');
}

describe('readingOrder', () => {
  it('leaves blocks already in reading order alone, and says so', () => {
    expect(readingOrder([box(0, 0, 100, 20), box(120, 0, 100, 20), box(0, 40, 300, 20)])).toBeNull();
    expect(readingOrder([])).toBeNull();
    expect(readingOrder([box(0, 0, 10, 10)])).toBeNull();
  });

  it('reads items placed by flex order left to right', () => {
    expect(
      read(['third', 'first', 'second'], [box(200, 10, 80, 20), box(0, 10, 80, 20), box(100, 10, 80, 20)]),
    ).toEqual(['first', 'second', 'third']);
  });

  it('reverses a row-reverse line and a column-reverse list', () => {
    expect(read(['a', 'b', 'c'], [box(300, 0, 90, 30), box(200, 0, 90, 30), box(100, 0, 90, 30)])).toEqual([
      'c',
      'b',
      'a',
    ]);
    const messages = Array.from({ length: 2000 }, (_, i) => box(0, (1999 - i) * 30, 400, 24));
    const order = readingOrder(messages);
    expect(order?.[0]).toBe(1999);
    expect(order?.[1999]).toBe(0);
  });

  it('puts a header placed last in the page before the content it sits above', () => {
    const labels = ['main', 'footer', 'header'];
    expect(read(labels, [box(0, 60, 1280, 900), box(0, 960, 1280, 80), box(0, 0, 1280, 56)])).toEqual([
      'header',
      'main',
      'footer',
    ]);
  });

  it('keeps two columns whole instead of interleaving their lines', () => {
    const left = box(0, 0, 600, 5000);
    const right = box(640, 0, 600, 3000);
    expect(read(['left', 'right'], [left, right])).toEqual(['left', 'right']);
    // A sidebar first in the page but shown on the right is read after the article beside it.
    expect(read(['sidebar', 'article'], [right, left])).toEqual(['article', 'sidebar']);
    // A short box beside a long column shares its line even far down the column.
    expect(read(['ad', 'column'], [box(700, 2000, 300, 250), left])).toEqual(['column', 'ad']);
  });

  it('orders a grid rearranged by CSS row by row', () => {
    const labels = ['r2c1', 'r1c2', 'r1c1', 'r2c2'];
    const boxes = [box(0, 100, 200, 80), box(220, 0, 200, 80), box(0, 0, 200, 80), box(220, 100, 200, 80)];
    expect(read(labels, boxes)).toEqual(['r1c1', 'r1c2', 'r2c1', 'r2c2']);
  });

  it('keeps page order where boxes overlap: a link wrapped inside a paragraph, a layer over content', () => {
    const paragraph = box(0, 0, 600, 60);
    const wrappedLink = box(0, 20, 600, 40);
    const linkOnFirstLine = box(200, 0, 80, 20);
    expect(readingOrder([paragraph, linkOnFirstLine, wrappedLink])).toBeNull();
    expect(readingOrder([box(0, 0, 1280, 2000), box(400, 300, 480, 200)])).toBeNull();
  });

  it('treats items whose tops differ by a few pixels as one line', () => {
    // A taller button beside a link on one baseline: their tops differ a little, left to right decides.
    expect(read(['link', 'button'], [box(200, 3, 80, 18), box(0, 0, 120, 32)])).toEqual(['button', 'link']);
  });

  it('moves a block without a box together with the block before it', () => {
    expect(read(['b', 'b-text', 'a'], [box(100, 0, 50, 20), null, box(0, 0, 50, 20)])).toEqual(['a', 'b', 'b-text']);
    expect(read(['lead', 'b', 'a'], [null, box(100, 0, 50, 20), box(0, 0, 50, 20)])).toEqual(['lead', 'a', 'b']);
  });
});

describe('line geometry', () => {
  it('tells one line from the next', () => {
    expect(sameLine(box(0, 0, 50, 20), box(60, 2, 50, 20))).toBe(true);
    expect(sameLine(box(0, 0, 50, 20), box(0, 24, 50, 20))).toBe(false);
    expect(readBefore(box(0, 0, 50, 20), box(0, 24, 50, 20))).toBe(true);
    expect(readBefore(box(0, 24, 50, 20), box(0, 0, 50, 20))).toBe(false);
  });

  it('joins boxes, ignoring missing ones', () => {
    expect(unionBox(null, null)).toBeNull();
    expect(unionBox(box(0, 0, 10, 10), null)).toEqual(box(0, 0, 10, 10));
    expect(unionBox(box(0, 0, 10, 10), box(20, 30, 10, 10))).toEqual(box(0, 0, 30, 40));
  });
});
