import { describe, expect, it } from 'vitest';
import { shortHref } from '../../../../../extension/content/perception/element-states';

describe('shortHref', () => {
  it('drops the origin of same-site links and keeps the host of others', () => {
    expect(shortHref('https://shop.test/cart?ref=nav', 'https://shop.test', '/')).toBe('/cart');
    expect(shortHref('https://other.test/', 'https://shop.test', '/')).toBe('other.test');
    expect(shortHref('https://shop.test/docs#intro', 'https://shop.test', '/docs')).toBe('#intro');
  });

  it('reads ports, queries, empty and long fragments and user names as a URL parser does', () => {
    const page = 'https://shop.test:8443';
    expect(shortHref('https://shop.test:8443/cart?x=1#top', page, '/')).toBe('/cart#top');
    expect(shortHref('https://shop.test/cart', page, '/')).toBe('shop.test/cart');
    expect(shortHref('https://shop.test:8443/?q=1#', page, '/')).toBe('/');
    expect(shortHref('https://shop.test:8443/#reviews', page, '/')).toBe('#reviews');
    expect(shortHref('https://shop.test:8443/docs#a-very-long-fragment-name', page, '/')).toBe('/docs');
    expect(shortHref('http://[::1]:3000/admin', page, '/')).toBe('[::1]:3000/admin');
    expect(shortHref('https://ada:secret@shop.test:8443/account', page, '/')).toBe('/account');
    expect(shortHref('mailto:help@shop.test', page, '/')).toBe('mailto:help@shop.test');
    expect(shortHref('ftp://files.test/pub/', page, '/')).toBe('files.test/pub/');
  });

  it('leaves out script links and cuts long ones', () => {
    expect(shortHref('javascript:void(0)', 'https://shop.test', '/')).toBe('');
    const long = shortHref(`https://shop.test/${'a'.repeat(80)}`, 'https://shop.test', '/');
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long.endsWith('…')).toBe(true);
  });
});
