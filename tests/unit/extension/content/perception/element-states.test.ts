import { describe, expect, it } from 'vitest';
import { shortHref } from '../../../../../extension/content/perception/element-states';

describe('shortHref', () => {
  it('drops the origin of same-site links and keeps the host of others', () => {
    expect(shortHref('https://shop.test/cart?ref=nav', 'https://shop.test', '/')).toBe('/cart');
    expect(shortHref('https://other.test/', 'https://shop.test', '/')).toBe('other.test');
    expect(shortHref('https://shop.test/docs#intro', 'https://shop.test', '/docs')).toBe('#intro');
  });

  it('leaves out script links and cuts long ones', () => {
    expect(shortHref('javascript:void(0)', 'https://shop.test', '/')).toBe('');
    const long = shortHref(`https://shop.test/${'a'.repeat(80)}`, 'https://shop.test', '/');
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long.endsWith('…')).toBe(true);
  });
});
