import { describe, expect, it } from 'vitest';
import { elementLine, renderSnapshot, type ShownItem } from '../../../../shared/perception/render-snapshot';

const items: ShownItem[] = [
  { k: 'ctx', text: '# Checkout', prio: 2 },
  { k: 'ctx', text: 'Your cart holds three items, shipped within two days.', prio: 1 },
  { k: 'el', n: 4, fresh: false, role: 'textbox', name: 'Email', ann: ['value="a@b.c"', 'required'] },
  { k: 'el', n: 5, fresh: true, role: 'button', name: 'Pay', ann: [] },
  { k: 'el', n: 6, fresh: false, role: 'link', name: '', ann: ['/terms'] },
];

describe('renderSnapshot', () => {
  it('writes one line per element in the documented form, with * for new ones', () => {
    const { text } = renderSnapshot({ header: ['Page: Shop — https://shop.test/'], items, above: 0, below: 0 });
    expect(text.split('\n')).toEqual([
      'Page: Shop — https://shop.test/',
      '# Checkout',
      'Your cart holds three items, shipped within two days.',
      '[4] textbox "Email" value="a@b.c" required',
      '*[5] button "Pay"',
      '[6] link /terms',
    ]);
  });

  it('ends with what the page walk left out, even when the budget cut everything else', () => {
    const omitted = ['3 parts nested deeper than 400 levels were left out'];
    const { text } = renderSnapshot({ header: ['Page: Shop'], items, above: 0, below: 0, maxTokens: 30, omitted });
    expect(text.split('\n').at(-1)).toBe('(left out: 3 parts nested deeper than 400 levels were left out)');
  });

  it('says how many elements lie above and below the view', () => {
    const { text } = renderSnapshot({ header: [], items: items.slice(2, 3), above: 3, below: 12 });
    expect(text).toBe(
      '(3 more elements above; scroll up to see them)\n[4] textbox "Email" value="a@b.c" required\n(12 more elements below; scroll down or use find)',
    );
  });

  it('cuts plain text first, then headings, then elements from the end, and says what it cut', () => {
    const full = renderSnapshot({ header: [], items, above: 0, below: 0 });
    const textCut = renderSnapshot({ header: [], items, above: 0, below: 0, maxTokens: full.tokens - 5 });
    expect(textCut.text).not.toContain('Your cart');
    expect(textCut.text).toContain('# Checkout');
    expect(textCut.text).toContain('[6] link');
    expect(textCut.text).toMatch(/\(cut to fit \d+ tokens: 1 text lines; use find to search the whole page\)$/);

    const tight = renderSnapshot({ header: [], items, above: 0, below: 0, maxTokens: 40 });
    expect(tight.cutElements).toBeGreaterThan(0);
    expect(tight.text).toContain('[4] textbox');
    expect(tight.text).not.toContain('[6] link');
    expect(tight.text).toContain(`the last ${tight.cutElements} elements`);
  });

  it('quotes names so quotes inside them cannot end the name early', () => {
    expect(elementLine({ k: 'el', n: 1, fresh: false, role: 'button', name: 'Say "hi"', ann: [] })).toBe('[1] button "Say \\"hi\\""');
  });
});
