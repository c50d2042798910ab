import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { lineOf, refOf, usePerception, type PageSnapshot } from './support/perception-harness';

// The widgets fixture has open and closed shadow roots, a same-origin and a cross-origin iframe (localhost beside
// 127.0.0.1), hidden controls of every kind, a contenteditable area, a native select and an ARIA combobox.
describe('page perception and actions on the widgets fixture', () => {
  const h = usePerception();
  let page: Page;
  let tabId: number;
  let shot: PageSnapshot;

  beforeAll(async () => {
    ({ page, tabId } = await h.open('/widgets.html'));
    shot = await h.snapshot(tabId, 'page');
  });

  it('numbers every visible control, inside open and closed shadow roots and both kinds of iframe', () => {
    const names = shot.elements.map((el) => `${el.role} ${el.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'link Next page',
        'textbox Email',
        'textbox Password',
        'checkbox I agree',
        'combobox Color',
        'textbox Notes',
        'button More options',
        'button Open shadow button',
        'textbox Closed input',
        'button Closed shadow button',
        'combobox Fruit',
        'clickable Clickable card',
        'button Same frame button',
        'textbox Cross input',
        'button Cross frame button',
      ]),
    );
    const cross = shot.elements.find((el) => el.name === 'Cross frame button');
    expect(cross?.frameId).toBeGreaterThan(0);
    // A field with only a placeholder is named by it, as browsers name it; the id (#search) is never its name.
    expect(shot.text).toMatch(/^\[\d+\] textbox "Search products"$/m);
    expect(shot.text).toContain('# Widgets');
    expect(shot.text).toContain('navigation "Main":');
  });

  it('leaves out hidden, inert, aria-hidden, zero-size and collapsed content, and masks passwords', () => {
    for (const hidden of ['Hidden by display', 'Hidden by visibility', 'Hidden by aria', 'Hidden by inert', 'Zero size', 'Inside closed details']) {
      expect(shot.text).not.toContain(hidden);
    }
    expect(shot.text).not.toContain('hunter22');
    expect(lineOf(shot, refOf(shot, 'textbox', 'Password'))).toContain('value="••••');
  });

  it('keeps each element\'s number across snapshots and modes', async () => {
    const again = await h.snapshot(tabId, 'viewport');
    for (const name of ['Email', 'Closed input', 'Cross input']) {
      expect(refOf(again, 'textbox', name)).toBe(refOf(shot, 'textbox', name));
    }
    expect(again.text).not.toMatch(/^\*\[/m);
  });

  it('clicks reach buttons in open and closed shadow roots and in same- and cross-origin frames', async () => {
    for (const name of ['Open shadow button', 'Closed shadow button', 'Same frame button', 'Cross frame button']) {
      const outcome = await h.act(tabId, { kind: 'click', ref: refOf(shot, 'button', name) });
      expect(outcome.ok, outcome.message).toBe(true);
      expect(outcome.message).toContain(`"${name}"`);
    }
    const after = await h.snapshot(tabId, 'page');
    expect(after.elements.map((el) => el.name)).toEqual(
      expect.arrayContaining(['Open shadow clicked', 'Closed shadow clicked', 'Same frame clicked', 'Cross frame clicked:']),
    );
    // The numbers did not move: the same elements, new names.
    expect(refOf(after, 'button', 'Closed shadow clicked')).toBe(refOf(shot, 'button', 'Closed shadow button'));
  });

  it('types into a field, a contenteditable area, a closed shadow root and a cross-origin frame, with the value read back', async () => {
    const email = await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Email'), text: 'ada@example.com' });
    expect(email.evidence).toContain('value is now "ada@example.com"');
    expect(await page.$eval('#email', (el) => (el as HTMLInputElement).value)).toBe('ada@example.com');

    const notes = await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Notes'), text: 'Call back on Monday' });
    expect(notes.ok, notes.message).toBe(true);
    expect(await page.$eval('#editor', (el) => el.textContent)).toBe('Call back on Monday');

    await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Closed input'), text: 'secret room' });
    expect(await page.$eval('closed-widget', (el) => (el as HTMLElement).dataset.value)).toBe('secret room');

    await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Cross input'), text: 'from afar' });
    const cross = await h.snapshot(tabId, 'page');
    await h.act(tabId, { kind: 'click', ref: refOf(cross, 'button', /^Cross frame clicked/) });
    const after = await h.snapshot(tabId, 'page');
    expect(after.elements.map((el) => el.name)).toContain('Cross frame clicked: from afar');

    const replace = await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Email'), text: 'bob@example.com', clear: true });
    expect(replace.evidence).toContain('value is now "bob@example.com"');
    const append = await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Email'), text: '.uk', clear: false });
    expect(append.evidence).toContain('value is now "bob@example.com.uk"');
  });

  it('selects options of a native select and of an ARIA combobox, and names the options when one is missing', async () => {
    const color = refOf(shot, 'combobox', 'Color');
    const native = await h.act(tabId, { kind: 'select', ref: color, values: ['Blue'] });
    expect(native.evidence).toContain('value is now "Blue"');
    expect(await page.$eval('#color', (el) => (el as HTMLSelectElement).value)).toBe('b');

    const missing = await h.act(tabId, { kind: 'select', ref: color, values: ['Purple'] });
    expect(missing.ok).toBe(false);
    expect(missing.message).toContain('"Red", "Green", "Blue"');

    const fruit = await h.act(tabId, { kind: 'select', ref: refOf(shot, 'combobox', 'Fruit'), values: ['Banana'] });
    expect(fruit.ok, fruit.message).toBe(true);
    expect(await page.$eval('#fruit', (el) => (el as HTMLInputElement).value)).toBe('Banana');
  });

  it('checks and unchecks, and says when a box already had the wanted state', async () => {
    const agree = refOf(shot, 'checkbox', 'I agree');
    const on = await h.act(tabId, { kind: 'check', ref: agree, checked: true });
    expect(on.evidence).toContain('it is now checked');
    const again = await h.act(tabId, { kind: 'check', ref: agree, checked: true });
    expect(again.message).toContain('already');
    const off = await h.act(tabId, { kind: 'check', ref: agree, checked: false });
    expect(off.evidence).toContain('it is now unchecked');
    expect(await page.$eval('#agree', (el) => (el as HTMLInputElement).checked)).toBe(false);
    const notABox = await h.act(tabId, { kind: 'check', ref: refOf(shot, 'textbox', 'Email'), checked: true });
    expect(notABox.ok).toBe(false);
    expect(notABox.message).toContain('use click instead');
  });

  it('delivers a pointer sequence and focus to the element itself', async () => {
    await page.evaluate(() => {
      (window as unknown as { events: string[] }).events = [];
    });
    await h.act(tabId, { kind: 'click', ref: refOf(shot, 'clickable', 'Clickable card') });
    await h.act(tabId, { kind: 'focus', ref: refOf(shot, 'textbox', 'Email') });
    const events = await page.evaluate(() => (window as unknown as { events: string[] }).events);
    expect(events).toContain('click:card');
    expect(events).toContain('focus:email');
    expect(await page.$eval('#card', (el) => (el as HTMLElement).dataset.clicked)).toBe('yes');
  });

  it('hovers to open a menu, presses keys and chords on a field, and moves focus with Tab', async () => {
    const hovered = await h.act(tabId, { kind: 'hover', ref: refOf(shot, 'button', 'Account menu') });
    expect(hovered.ok, hovered.message).toBe(true);
    const opened = await h.snapshot(tabId, 'page');
    expect(lineOf(opened, refOf(opened, 'menuitem', 'Settings'))).toMatch(/^\*\[\d+\] menuitem "Settings" #settings$/);

    const field = refOf(shot, 'textbox', 'Shortcut field');
    await h.act(tabId, { kind: 'press', ref: field, key: 'Control+k' });
    expect(await page.$eval('#shortcut', (el) => (el as HTMLInputElement).value)).toBe('ctrl-k pressed');
    await h.act(tabId, { kind: 'press', ref: field, key: 'Escape' });
    expect(await page.$eval('#shortcut', (el) => (el as HTMLInputElement).value)).toBe('');
    await h.act(tabId, { kind: 'press', ref: field, key: 'x' });
    expect(await page.$eval('#shortcut', (el) => (el as HTMLInputElement).value)).toBe('x');
    // Tab moves to the next control of the same document (it does not step into iframes).
    const tab = await h.act(tabId, { kind: 'press', key: 'Tab' });
    expect(tab.evidence.join(' ')).toContain('focus moved to <button id="far">');
  });

  it('scrolls an element into view by number, and the page by screens', async () => {
    const far = refOf(shot, 'button', /^Far (below|clicked)$/);
    const up = await h.act(tabId, { kind: 'scroll', direction: 'up', pages: 10 });
    expect(up.evidence[0]).toMatch(/^(did not move|top now at 0 of)/);
    const again = await h.act(tabId, { kind: 'scroll', direction: 'up' });
    expect(again.evidence[0]).toContain('did not move: already at the start');
    const view = await h.snapshot(tabId, 'viewport');
    expect(view.elements.some((el) => el.ref === far)).toBe(false);
    const scrolled = await h.act(tabId, { kind: 'scroll', ref: far });
    expect(scrolled.ok, scrolled.message).toBe(true);
    const after = await h.snapshot(tabId, 'viewport');
    expect(after.elements.some((el) => el.ref === far)).toBe(true);
    const down = await h.act(tabId, { kind: 'scroll', direction: 'down', pages: 10 });
    expect(down.evidence[0]).toMatch(/^(reached the end|did not move: already at the end)/);
  });

  it('marks elements that appeared since the last snapshot and reports the focus change', async () => {
    await h.snapshot(tabId, 'viewport');
    await h.act(tabId, { kind: 'click', ref: refOf(shot, 'combobox', 'Fruit') });
    const opened = await h.snapshot(tabId, 'viewport');
    const apple = refOf(opened, 'option', 'Apple');
    expect(lineOf(opened, apple)).toMatch(/^\*\[\d+\] option "Apple"/);
    expect(opened.text).toMatch(/^Changed: .*focus → \[\d+\]/m);
    expect(lineOf(opened, refOf(opened, 'combobox', 'Fruit'))).toContain('expanded');
    await h.act(tabId, { kind: 'click', ref: apple });
    const closed = await h.snapshot(tabId, 'viewport');
    expect(closed.text).not.toMatch(/^\*\[/m);
  });

  it('answers a number that was never shown, or bad input, with what to do', async () => {
    const unknown = await h.act(tabId, { kind: 'click', ref: 9999 });
    expect(unknown.ok).toBe(false);
    expect(unknown.message).toContain('There is no element [9999]');
    expect(unknown.message).toContain('take a snapshot');
    const bad = await h.act(tabId, { kind: 'fly', ref: 1 });
    expect(bad.ok).toBe(false);
    expect(bad.message).toContain('Invalid action');
    const chord = await h.act(tabId, { kind: 'press', key: 'Hyper+K' });
    expect(chord.message).toContain('unknown modifier "Hyper"');
  });

  it('finds text and controls anywhere on the page, frames included', async () => {
    const found = await h.act(tabId, { kind: 'find', text: 'cross frame' });
    expect(found.ok).toBe(true);
    expect(found.evidence.join('\n')).toMatch(/\[\d+\] button "Cross frame clicked/);
    const none = await h.act(tabId, { kind: 'find', text: 'zebra crossing' });
    expect(none.message).toContain('Found nothing');
  });

  it('follows a link, goes back and forward, reloads, and opens, switches and closes tabs', async () => {
    const link = await h.act(tabId, { kind: 'click', ref: refOf(shot, 'link', 'Next page') });
    expect(link.ok, link.message).toBe(true);
    expect(link.evidence.join(' ')).toContain('/next.html');
    const back = await h.act(tabId, { kind: 'back' });
    expect(back.evidence.join(' ')).toContain('/widgets.html');
    const forward = await h.act(tabId, { kind: 'forward' });
    expect(forward.evidence.join(' ')).toContain('/next.html');
    const reload = await h.act(tabId, { kind: 'reload' });
    expect(reload.ok).toBe(true);
    const navigate = await h.act(tabId, { kind: 'navigate', url: h.server.url('/widgets.html') });
    expect(navigate.evidence.join(' ')).toContain('title is "Widgets"');
    const refused = await h.act(tabId, { kind: 'navigate', url: 'javascript:alert(1)' });
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain('only http and https');

    const opened = await h.act(tabId, { kind: 'tab_new', url: h.server.url('/next.html') });
    expect(opened.ok, opened.message).toBe(true);
    const newTab = Number(/tab (\d+)/.exec(opened.message)?.[1]);
    const switched = await h.act(tabId, { kind: 'tab_switch', tabId });
    expect(switched.evidence.join(' ')).toContain('/widgets.html');
    const closed = await h.act(tabId, { kind: 'tab_close', tabId: newTab });
    expect(closed.ok).toBe(true);
    const gone = await h.act(tabId, { kind: 'tab_switch', tabId: newTab });
    expect(gone.message).toContain(`there is no tab ${newTab}`);

    // Back from the first page of a new tab has nowhere to go on the web (the browser replaced the blank entry, or it
    // would be left for a blank tab): the tab stays on its page, and the model is told why and what to do instead.
    const blank = await h.act(tabId, { kind: 'tab_new' });
    const blankTab = Number(/tab (\d+)/.exec(blank.message)?.[1]);
    await h.act(blankTab, { kind: 'navigate', url: h.server.url('/next.html') });
    const outOfTheWeb = await h.act(blankTab, { kind: 'back' });
    expect(outOfTheWeb.ok).toBe(false);
    expect(outOfTheWeb.message).toMatch(/^cannot go back: .+; open the page you want with navigate$/);
    const stayed = await h.act(blankTab, { kind: 'reload' });
    expect(stayed.evidence.join(' ')).toContain('/next.html');
    await h.act(tabId, { kind: 'tab_close', tabId: blankTab });
    await h.act(tabId, { kind: 'tab_switch', tabId });
  });

  it('re-finds a number from before a navigation in the new document, or says it is gone', async () => {
    // After leaving and coming back, the old numbers belong to a document that is gone.
    await h.act(tabId, { kind: 'navigate', url: h.server.url('/next.html') });
    const elsewhere = await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Email'), text: 'nobody@example.com' });
    expect(elsewhere.ok).toBe(false);
    expect(elsewhere.message).toMatch(/^Element \[\d+\] textbox "Email" is gone; nothing like it is on the page now/);
    await h.act(tabId, { kind: 'navigate', url: h.server.url('/widgets.html') });
    const email = await h.act(tabId, { kind: 'type', ref: refOf(shot, 'textbox', 'Email'), text: 'again@example.com' });
    expect(email.ok, email.message).toBe(true);
    expect(email.evidence.join(' ')).toContain('re-rendered');
    expect(await page.$eval('#email', (el) => (el as HTMLInputElement).value)).toBe('again@example.com');
  });
});
