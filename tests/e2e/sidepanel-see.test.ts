import { mkdir } from 'node:fs/promises';
import type { Page, WebWorker } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from './support/e2e-fixture';
import { screenshotBothSchemes, fakeModelSettings } from './support/panel-harness';
import { seriousViolations } from './support/axe-check';
import { call, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

const FIRST = `<!doctype html><title>Orders</title><h1>Your orders</h1><p>Order 1234: Pocket Buds, shipped.</p>
  <a href="/two">Order details</a>`;
const SECOND = `<!doctype html><title>Order 1234</title><h1>Order 1234</h1><p>Delivered on Monday.</p>`;

const e2e = useE2e({ routes: { '/': FIRST, '/two': SECOND }, model: true });
let target: Page;
let panel: Page;
let worker: WebWorker;
let tabId: number;

beforeAll(async () => {
  worker = await e2e.ext.worker();
  ({ target, panel, tabId } = await e2e.panelOn(e2e.site.url('/', 'shop.test'), fakeModelSettings(e2e.fake.openaiBaseUrl)));
});

/** The toolbar badge the controlled tab shows, and its tooltip, as the browser has them for that tab. */
async function badgeOf(id: number): Promise<{ text: string; title: string }> {
  return (await worker.evaluate(`Promise.all([chrome.action.getBadgeText({ tabId: ${id} }), chrome.action.getTitle({ tabId: ${id} })]).then(([text, title]) => ({ text, title }))`)) as {
    text: string;
    title: string;
  };
}

/** The outline Deputy draws over the controlled page: how many there are, and how it takes pointer events. */
function outlineOf(page: Page): Promise<{ count: number; pointerEvents: string; hidden: string | null }> {
  return page.evaluate(() => {
    const markers = document.querySelectorAll('deputy-tab-marker');
    const first = markers[0];
    return { count: markers.length, pointerEvents: first ? getComputedStyle(first).pointerEvents : '', hidden: first?.getAttribute('aria-hidden') ?? null };
  });
}

/** A reply held until the test lets it go, so the task is still running while the test looks at the tab. */
function held(): { hold: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const hold = new Promise<void>((resolve) => (release = resolve));
  return { hold, release };
}

describe('seeing what the agent sees', () => {
  it('marks the controlled tab with a badge and an outline while the task runs, across a page load, and clears both after', async () => {
    const before = await uiCall(panel, 'page.snapshot', { tabId, mode: 'viewport' });
    const first = held();
    const second = held();
    e2e.fake.enqueue(
      (r) => ({ ...call('click', { ref: refIn(r, 'link', /^Order details$/) }), holdUntil: first.hold }),
      () => ({ ...call('done', { success: true, summary: 'Order 1234 was delivered on Monday.' }), holdUntil: second.hold }),
    );
    await panel.type('[data-testid=task-input]', 'When was order 1234 delivered?');
    // The page in front, as the user watching it would have it: only the tab in front can be captured for the steps.
    await target.bringToFront();
    await panel.$eval('[data-testid=run-task]', (button) => (button as HTMLButtonElement).click());

    await target.waitForSelector('deputy-tab-marker', { timeout: 30_000 });
    expect(await badgeOf(tabId)).toEqual({ text: '●', title: 'Deputy is working in this tab' });
    expect(await outlineOf(target)).toEqual({ count: 1, pointerEvents: 'none', hidden: 'true' });
    // The page as the user sees it while Deputy works in it (for the README, through npm run screenshots).
    await mkdir('test-artifacts/screenshots', { recursive: true });
    await target.setViewport({ width: 640, height: 400 });
    await target.screenshot({ path: 'test-artifacts/screenshots/page-controlled-tab.png', captureBeyondViewport: false });
    // The model reads the page without the outline: the snapshot is the one from before the task.
    expect((await uiCall(panel, 'page.snapshot', { tabId, mode: 'viewport' })).text).toBe(before.text);
    // Another tab (the panel's own) keeps the badge every tab shares.
    const panelTab = await panel.evaluate(async () => (await chrome.tabs.getCurrent())?.id ?? -1);
    expect(await badgeOf(panelTab)).toEqual({ text: '', title: 'Deputy' });

    first.release();
    await target.waitForFunction(() => location.pathname === '/two' && document.querySelector('deputy-tab-marker') !== null, { timeout: 30_000 });
    expect(await outlineOf(target)).toEqual({ count: 1, pointerEvents: 'none', hidden: 'true' });
    expect((await badgeOf(tabId)).text).toBe('●');

    second.release();
    await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    await target.waitForFunction(() => document.querySelector('deputy-tab-marker') === null, { timeout: 30_000 });
    // The badge is cleared after the task's end is stored: wait for it, not for a time.
    await waitUntil('the badge to be cleared', async () => (await badgeOf(tabId)).text === '');
    expect(await badgeOf(tabId)).toEqual({ text: '', title: 'Deputy' });
  });

  it('puts a thumbnail of each step on its card that opens the full screenshot, live and in History', async () => {
    await panel.bringToFront();
    const taskId = (await panel.$eval('[data-testid=task-progress]', (element) => element.getAttribute('data-task-id'))) ?? '';
    await panel.waitForSelector('[data-testid=step-thumbnail]', { timeout: 30_000 });
    const shots = await uiCall(panel, 'task.screenshots', { taskId });
    expect(shots.map((shot) => shot.step)).toEqual([0, 1]);
    expect(await panel.$$eval('[data-testid=step-thumbnail]', (buttons) => buttons.map((button) => button.getAttribute('data-step')))).toEqual(['0', '1']);
    expect(await panel.$('[data-testid=step-no-screenshot]')).toBeNull();
    const thumbWidth = await panel.$eval('[data-testid=step-thumbnail] img', (img) => img.naturalWidth);
    // The thumbnail is a small image of its own, not the full screenshot scaled down by the page.
    expect(thumbWidth).toBeLessThanOrEqual(320);

    await panel.click('[data-testid=step-thumbnail][data-step="1"]');
    await panel.waitForSelector('[data-testid=screenshot-dialog][open] [data-testid=screenshot-full]');
    await panel.waitForFunction(() => (document.querySelector<HTMLImageElement>('[data-testid=screenshot-full]')?.naturalWidth ?? 0) > 0);
    const full = await panel.$eval('[data-testid=screenshot-full]', (img) => ({ width: (img as HTMLImageElement).naturalWidth, src: (img as HTMLImageElement).src }));
    expect(full.width).toBeGreaterThan(thumbWidth);
    expect(full.src).toBe(`data:image/jpeg;base64,${shots[1]?.base64 ?? ''}`);
    expect(await panel.$eval('#shot-dialog-title', (element) => element.textContent)).toBe('The page at step 2');
    expect(await seriousViolations(panel, 'screenshot dialog')).toEqual([]);
    // It opens fitted to the panel's width (not at thumbnail size); a click shows its real pixels, another fits it again.
    const shown = (): Promise<{ width: number; panel: number }> =>
      panel.$eval('[data-testid=screenshot-full]', (img) => ({ width: Math.round(img.getBoundingClientRect().width), panel: document.documentElement.clientWidth }));
    const fitted = await shown();
    expect(fitted.width).toBeGreaterThan(fitted.panel * 0.8);
    expect(fitted.width).toBeLessThanOrEqual(fitted.panel);
    await panel.click('[data-testid=screenshot-zoom]');
    await waitUntil('the screenshot at full size', async () => Math.abs((await shown()).width - full.width) <= 2);
    expect(await panel.$eval('[data-testid=screenshot-zoom]', (button) => button.getAttribute('aria-pressed'))).toBe('true');
    await panel.click('[data-testid=screenshot-zoom]');
    await waitUntil('the screenshot fitted again', async () => (await shown()).width === fitted.width);
    // Esc closes the dialog and gives the focus back; the finished task is left as it was.
    await panel.keyboard.press('Escape');
    await panel.waitForSelector('[data-testid=screenshot-dialog]:not([open])');
    expect(await screenshotBothSchemes(panel, 'panel-step-thumbnails')).toEqual([]);

    await panel.click('[data-testid=flow-history]');
    await panel.waitForSelector(`[data-testid=history-item][data-task-id="${taskId}"]`);
    await panel.click(`[data-testid=history-item][data-task-id="${taskId}"]`);
    await panel.waitForSelector('[data-testid=history-detail] [data-testid=step-thumbnail]');
    await panel.click('[data-testid=history-detail] [data-testid=step-thumbnail][data-step="0"]');
    await panel.waitForFunction(() => (document.querySelector<HTMLImageElement>('[data-testid=screenshot-dialog][open] [data-testid=screenshot-full]')?.src ?? '').length > 100);
    expect(await panel.$eval('[data-testid=screenshot-full]', (img) => (img as HTMLImageElement).src)).toBe(`data:image/jpeg;base64,${shots[0]?.base64 ?? ''}`);
    await panel.click('[data-testid=screenshot-close]');
    await panel.waitForSelector('[data-testid=screenshot-dialog]:not([open])');
  });
});
