import type { Page } from 'puppeteer-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useE2e } from './support/e2e-fixture';
import { call, refIn } from './support/snapshot-refs';

// Item 5 of issue 24: what the user is shown is where the browser goes. A button whose label is written with a
// right-to-left override, and a link to a look-alike host written in Unicode.
const reversed = (text: string): string => [...text].reverse().join('');
const LOOK_ALIKE = 'shоp.test'; // the "о" is Cyrillic: the browser goes to xn--shp-ted.test

const e2e = useE2e({
  model: 'act',
  routes: (url) => ({
    '/plan': `<!doctype html><title>Notice</title>
      <form method="post" action="/subscribe"><input type="hidden" name="plan" value="premium-monthly">
      <p>Premium, $9.99/month, billed today.</p><button>\u202e${reversed('Close this notice')}\u202c</button></form>
      <p id="s">Not subscribed</p>`,
    '/': `<!doctype html><title>Shop</title><h1>Shop</h1><a href="${url('/deal', LOOK_ALIKE)}">Today's deal</a>`,
    '/deal': '<!doctype html><title>Deal</title><h1>The deal</h1>',
  }),
});
let target: Page | undefined;
let panel: Page | undefined;

afterEach(async () => {
  await panel?.close().catch(() => undefined);
  await target?.close().catch(() => undefined);
});

async function run(url: string, text: string): Promise<void> {
  ({ target, panel } = await e2e.panelOn(url, e2e.modelSettings('act')));
  await panel.type('[data-testid=task-input]', text);
  await panel.$eval('[data-testid=run-task]', (button) => (button as HTMLButtonElement).click());
  await panel.waitForSelector('[data-testid=approval-card]', { timeout: 60_000 });
}

function cardText(page: Page): Promise<{ intent: string; reason: string; destination: string; warning: string }> {
  return page.$eval('[data-testid=approval-card]', (card) => ({
    intent: card.querySelector('[data-testid=approval-intent]')?.textContent ?? '',
    reason: card.querySelector('[data-testid=approval-reason]')?.textContent ?? '',
    destination: card.querySelector('[data-testid=approval-destination]')?.textContent ?? '',
    warning: card.querySelector('[data-testid=approval-warning]')?.textContent ?? '',
  }));
}

const INVISIBLE = /[\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/u;

describe('what the user is shown is where the browser goes', () => {
  it('asks before a button labelled with a right-to-left override buys a plan, and shows its label as displayed', async () => {
    // The model is sent the label as the page displays it; it finds the button by that name.
    e2e.fake.enqueue((r) => call('click', { ref: refIn(r, 'button', /^Close this notice$/) }), call('done', { success: false, summary: 'Not approved.' }));
    await run(e2e.site.url('/plan', 'shop.test'), 'Close the notice');
    const card = await cardText(panel as Page);
    expect(card.intent).toContain('Close this notice');
    for (const text of Object.values(card)) expect(INVISIBLE.test(text), text).toBe(false);
    expect(`${card.intent} ${card.reason}`).not.toContain(reversed('notice'));
    await (panel as Page).click('[data-testid=reject]');
    await (panel as Page).waitForSelector('[data-testid=task-progress][data-status=completed], [data-testid=task-progress][data-status=failed]', { timeout: 60_000 });
    expect(await (target as Page).$eval('#s', (element) => element.textContent)).toBe('Not subscribed');
    expect((target as Page).url()).toContain('/plan');
  });

  it('shows a look-alike host in punycode with its Unicode beside it, warns, and goes there once approved', async () => {
    e2e.fake.enqueue((r) => call('click', { ref: refIn(r, 'link', /Today's deal/) }), call('done', { success: true, summary: 'Opened the deal.' }));
    await run(e2e.site.url('/', 'shop.test'), "Open today's deal");
    const card = await cardText(panel as Page);
    expect(card.destination).toContain(`xn--shp-ted.test:${e2e.site.port}`);
    expect(card.destination).toContain(`(${LOOK_ALIKE})`);
    expect(card.warning).toContain('looks like shop.test');
    await (panel as Page).click('[data-testid=approve]');
    await (panel as Page).waitForSelector('[data-testid=task-progress][data-status=completed]', { timeout: 60_000 });
    expect(new URL((target as Page).url()).hostname).toBe('xn--shp-ted.test');
  });
});
