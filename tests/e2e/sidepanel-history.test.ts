import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPanel, screenshotBothSchemes, tabIdOf, texts, fakeModelSettings } from './support/panel-harness';
import { call, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';
import { useE2e } from './support/e2e-fixture';

const TASK = 'Add the Pocket Buds to the cart';

const e2e = useE2e({ demo: true, model: true });
let panel: Page;
let downloads: string;
let taskId: string;

beforeAll(async () => {
  downloads = await mkdtemp(join(tmpdir(), 'deputy-downloads-'));
  const session = await e2e.ext.browser.target().createCDPSession();
  await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });

  // One finished task to look back on, run from the panel like any other.
  const target = await e2e.ext.browser.newPage();
  await target.goto(e2e.shop.url, { waitUntil: 'load' });
  const helper = await e2e.ext.openExtensionPage('extension/sidepanel/index.html');
  const tabId = await tabIdOf(helper, e2e.shop.url);
  await uiCall(helper, 'settings.set', fakeModelSettings(e2e.fake.openaiBaseUrl));
  await helper.close();
  // Each reply reports 20k tokens in (half of them read from the prompt cache) and 500 out, as OpenAI's usage does.
  const usage = { input: 20_000, output: 500, cached: 10_000 };
  e2e.fake.enqueue((r) => ({ ...call('click', { ref: refIn(r, 'button', /^Add Pocket Buds/) }), usage }), { ...call('done', { success: true, summary: 'Added the Pocket Buds.' }), usage });
  panel = await openPanel(e2e.ext, tabId);
  await panel.type('[data-testid=task-input]', TASK);
  await panel.keyboard.press('Enter');
  await panel.waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
  taskId = (await panel.$eval('[data-testid=task-progress]', (element) => element.getAttribute('data-task-id'))) ?? '';
});
afterAll(async () => {
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

async function downloaded(extension: string): Promise<string> {
  for (;;) {
    const name = (await readdir(downloads)).find((file) => file.endsWith(extension));
    if (name) return readFile(join(downloads, name), 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('history in the side panel', () => {
  it('lists past tasks by site with outcome, duration and cost, and opens one to its steps', async () => {
    await panel.click('[data-testid=flow-history]');
    await panel.waitForSelector('[data-testid=history-item]');
    expect(await texts(panel, '.history__site h2')).toEqual([new URL(e2e.shop.url).host]);
    const item = await panel.$eval(`[data-testid=history-item][data-task-id="${taskId}"]`, (element) => element.textContent ?? '');
    expect(item).toContain(TASK);
    expect(item).toContain('Done');
    expect(item).toMatch(/\d+s/);
    // The model's price is known: per reply 10k plain input at $0.15/M, 10k cached at $0.075/M and 500 out at $0.60/M.
    expect((await uiCall(panel, 'task.get', { taskId }))?.agent?.usage.costUsd).toBeCloseTo(2 * (0.0015 + 0.00075 + 0.0003), 8);
    expect(await panel.$eval(`[data-testid=history-item][data-task-id="${taskId}"] [data-testid=history-cost]`, (element) => element.textContent)).toBe('$0.0051');
    expect(item).not.toContain('cost unknown');
    expect(await screenshotBothSchemes(panel, 'panel-history')).toEqual([]);

    await panel.click(`[data-testid=history-item][data-task-id="${taskId}"]`);
    await panel.waitForSelector('[data-testid=history-detail]');
    const steps = await texts(panel, '[data-testid=history-detail] [data-testid=step-text]');
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatch(/^Clicked button "Add Pocket Buds/);
    expect(await screenshotBothSchemes(panel, 'panel-history-detail')).toEqual([]);
  });

  it('totals what the tasks cost per day and per site', async () => {
    if (await panel.$('[data-testid=history-back]')) await panel.click('[data-testid=history-back]');
    await panel.waitForSelector('[data-testid=history-totals]');
    await panel.click('[data-testid=history-totals] summary');
    const days = await texts(panel, '[data-testid=history-totals-days] [data-testid=history-total]');
    const sites = await texts(panel, '[data-testid=history-totals-sites] [data-testid=history-total]');
    // The day as the panel's own locale writes it, on the day the task ran.
    const createdAt = (await uiCall(panel, 'task.get', { taskId }))?.createdAt ?? 0;
    const today = await panel.evaluate((at) => new Date(at).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }), createdAt);
    expect(days).toEqual([`${today}$0.0051 · 1 task`]);
    expect(sites).toEqual([`${new URL(e2e.shop.url).host}$0.0051 · 1 task`]);
    expect(await screenshotBothSchemes(panel, 'panel-history-totals')).toEqual([]);
    // The next tests work on the task opened again.
    await panel.click(`[data-testid=history-item][data-task-id="${taskId}"]`);
    await panel.waitForSelector('[data-testid=history-detail]');
  });

  it('exports the trace as JSONL and a readable report', async () => {
    await panel.click('[data-testid=export-trace]');
    const jsonl = await downloaded('.jsonl');
    const trace = await uiCall(panel, 'task.trace', { taskId });
    expect(jsonl).toBe(trace.jsonl);
    const lines = jsonl.trim().split('\n');
    expect(lines.length).toBe(trace.records);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();

    await panel.click('[data-testid=export-report]');
    const report = await downloaded('.md');
    expect(report).toContain(`# Deputy task on ${new URL(e2e.shop.url).host}`);
    expect(report).toContain(`- Task: ${TASK}`);
    expect(report).toContain('Added the Pocket Buds.');
    expect(report).toMatch(/1\. Clicked button "Add Pocket Buds/);
  });

  it('reruns a task by putting it back in the task box', async () => {
    await panel.click('[data-testid=rerun]');
    await panel.waitForSelector('[data-testid=task-flow]');
    // The box is filled after the view's first render: wait for it rather than read it at once.
    await panel.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('[data-testid=task-input]')?.value !== '');
    expect(await panel.$eval('[data-testid=task-input]', (box) => (box as HTMLTextAreaElement).value)).toBe(TASK);
  });

  it('finds tasks by words and by site', async () => {
    await panel.click('[data-testid=flow-history]');
    await panel.waitForSelector(`[data-testid=history-item][data-task-id="${taskId}"]`);
    await panel.type('[data-testid=history-search]', 'pocket CART');
    expect(await panel.$$eval('[data-testid=history-item]', (items) => items.map((item) => item.getAttribute('data-task-id')))).toEqual([taskId]);
    await panel.$eval('[data-testid=history-search]', (input) => ((input as HTMLInputElement).value = ''));
    await panel.type('[data-testid=history-search]', 'refund');
    await panel.waitForSelector('[data-testid=history-empty]');
    expect(await panel.$eval('[data-testid=history-empty]', (element) => element.textContent)).toBe('No task matches “refund”.');
    await panel.click('[data-testid=history-search]', { count: 3 });
    await panel.keyboard.type(new URL(e2e.shop.url).host);
    await panel.waitForSelector(`[data-testid=history-item][data-task-id="${taskId}"]`);
  });

  it('deletes a task with a moment to undo it, then from the history and from storage', async () => {
    await panel.click('[data-testid=flow-task]');
    await panel.click('[data-testid=flow-history]');
    await panel.waitForSelector(`[data-testid=history-item][data-task-id="${taskId}"]`);
    const deleteOpenTask = async (): Promise<void> => {
      await panel.click(`[data-testid=history-item][data-task-id="${taskId}"]`);
      await panel.waitForSelector('[data-testid=delete-task]');
      await panel.click('[data-testid=delete-task]');
      await panel.waitForSelector('[data-testid=undo-delete-bar]');
    };
    await deleteOpenTask();
    expect(await panel.$(`[data-testid=history-item][data-task-id="${taskId}"]`)).toBeNull();
    expect(await panel.$eval('[data-testid=undo-delete-bar]', (element) => element.textContent)).toBe(`Deleted “${TASK}”.Undo`);
    // Undo brings it back, and nothing was deleted in storage.
    await panel.click('[data-testid=undo-delete]');
    await panel.waitForSelector(`[data-testid=history-item][data-task-id="${taskId}"]`);
    expect(await uiCall(panel, 'task.get', { taskId })).not.toBeNull();
    // Deleted again and left: leaving the view deletes it for good.
    await deleteOpenTask();
    await panel.click('[data-testid=flow-task]');
    // The deletion travels to the background: wait for it to land.
    await waitUntil('the task to be gone', async () => (await uiCall(panel, 'task.get', { taskId })) === null);
    expect(await uiCall(panel, 'task.get', { taskId })).toBeNull();
    expect((await uiCall(panel, 'task.trace', { taskId })).records).toBe(0);
    await panel.click('[data-testid=flow-history]');
    await panel.waitForSelector('[data-testid=history]');
    expect(await panel.$(`[data-testid=history-item][data-task-id="${taskId}"]`)).toBeNull();
  });
});
