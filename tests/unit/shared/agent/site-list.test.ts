import { describe, expect, it } from 'vitest';
import { hostOf, matchesAny, siteMatches } from '../../../../shared/agent/site-list';

describe('site patterns', () => {
  it('treats a site as its host, whatever port a pattern or start URL names', () => {
    expect(matchesAny('http://127.0.0.1:45801/account.html', ['127.0.0.1:45801'])).toBe(true);
    expect(matchesAny('http://127.0.0.1:9000/', ['127.0.0.1:45801'])).toBe(true);
    expect(matchesAny('https://shop.example:8443/cart', ['shop.example'])).toBe(true);
    expect(matchesAny('http://[::1]:3000/', ['[::1]:3000'])).toBe(true);
  });

  it('matches subdomains, and only them with a wildcard', () => {
    expect(siteMatches('www.shop.example', 'shop.example')).toBe(true);
    expect(siteMatches('shop.example', '*.shop.example')).toBe(false);
    expect(siteMatches('evilshop.example', 'shop.example')).toBe(false);
  });

  it('matches nothing that is not an http(s) page', () => {
    expect(hostOf('chrome://settings')).toBeNull();
    expect(matchesAny('file:///etc/passwd', ['etc'])).toBe(false);
  });
});
