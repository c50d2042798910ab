import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../../shared/perception/estimate-tokens';

describe('estimateTokens', () => {
  it('stays within 40% of o200k_base on snapshot lines', () => {
    const encoder = getEncoding('o200k_base');
    const lines = [
      '[12] button "Add to cart"',
      '[3] textbox "Email" value="ada@example.com" required focused',
      '*[140] link "Pricing and plans" /pricing',
      '## Frequently asked questions',
      'Free shipping on orders over $50, returns within 30 days.',
      '[7] combobox "Country" value="United Kingdom" collapsed',
    ];
    for (const line of lines) {
      // Each line costs its newline too.
      const real = encoder.encode(`${line}\n`).length;
      const estimate = estimateTokens(line);
      expect(Math.abs(estimate - real) / real, line).toBeLessThan(0.4);
    }
  });
});
