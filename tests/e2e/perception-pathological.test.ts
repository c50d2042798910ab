import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { needShared } from '../support/shared-dir';
import { usePerception, type PageSnapshot } from './support/perception-harness';

// Every page is readable: pathological shapes generated at size (one inline element with 10k text runs, 50k elements,
// shadow roots and plain elements nested far deeper than a parser allows, 200 frames) and every saved page of the
// real corpus give a snapshot through the built extension, never an error. Where the walk cannot finish in time, the
// snapshot says what it left out. Timings are printed, not asserted: the machine is shared and noisy.

const corpus = needShared('corpus/pages');
const corpusPages = corpus.missing ? [] : readdirSync(corpus.path, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

const h = usePerception();

async function timedSnapshot(tabId: number, mode: 'viewport' | 'page'): Promise<{ shot: PageSnapshot; ms: number }> {
  const started = performance.now();
  const shot = await h.snapshot(tabId, mode);
  return { shot, ms: performance.now() - started };
}

describe('every page is readable', () => {

  it('one inline element with 10,000 text runs: its links are numbered, and the snapshot says what did not fit', async () => {
    const { page, tabId } = await h.open('/generated.html?shape=runs&n=10000');
    for (const mode of ['viewport', 'page'] as const) {
      const { shot, ms } = await timedSnapshot(tabId, mode);
      console.log(`runs x10000 ${mode}: ${ms.toFixed(0)} ms, ${shot.text.length} chars`);
      expect(shot.elements.some((el) => el.role === 'link' && el.name === 'user0')).toBe(true);
      // Far more than fits: the snapshot is cut to its budget and says so, so the rest stays reachable by find.
      expect(shot.text).toMatch(/cut to fit \d+ tokens.*use find/);
    }
    await page.close();
  });

  it('50,000 elements: a snapshot, with a note of anything left out', async () => {
    const { page, tabId } = await h.open('/generated.html?shape=elements&n=50000');
    const { shot, ms } = await timedSnapshot(tabId, 'page');
    console.log(`elements x50000 page: ${ms.toFixed(0)} ms, ${shot.text.length} chars`);
    expect(shot.text).toContain('Row 0');
    expect(shot.elements.some((el) => el.name === 'open 0')).toBe(true);
    // Either the walk reached the end of the page, or the snapshot says it stopped early.
    const reachedEnd = shot.elements.some((el) => el.name === 'Button after the generated part');
    if (!reachedEnd) expect(shot.text).toMatch(/left out/);
    const vp = await timedSnapshot(tabId, 'viewport');
    console.log(`elements x50000 viewport: ${vp.ms.toFixed(0)} ms`);
    expect(vp.shot.text).toContain('Row 0');
    await page.close();
  });

  it.each([
    ['shadow roots', 'shadow', 250],
    ['plain elements', 'deep', 1200],
  ])('%s nested far too deep: the page is read down to a depth, and the snapshot says what lies deeper', async (_label, shape, n) => {
    const { page, tabId } = await h.open(`/generated.html?shape=${shape}&n=${n}`);
    const { shot, ms } = await timedSnapshot(tabId, 'page');
    console.log(`${shape} x${n}: ${ms.toFixed(0)} ms`);
    expect(shot.text).toContain('Generated page');
    expect(shot.elements.some((el) => el.name === 'Button after the generated part')).toBe(true);
    expect(shot.elements.some((el) => el.name === 'Deepest button')).toBe(false);
    expect(shot.text).toMatch(/nested deeper than \d+ levels.*left out/);
    await page.close();
  });

  it('a shadow tree 100 deep is read to its bottom', async () => {
    const { page, tabId } = await h.open('/generated.html?shape=shadow&n=100');
    const { shot } = await timedSnapshot(tabId, 'page');
    expect(shot.elements.some((el) => el.name === 'Deepest button')).toBe(true);
    expect(shot.text).not.toMatch(/left out/);
    await page.close();
  });

  it('200 frames: each frame read inline', async () => {
    const { page, tabId } = await h.open('/generated.html?shape=frames&n=200');
    await page.waitForFunction(() => Array.from(document.querySelectorAll('iframe')).every((f) => f.contentDocument?.querySelector('button')), { timeout: 300_000 });
    const { shot, ms } = await timedSnapshot(tabId, 'page');
    console.log(`frames x200 page: ${ms.toFixed(0)} ms, ${shot.text.length} chars`);
    expect(shot.elements.some((el) => el.name === 'Frame button 0')).toBe(true);
    const frameButtons = shot.elements.filter((el) => /^Frame button \d+$/.test(el.name)).length;
    if (frameButtons < 200) expect(shot.text).toMatch(/left out|cut to fit/);
    await page.close();
    // Loading 200 frames took over 60 s beside a load of 30 on 2 cores: the wait is for their state, with a cap that
    // only a hung page reaches.
  }, 400_000);

  describe.skipIf(corpus.missing !== null)(corpus.title('the real corpus'), () => {
    it.each(corpusPages)('%s: both modes give a snapshot with numbered elements', async (name) => {
      const { page, tabId } = await h.open(`/corpus/${name}/index.html`);
      for (const mode of ['viewport', 'page'] as const) {
        const { shot, ms } = await timedSnapshot(tabId, mode);
        console.log(`${name} ${mode}: ${ms.toFixed(0)} ms, ${shot.text.length} chars`);
        expect(shot.text.startsWith('Page: ')).toBe(true);
        expect(shot.elements.length).toBeGreaterThan(0);
      }
      await page.close();
    });
  });
});
