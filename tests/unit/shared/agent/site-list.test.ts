import { describe, expect, it } from 'vitest';
import { hostOf, inScope, matchesAny, originLabel, originOf, parseSitePattern, patternRegex, sameOrigin, siteMatches } from '../../../../shared/agent/site-list';

describe('sites compared by scheme, host and port', () => {
  it('writes origins as browsers do, without a default port', () => {
    expect(originOf('https://Shop.Example/cart?x=1')).toBe('https://shop.example');
    expect(originOf('https://shop.example:443/')).toBe('https://shop.example');
    expect(originOf('http://shop.test:8080/a')).toBe('http://shop.test:8080');
    expect(originOf('http://user:pw@evil.test:81/')).toBe('http://evil.test:81');
    expect(originOf('http://[::1]:3000/')).toBe('http://[::1]:3000');
    expect(originOf('chrome://settings')).toBeNull();
    expect(sameOrigin('http://shop.test:8080/a', 'http://shop.test:8080/b')).toBe(true);
    expect(sameOrigin('http://shop.test:8080/a', 'http://shop.test:9090/a')).toBe(false);
    expect(sameOrigin('http://shop.test/a', 'https://shop.test/a')).toBe(false);
  });

  it('reads a port in a pattern as that port, and no port as the default one', () => {
    expect(matchesAny('http://127.0.0.1:45801/account.html', ['127.0.0.1:45801'])).toBe(true);
    expect(matchesAny('http://127.0.0.1:9000/', ['127.0.0.1:45801'])).toBe(false);
    expect(matchesAny('https://shop.example:8443/cart', ['shop.example'])).toBe(false);
    expect(matchesAny('https://shop.example/cart', ['shop.example'])).toBe(true);
    expect(matchesAny('http://shop.example/cart', ['https://shop.example'])).toBe(false);
    expect(matchesAny('http://[::1]:3000/', ['[::1]:3000'])).toBe(true);
  });

  it('matches subdomains, and only them with a wildcard', () => {
    expect(siteMatches('https://www.shop.example/', 'shop.example')).toBe(true);
    expect(siteMatches('https://shop.example/', '*.shop.example')).toBe(false);
    expect(siteMatches('https://evilshop.example/', 'shop.example')).toBe(false);
    expect(siteMatches('https://shop.example.evil.test/', 'shop.example')).toBe(false);
  });

  it('keeps the start origin in scope whatever the allow list says', () => {
    const scope = { origins: ['http://shop.test:8080'], patterns: ['docs.example'] };
    expect(inScope('http://shop.test:8080/cart', scope)).toBe(true);
    expect(inScope('https://docs.example/x', scope)).toBe(true);
    expect(inScope('http://shop.test:9090/cart', scope)).toBe(false);
  });

  it('turns a pattern into the regular expression the browser enforces', () => {
    const test = (pattern: string, url: string): boolean => {
      const parsed = parseSitePattern(pattern);
      return parsed !== null && new RegExp(patternRegex(parsed), 'i').test(url);
    };
    expect(test('shop.test:8080', 'http://shop.test:8080/x')).toBe(true);
    expect(test('shop.test:8080', 'http://shop.test:8081/x')).toBe(false);
    expect(test('shop.test:8080', 'http://shop.test:8080.evil.test/x')).toBe(false);
    expect(test('example.com', 'https://www.example.com/')).toBe(true);
    expect(test('example.com', 'https://example.com@evil.test/')).toBe(false);
    expect(test('example.com', 'https://example.com.evil.test/')).toBe(false);
    expect(test('https://example.com', 'http://example.com/')).toBe(false);
    // A default port written in the pattern matches as the gate reads it: https without a port, http with :443.
    for (const url of ['https://example.com/', 'http://example.com:443/', 'https://example.com:8443/', 'http://example.com/']) {
      expect(test('example.com:443', url), url).toBe(siteMatches(url, 'example.com:443'));
    }
    expect(test('example.com:443', 'https://example.com/')).toBe(true);
  });

  it('labels https origins without their scheme and plain http ones whole', () => {
    expect(originLabel('https://shop.example')).toBe('shop.example');
    expect(originLabel('http://shop.test:8080')).toBe('http://shop.test:8080');
  });

  it('matches nothing that is not an http(s) page', () => {
    expect(hostOf('chrome://settings')).toBeNull();
    expect(matchesAny('file:///etc/passwd', ['etc'])).toBe(false);
  });
});
