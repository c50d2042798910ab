import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { refOf, usePerception, type PageSnapshot } from './support/perception-harness';

// The reading-order fixture shows its content in another order than the page's: a fixed header placed last, a
// cookie bar placed first but fixed at the bottom, CSS order, row-reverse, absolute positioning, a sidebar placed
// before the article it stands beside, newspaper columns and a grid rearranged by order.
const EXPECTED = [
  'banner:',
  'link "Home" #home',
  'link "Account" #account',
  'main:',
  '# Reading order',
  'navigation "Sections":',
  'link "Jump to grid" #grid',
  'link "First by order" #first',
  'link "Second by order" #second',
  'link "Third by order" #third',
  'button "Reverse A"',
  'button "Reverse B"',
  'button "Reverse C"',
  'button "Placed left"',
  'button "Placed right"',
  '## Article',
  'First paragraph.',
  'link "Article one" #a1',
  'link "Article two" #a2',
  'link "Article three" #a3',
  'complementary:',
  '## Sidebar',
  'link "Side one" #s1',
  'link "Side two" #s2',
  'link "Column one A" #m1',
  'link "Column one B" #m2',
  'link "Column two A" #m3',
  'link "Column two B" #m4',
  'button "Grid 1"',
  'button "Grid 2"',
  'button "Grid 3"',
  'button "Grid 4"',
  'We use cookies.',
  'button "Accept cookies"',
];

/** The snapshot's lines after the page line, with numbers and the notes on elements above and below taken off. */
function body(shot: PageSnapshot): string[] {
  return shot.text
    .split('\n')
    .slice(1)
    .filter((line) => !/^\(\d+ more elements/.test(line))
    .map((line) => line.replace(/^\*?\[\d+\] /, ''));
}

function numbers(shot: PageSnapshot): number[] {
  return [...shot.text.matchAll(/^\*?\[(\d+)\]/gm)].map((match) => Number(match[1]));
}

describe('snapshot lines in reading order', () => {
  const h = usePerception();
  let page: Page;
  let tabId: number;

  beforeAll(async () => {
    ({ page, tabId } = await h.open('/reading-order.html'));
  });

  it('reads top to bottom and left to right, each column and landmark whole, in both modes', async () => {
    const viewport = await h.snapshot(tabId, 'viewport');
    expect(body(viewport)).toEqual(EXPECTED);
    const whole = await h.snapshot(tabId, 'page');
    expect(body(whole)).toEqual(EXPECTED);
    // The first snapshot numbered the elements as they were read, so the numbers run in order.
    const refs = numbers(whole);
    expect(refs).toEqual([...refs].sort((a, b) => a - b));
  });

  it('keeps each element its number when the layout changes its place', async () => {
    const before = await h.snapshot(tabId, 'page');
    const a = refOf(before, 'button', 'Reverse A');
    const c = refOf(before, 'button', 'Reverse C');
    await page.evaluate("document.getElementById('reverse').style.flexDirection = 'row'");
    const after = await h.snapshot(tabId, 'page');
    const lines = body(after);
    expect(lines.indexOf('button "Reverse C"')).toBeLessThan(lines.indexOf('button "Reverse A"'));
    expect(refOf(after, 'button', 'Reverse A')).toBe(a);
    expect(refOf(after, 'button', 'Reverse C')).toBe(c);
    await page.evaluate("document.getElementById('reverse').style.flexDirection = ''");
  });

  it('reads fixed bars first and last and a stuck sticky bar in its place, in snapshots taken far down the page', async () => {
    await page.evaluate(`
      const tail = document.createElement('div');
      tail.style.paddingTop = '3000px';
      tail.innerHTML = '<a href="#back">Back to top</a>';
      document.querySelector('main').append(tail);
      window.scrollTo(0, 1500);
    `);
    const whole = body(await h.snapshot(tabId, 'page'));
    expect(whole).toEqual([...EXPECTED.slice(0, -2), 'link "Back to top" #back', ...EXPECTED.slice(-2)]);
    const view = body(await h.snapshot(tabId, 'viewport'));
    expect(view).toEqual([
      ...EXPECTED.slice(0, 3),
      'main:',
      'navigation "Sections":',
      'link "Jump to grid" #grid',
      'We use cookies.',
      'button "Accept cookies"',
    ]);
  });
});
