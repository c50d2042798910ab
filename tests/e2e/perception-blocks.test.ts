import { describe, expect, it } from 'vitest';
import { usePerception, type PageSnapshot } from './support/perception-harness';

// Issue 26 item 2, "nothing said in half", for text a person reads that is not HTML flow: the words drawn in an SVG
// (a chart's labels, a letter drawn as a figure) are in the snapshot, and what the drawing does not show (its title,
// descriptions, definitions, clips, masks, hidden or transparent text, an icon hidden from assistive technology) is
// not. And blocks a person sees apart stay apart: short paragraphs one below the other are separate lines, while
// short texts side by side (two table cells, two boxes in a row) still read as one line.

/** The snapshot's lines after the page line, with numbers taken off. */
function body(shot: PageSnapshot): string[] {
  return shot.text
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/^\*?\[\d+\] /, ''));
}

describe('drawn words and separate blocks', () => {
  const h = usePerception();

  it('reads the words an SVG draws, each where it is drawn, and none it does not show', async () => {
    const { tabId } = await h.open('/blocks.html');
    for (const mode of ['viewport', 'page'] as const) {
      const lines = body(await h.snapshot(tabId, mode));
      expect(lines.slice(0, 6)).toEqual(['# Drawn words', 'Axis north', 'Group label', 'Split label', 'Q 7 k Z', 'First short paragraph.']);
      const text = lines.join('\n');
      for (const unseen of ['Tooltip', 'Described', 'Defined', 'Symbol', 'Clip', 'Mask', 'Hidden', 'Undisplayed', 'Transparent', 'Icon']) {
        expect(text).not.toContain(`${unseen} words`);
      }
    }
  });

  it('keeps stacked paragraphs on lines of their own and joins short texts side by side', async () => {
    const { tabId } = await h.open('/blocks.html');
    const lines = body(await h.snapshot(tabId, 'page'));
    const first = lines.indexOf('First short paragraph.');
    expect(lines.slice(first, first + 5)).toEqual(['First short paragraph.', 'Second one.', 'Third one.', 'Label Value', 'Left Right']);
  });
});
