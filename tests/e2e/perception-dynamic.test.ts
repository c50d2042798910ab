import { describe, expect, it } from 'vitest';
import { lineOf, refOf, usePerception } from './support/perception-harness';

// Pages that change under the agent: a modal overlay, lists that re-render between snapshot and action, an infinite
// feed, and a React app whose inputs are controlled by React state.
describe('perception and actions on pages that change', () => {
  const h = usePerception();

  it('marks controls under a modal overlay as covered, refuses to click through it, and reports the dialog closing', async () => {
    const { page, tabId } = await h.open('/modal.html');
    const shot = await h.snapshot(tabId);
    const buy = refOf(shot, 'button', 'Buy now');
    expect(lineOf(shot, buy)).toMatch(/ covered$/);
    expect(shot.text).toContain('dialog "Accept cookies":');
    expect(lineOf(shot, refOf(shot, 'button', 'Accept'))).not.toContain('covered');

    const blocked = await h.act(tabId, { kind: 'click', ref: buy });
    expect(blocked.ok).toBe(false);
    // What covers it is named as the snapshot names it: the dialog whose backdrop it is (never a class or an id).
    expect(blocked.message).toContain('is covered by the backdrop of dialog "Accept cookies"');
    expect(await page.$eval('#status', (el) => el.textContent)).toBe('Not bought');

    await h.act(tabId, { kind: 'click', ref: refOf(shot, 'button', 'Accept') });
    const after = await h.snapshot(tabId);
    expect(after.text).toContain('dialog "Accept cookies" closed');
    expect(lineOf(after, buy)).not.toContain('covered');
    const bought = await h.act(tabId, { kind: 'click', ref: buy });
    expect(bought.ok, bought.message).toBe(true);
    expect(await page.$eval('#status', (el) => el.textContent)).toBe('Bought');
  });

  it('acts on the re-rendered copy of an element when it is the only match, and never on a look-alike', async () => {
    const { page, tabId } = await h.open('/rerender.html');
    const shot = await h.snapshot(tabId);
    const deletes = shot.elements.filter((el) => el.name === 'Delete').map((el) => el.ref);
    expect(deletes).toHaveLength(3);
    const [alphaDelete, betaDelete, gammaDelete] = deletes as [number, number, number];

    await h.act(tabId, { kind: 'click', ref: refOf(shot, 'button', 'Refresh list') });
    const beta = await h.act(tabId, { kind: 'click', ref: betaDelete });
    expect(beta.ok, beta.message).toBe(true);
    expect(beta.evidence[0]).toMatch(new RegExp(`^\\[${betaDelete}\\] had been re-rendered; acted on the same element, now \\[\\d+\\]$`));
    expect(await page.evaluate(() => (window as unknown as { removed: string[] }).removed)).toEqual(['Beta']);

    // Gamma's row is gone for good: the one "Delete" left belongs to Alpha and must not be clicked in its place.
    const fresh = await h.snapshot(tabId);
    const gammaNow = fresh.elements.filter((el) => el.name === 'Delete').map((el) => el.ref)[1];
    await h.act(tabId, { kind: 'click', ref: gammaNow });
    const gone = await h.act(tabId, { kind: 'click', ref: gammaDelete });
    expect(gone.ok).toBe(false);
    expect(gone.message).toMatch(/^Element \[\d+\] button "Delete" is gone; closest candidates: \[\d+\] button "Delete"/);
    expect(await page.evaluate(() => (window as unknown as { removed: string[] }).removed)).toEqual(['Beta', 'Gamma']);
    expect(alphaDelete).toBeLessThan(betaDelete);
  });

  it('refuses to guess between identical twins after a re-render', async () => {
    const { tabId } = await h.open('/rerender.html');
    const shot = await h.snapshot(tabId);
    const [first] = shot.elements.filter((el) => el.name === 'Same').map((el) => el.ref);
    await h.act(tabId, { kind: 'click', ref: refOf(shot, 'button', 'Refresh list') });
    const twin = await h.act(tabId, { kind: 'click', ref: first });
    expect(twin.ok).toBe(false);
    expect(twin.message).toMatch(/is gone; closest candidates: \[\d+\] button "Same", \[\d+\] button "Same"/);
  });

  it('scrolls an infinite feed until new items load, shows what lies below, and finds items outside the view', async () => {
    const { tabId } = await h.open('/infinite.html');
    const first = await h.snapshot(tabId);
    expect(first.text).toMatch(/\(\d+ more elements below; scroll down or use find\)/);
    expect(first.elements.some((el) => el.name === 'Item 20')).toBe(false);
    const farAway = await h.act(tabId, { kind: 'find', text: 'Item 17' });
    expect(farAway.evidence.join('\n')).toMatch(/\[\d+\] link "Item 17"/);

    let reachedEnd = false;
    for (let i = 0; i < 12 && !reachedEnd; i += 1) {
      const scrolled = await h.act(tabId, { kind: 'scroll', direction: 'down', pages: 1 });
      expect(scrolled.ok).toBe(true);
      const shot = await h.snapshot(tabId);
      reachedEnd = shot.elements.some((el) => el.name === 'Item 45');
    }
    expect(reachedEnd).toBe(true);
    const later = await h.snapshot(tabId);
    expect(later.text).toMatch(/\(\d+ more elements above; scroll up to see them\)/);
    const item45 = refOf(later, 'link', 'Item 45');
    const clicked = await h.act(tabId, { kind: 'click', ref: item45 });
    expect(clicked.evidence.join(' ')).toContain('#item-45');
  });

  it('types into React-controlled inputs so React state follows, and clicks a button React replaced', async () => {
    const { page, tabId } = await h.open('/react.html');
    await page.waitForSelector('#echo');
    const shot = await h.snapshot(tabId);
    const name = await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Name'), text: 'Ada' });
    expect(name.evidence).toContain('value is now "Ada"');
    await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Bio'), text: 'Engineer' });
    await h.act(tabId, { kind: 'select', ref: refOf(shot, 'combobox', 'Plan'), values: ['Pro'] });
    await h.act(tabId, { kind: 'check', ref: refOf(shot, 'checkbox', 'Terms'), checked: true });
    expect(await page.$eval('#echo', (el) => el.textContent)).toBe('Hello Ada / Engineer / pro / agreed');

    const rerender = refOf(shot, 'button', 'Re-render me');
    await h.act(tabId, { kind: 'click', ref: rerender });
    expect(await page.$eval('#renders', (el) => el.textContent)).toBe('Renders 1');
    const again = await h.act(tabId, { kind: 'click', ref: rerender });
    expect(again.ok, again.message).toBe(true);
    expect(again.evidence[0]).toContain('had been re-rendered');
    expect(await page.$eval('#renders', (el) => el.textContent)).toBe('Renders 2');

    const saved = await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Name'), text: 'Grace', submit: true });
    expect(saved.evidence).toContain('title is now "Saved Grace"');
  });
});
