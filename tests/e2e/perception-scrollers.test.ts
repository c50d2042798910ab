import { describe, expect, it } from 'vitest';
import { lineOf, refOf, usePerception } from './support/perception-harness';

// Issue 26 (a covered mark a model can trust, and scroll by ref as the tool says): a day that scrolls on its own, as
// MiniWoB's daily-calendar, with events drawn over its slots. What shows of each slot is judged inside the box that
// scrolls it: a slot scrolled out of the box is offscreen (not covered by whatever is drawn where it would be, nor
// shown as free), a slot half in view is judged by its half that shows, and a slot under an event is covered, by the
// event the snapshot numbers. scroll with the slot's ref and no direction brings it into view in the box.
describe('controls inside a box that scrolls on its own', () => {
  const h = usePerception();

  it('marks slots scrolled out of the box offscreen, judges a half-shown slot by its shown half, and names the event that covers one', async () => {
    const { page, tabId } = await h.open('/calendar.html');
    const shot = await h.snapshot(tabId);
    const slot = (i: number) => refOf(shot, 'clickable', `Slot ${i}`);
    for (const i of [1, 3, 4]) expect(lineOf(shot, slot(i)), `slot ${i}`).toMatch(new RegExp(`"Slot ${i}"$`));
    expect(lineOf(shot, slot(2))).toMatch(/"Slot 2" covered$/);
    // Out of the box's view, above and below, whether an event is drawn where it would be (5, 6) or not (0, 8).
    for (const i of [0, 5, 6, 8, 11]) expect(lineOf(shot, slot(i)), `slot ${i}`).toMatch(new RegExp(`"Slot ${i}" offscreen$`));
    expect(lineOf(shot, refOf(shot, 'clickable', 'Party'))).toMatch(/"Party"$/);
    expect(lineOf(shot, refOf(shot, 'clickable', 'Gym'))).toMatch(/"Gym" offscreen$/);

    // A click on the covered slot says what covers it as the snapshot names it.
    const blocked = await h.act(tabId, { kind: 'click', ref: slot(2) });
    expect(blocked.ok).toBe(false);
    expect(blocked.message).toContain(`is covered by [${refOf(shot, 'clickable', 'Party')}] clickable "Party": a click would land there`);
    // The half-shown slot is clicked in its shown half.
    const half = await h.act(tabId, { kind: 'click', ref: slot(4) });
    expect(half.ok, half.message).toBe(true);
    expect(await page.$eval('#log', (el) => el.textContent)).toBe('slot-4;');

    // Scrolled into view by its ref: the slot shows, the ones that were in view are out of it now.
    const scrolled = await h.act(tabId, { kind: 'scroll', ref: slot(9) });
    expect(scrolled.ok, scrolled.message).toBe(true);
    expect(scrolled.message).toContain('Scrolled [');
    const after = await h.snapshot(tabId);
    expect(lineOf(after, slot(9))).toMatch(/"Slot 9"$/);
    expect(lineOf(after, slot(1))).toMatch(/"Slot 1" offscreen$/);
    expect(await page.$eval('#area', (el) => el.scrollTop)).toBeGreaterThan(30);
  });
});
