import type { Page } from 'puppeteer-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useE2e } from './support/e2e-fixture';
import { fakeModelSettings, screenshotBothSchemes } from './support/panel-harness';
import { uiCall } from './support/ui-call';

const e2e = useE2e({ routes: { '/': '<!doctype html><title>Shop</title><h1>Shop</h1>' }, model: true });
let target: Page | undefined;
let panel: Page | undefined;

afterEach(async () => {
  await panel?.close().catch(() => undefined);
  await target?.close().catch(() => undefined);
});

/** The rows the view tabs sit in: how many tabs each row holds. */
function tabRows(page: Page): Promise<number[]> {
  return page.$$eval('.app__nav [role=tab]', (tabs) => {
    const rows = new Map<number, number>();
    for (const tab of tabs) {
      const top = Math.round(tab.getBoundingClientRect().top);
      rows.set(top, (rows.get(top) ?? 0) + 1);
    }
    return [...rows.values()];
  });
}

describe('rough edges of the side panel', () => {
  it('shows the Agents tab as soon as MCP is turned on, with an empty state that says how to connect an agent', async () => {
    ({ target, panel } = await e2e.panelOn(e2e.site.url('/', 'shop.test'), { ...fakeModelSettings(e2e.fake.openaiBaseUrl), mcp: { enabled: false, mode: 'act', shell: false, desktop: false } }));
    expect(await panel.$('[data-testid=flow-agents]')).toBeNull();
    await panel.click('[data-testid=flow-settings]');
    await panel.waitForSelector('[data-testid=mcp-enabled]');
    await panel.click('[data-testid=mcp-enabled]');
    await panel.click('[data-testid=save-settings]');
    // No reload: the tab is there once the settings are saved.
    await panel.waitForSelector('[data-testid=flow-agents]', { timeout: 60_000 });
    await panel.click('[data-testid=flow-agents]');
    await panel.waitForSelector('[data-testid=agents-empty]');
    const empty = await panel.$eval('[data-testid=agents-empty]', (element) => element.textContent ?? '');
    expect(empty).toContain('claude mcp add deputy -- deputy mcp');
    expect(empty).toContain('npm run host:install');
    expect(await screenshotBothSchemes(panel, 'panel-agents-empty')).toEqual([]);
  });

  it.each([320, 360, 480])('keeps every checkbox its size and the view tabs in even rows at %i px, in both themes', async (width) => {
    ({ target, panel } = await e2e.panelOn(e2e.site.url('/', 'shop.test'), { ...fakeModelSettings(e2e.fake.openaiBaseUrl), mcp: { enabled: true, mode: 'act', shell: false, desktop: false } }));
    await panel.setViewport({ width, height: 900 });
    await panel.click('[data-testid=flow-settings]');
    await panel.waitForSelector('[data-testid=approve-each-step]');
    const boxes = await panel.$$eval('input[type=checkbox]', (inputs) => inputs.filter((input) => input.getBoundingClientRect().width > 0).map((input) => Math.round(input.getBoundingClientRect().width)));
    expect(boxes.length).toBeGreaterThan(3);
    for (const size of boxes) expect(size).toBeGreaterThanOrEqual(12);
    const rows = await tabRows(panel);
    // Six views: one row where they fit, else rows of three; never a tab alone on a row.
    expect(rows.reduce((a, b) => a + b, 0)).toBe(6);
    for (const count of rows) expect(count).toBeGreaterThan(1);
    expect(await screenshotBothSchemes(panel, `panel-settings-${width}`)).toEqual([]);
  });

  it('points a refused key on the first-run card at the key field above it, not at Settings', async () => {
    ({ target, panel } = await e2e.panelOn(e2e.site.url('/', 'shop.test'), { provider: null }));
    await panel.waitForSelector('[data-testid=connect-model]');
    await panel.click('[data-testid=connect-preset-custom]');
    await panel.type('[data-testid=connect-base-url]', e2e.fake.openaiBaseUrl);
    await panel.type('[data-testid=connect-model-name]', 'gpt-4o-mini');
    await panel.type('[data-testid=connect-api-key]', 'sk-wrong');
    e2e.fake.enqueue({ error: { status: 401, message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    await panel.click('[data-testid=connect-test]');
    await panel.waitForFunction(() => /key/i.test(document.querySelector('[data-testid=connect-result]')?.textContent ?? ''), { timeout: 60_000 });
    const text = await panel.$eval('[data-testid=connect-result]', (element) => element.textContent ?? '');
    expect(text).toMatch(/above/);
    expect(text).not.toMatch(/Settings/);
    expect((await uiCall(panel, 'settings.get', {})).provider).toBeNull();
  });
});
