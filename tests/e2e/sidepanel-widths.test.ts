import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from './support/e2e-fixture';
import { fakeModelSettings, overflowing } from './support/panel-harness';

const e2e = useE2e({ routes: { '/': '<!doctype html><title>Shop</title><h1>Shop</h1>' }, model: true });
let panel: Page;
let shots: string;

/** The panel's main views, by their tab; Agents shows because MCP is on. */
const VIEWS = ['task', 'chat', 'agents', 'history', 'settings', 'dev'] as const;

beforeAll(async () => {
  shots = await mkdtemp(join(tmpdir(), 'deputy-panel-widths-'));
  console.info(`side panel screenshots at 320, 360 and 480 px: ${shots}`);
  ({ panel } = await e2e.panelOn(e2e.site.url('/', 'shop.test'), { ...fakeModelSettings(e2e.fake.openaiBaseUrl), mcp: { enabled: true, mode: 'act', shell: false, desktop: false } }));
});

/** Checkboxes and radios drawn smaller than 16 px (a hidden one, drawn by its label, is left out). */
function smallBoxes(page: Page): Promise<string[]> {
  return page.$$eval('input[type=checkbox], input[type=radio]', (inputs) =>
    inputs.flatMap((input) => {
      const box = input.getBoundingClientRect();
      if (box.width === 0 || getComputedStyle(input).opacity === '0') return [];
      return box.width < 15.5 || box.height < 15.5 ? [`${input.getAttribute('data-testid') ?? input.type} is ${box.width}x${box.height}`] : [];
    }),
  );
}

/** Labels, buttons and headings whose text is cut off: wider than their box where the box hides the rest. */
function clippedLabels(page: Page): Promise<string[]> {
  return page.$$eval('button, label, [role=tab], summary, legend, h1, h2, h3, .field__label, .status', (elements) =>
    elements.flatMap((element) => {
      const box = element.getBoundingClientRect();
      // Text for screen readers only is clipped on purpose.
      if (box.width === 0 || box.height === 0 || element.closest('.visually-hidden')) return [];
      const style = getComputedStyle(element);
      const hides = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      return hides && element.scrollWidth > element.clientWidth + 1 ? [`"${(element.textContent ?? '').trim().slice(0, 40)}" needs ${element.scrollWidth} px, has ${element.clientWidth}`] : [];
    }),
  );
}

/** Drop-downs whose chosen option's words do not fit beside the arrow. */
function clippedChoices(page: Page): Promise<string[]> {
  return page.$$eval('select', (selects) => {
    const context = document.createElement('canvas').getContext('2d');
    return selects.flatMap((select) => {
      const text = select.selectedOptions[0]?.text ?? '';
      if (!context || select.getBoundingClientRect().width === 0 || text === '') return [];
      const style = getComputedStyle(select);
      context.font = style.font;
      // The arrow takes about 20 px of the box beside the padding.
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      const needs = context.measureText(text).width;
      return needs > room ? [`choice "${text}" needs ${Math.round(needs)} px, has ${Math.round(room)}`] : [];
    });
  });
}

describe('the side panel at 320, 360 and 480 px in both themes', () => {
  it.each([320, 360, 480])('fits every main view at %i px: no sideways scroll, 16 px boxes, no clipped label', async (width) => {
    await panel.setViewport({ width, height: 900 });
    const problems: string[] = [];
    for (const view of VIEWS) {
      await panel.click(`[data-testid=flow-${view}]`);
      await panel.waitForSelector(`[data-testid=flow-${view}][aria-selected=true]`);
      for (const scheme of ['light', 'dark'] as const) {
        await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
        const background = await panel.evaluate(() => getComputedStyle(document.body).backgroundColor);
        if ((background === 'rgb(17, 19, 24)') !== (scheme === 'dark')) problems.push(`${view} ${scheme}: body background is ${background}`);
        const found = [...(await overflowing(panel)), ...(await smallBoxes(panel)), ...(await clippedLabels(panel)), ...(await clippedChoices(panel))];
        problems.push(...found.map((problem) => `${view} ${width}px ${scheme}: ${problem}`));
        await panel.screenshot({ path: join(shots, `${view}-${width}-${scheme}.png`), fullPage: true });
      }
    }
    await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    expect(problems).toEqual([]);
  });
});
