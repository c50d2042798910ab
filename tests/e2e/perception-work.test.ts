import { build } from 'esbuild';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from './support/e2e-fixture';

// The work a whole-page read does per element, counted rather than timed: on a huge page (find reads it all) each
// computed-style property read and each layout read is paid for by every element, so a rule asked where it decides
// nothing shows up here on any machine, busy or not. The snapshot code is bundled as the extension ships it and run in
// a page whose getComputedStyle and getBoundingClientRect count their reads.

const e2e = useE2e({
  routes: () => ({
    // The shape of web-page-states' huge page, smaller: rows of a part's name and a link to its details.
    '/rows': `<!doctype html><title>Parts</title><h1>Parts</h1><table>${Array.from({ length: 2000 }, (_, i) => `<tr><td>Part ${i + 1}</td><td><a href="#p${i + 1}">Details of part ${i + 1}</a></td></tr>`).join('')}</table>`,
  }),
});

interface Work {
  elements: number;
  items: number;
  /** Style properties read, by the element's tag and the property. */
  reads: Record<string, Record<string, number>>;
  layout: Record<string, number>;
}

let inPage = '';
beforeAll(async () => {
  const out = await build({
    stdin: {
      contents: `
import { collectSnapshot } from './extension/content/perception/collect-snapshot';
import { openDomAccess } from './extension/content/perception/dom-access';
import { RefRegistry } from './extension/content/perception/ref-registry';
globalThis.deputyWork = () => {
  const reads = {};
  const layout = {};
  const count = (table, key) => { table[key] = (table[key] ?? 0) + 1; };
  const style = window.getComputedStyle;
  const rect = Element.prototype.getBoundingClientRect;
  window.getComputedStyle = function (el, pseudo) {
    const real = style.call(window, el, pseudo);
    const own = (reads[el.tagName] ??= {});
    return new Proxy(real, {
      get(target, name) {
        const value = Reflect.get(target, name, target);
        if (typeof value === 'function') return (...args) => { if (name === 'getPropertyValue') count(own, String(args[0])); return value.apply(target, args); };
        count(own, String(name));
        return value;
      },
    });
  };
  Element.prototype.getBoundingClientRect = function () { count(layout, this.tagName); return rect.call(this); };
  try {
    // As find reads a page: all of it, with long text lines.
    const { snapshot } = collectSnapshot(document, new RefRegistry(), openDomAccess, { mode: 'page', maxText: 1000 });
    return { elements: document.getElementsByTagName('*').length, items: snapshot.items.length, reads, layout };
  } finally {
    window.getComputedStyle = style;
    Element.prototype.getBoundingClientRect = rect;
  }
};`,
      resolveDir: resolve('.'),
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  inPage = out.outputFiles[0]?.text ?? '';
});

async function workOn(path: string): Promise<Work> {
  const page = await e2e.ext.browser.newPage();
  try {
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(e2e.site.url(path), { waitUntil: 'load' });
    await page.evaluate(inPage);
    return await page.evaluate(() => (globalThis as unknown as { deputyWork(): Work }).deputyWork());
  } finally {
    await page.close();
  }
}

const sum = (counts: Record<string, number> | undefined): number => Object.values(counts ?? {}).reduce((a, b) => a + b, 0);

describe('the work of reading a huge page, per element', () => {
  it('asks the text-hiding rules only where text is shown, and measures each row a bounded number of times', async () => {
    const work = await workOn('/rows');
    const rows = 2000;
    // Every row is read: its part's name as a line, its link numbered.
    expect(work.items).toBe(rows * 2 + 1);
    const reads = work.reads;
    // A link's text is its name, whatever the rules for hidden text say: they are not asked of it (opacity, clip-path
    // and transform are read by the rule for hidden content, font-size and text-indent by the one for hidden text).
    for (const property of ['opacity', 'clipPath', 'transform', 'fontSize', 'textIndent']) expect(reads.A?.[property] ?? 0, `${property} of links`).toBe(0);
    // A row holds no text run of its own, so the rule for its own text is not asked either; a cell with the part's name is.
    expect(reads.TR?.fontSize ?? 0).toBe(0);
    expect(reads.TD?.fontSize).toBe(rows);
    // All in all (display, visibility, background, cursor, position, overflow, …): a bound the walk keeps to.
    const perElement = Object.values(reads).reduce((total, byProperty) => total + sum(byProperty), 0) / work.elements;
    expect(perElement, JSON.stringify(reads)).toBeLessThan(18);
    // Layout: a link's box (it is numbered) and the box of the cell whose text is a line; nothing else per row.
    expect(work.layout.A).toBe(rows);
    expect(sum(work.layout) / rows).toBeLessThanOrEqual(2.01);
  });
});
