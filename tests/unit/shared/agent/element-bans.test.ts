import { describe, expect, it } from 'vitest';
import { createElementBans } from '../../../../shared/agent/element-bans';
import type { Observation, ObservedElement } from '../../../../shared/agent/environment';

const page = (elements: ObservedElement[]): Observation & { elements: ObservedElement[] } => ({
  url: 'https://shop.example/',
  title: 'Shop',
  text: ['heading "Shop"', ...elements.map((e) => `${e.frame ? '  ' : ''}[${e.ref}] ${e.role} "${e.name}"`)].join('\n'),
  elements,
});

describe('elements that led nowhere in a case', () => {
  const chatNow: ObservedElement = { ref: 4, role: 'button', name: 'Chat now' };
  const help: ObservedElement = { ref: 5, role: 'link', name: 'Help' };
  const framed: ObservedElement = { ref: 9, role: 'button', name: 'Chat now', frame: 2 };

  it('are taken out of the snapshot by what they are, whatever number they get next, with a line saying why', () => {
    const bans = createElementBans();
    bans.ban(chatNow, 'clicked, nothing changed');
    // The next snapshot numbers the same button 7.
    const next = bans.apply(page([{ ...chatNow, ref: 7 }, help, framed]));
    expect(next.elements.map((e) => e.ref)).toEqual([5, 9]);
    expect(next.text).not.toMatch(/\[7\]/);
    expect(next.text).toContain('[5] link "Help"');
    // The same name in another frame is another element.
    expect(next.text).toContain('[9] button "Chat now"');
    expect(next.text).toContain('[Hidden in this case because they led nowhere: button "Chat now" (clicked, nothing changed)]');
    expect(bans.list()).toEqual(['button "Chat now" (clicked, nothing changed)']);
  });

  it('leave a page without them as it is, and never hide unnamed elements (they cannot be told apart)', () => {
    const bans = createElementBans();
    const plain = page([help]);
    expect(bans.apply(plain)).toBe(plain);
    bans.ban({ role: 'button', name: '  ' }, 'clicked, nothing changed');
    bans.ban(chatNow, 'clicked, no chat came');
    expect(bans.apply(plain)).toBe(plain);
    // Spacing and case do not make another element.
    expect(bans.apply(page([{ ...chatNow, name: 'CHAT  now' }])).elements).toEqual([]);
  });

  it('are taken out of the text however the snapshot writes their line: new since the last look, in a frame, in a list', () => {
    const bans = createElementBans();
    bans.ban(chatNow, 'clicked, nothing changed');
    for (const line of ['*[7] button "Chat now"', '  *[7] button "Chat now"', '- [7] button "Chat now"', '  [7] button "Chat now" (disabled)']) {
      const shown = bans.apply({ url: 'https://shop.example/', title: 'Shop', text: `navigation:\n${line}\n*[5] link "Help"`, elements: [{ ...chatNow, ref: 7 }, help] });
      expect(shown.text, line).not.toContain('[7]');
      expect(shown.text, line).toContain('*[5] link "Help"');
    }
  });
});
