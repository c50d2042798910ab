import { domainToASCII, domainToUnicode } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lookAlikeWarning, hostWithUnicode, mixedScriptLabel, skeletonOf } from '../../../../shared/agent/host-display';
import { inScope, originLabel, originOf, parseSitePattern, patternMatches, sameOrigin, siteMatches } from '../../../../shared/agent/site-list';
import { secretMayGo } from '../../../../extension/background/egress/secret-destinations';
import { parseWebAddress } from '../../../../shared/agent/web-address';

// Each address is built from parts whose reading by the WHATWG URL parser is known by construction: where the
// authority ends, what is credentials, what is stripped. The expected origin is written from those rules, never by
// calling the parser, and every function that compares sites must agree with it.
const HOSTS = [
  { typed: 'shop.test', host: 'shop.test' },
  { typed: 'SHOP.Test.', host: 'shop.test' },
  { typed: 'bücher.example', host: domainToASCII('bücher.example') },
  { typed: 'shоp.test', host: domainToASCII('shоp.test') }, // Cyrillic о
  { typed: 'evil.test', host: 'evil.test' },
];
const SCHEMES = [
  { typed: 'https://', scheme: 'https', port: 443 },
  { typed: 'HTTPS://', scheme: 'https', port: 443 },
  { typed: ' \thttps://', scheme: 'https', port: 443 },
  { typed: 'http://', scheme: 'http', port: 80 },
  { typed: 'https:\\\\', scheme: 'https', port: 443 },
];
const PORTS = [
  { typed: '', port: null },
  { typed: ':443', port: 443 },
  { typed: ':8080', port: 8080 },
];
// What follows the host: the authority ends at /, \ (special schemes), ? or #; what is before an @ is credentials.
const TAILS = [
  { typed: '/', decoy: null },
  { typed: '\\@shop.test/', decoy: 'shop.test' },
  { typed: '#@shop.test/', decoy: 'shop.test' },
  { typed: '?@shop.test', decoy: 'shop.test' },
  { typed: '/\t@shop.test', decoy: 'shop.test' },
];
const CREDENTIALS = ['', 'shop.test@', 'user:pw@', 'shop.test:443@'];

function expectedOrigin(scheme: string, defaultPort: number, host: string, port: number | null): string {
  return `${scheme}://${host}${port === null || port === defaultPort ? '' : `:${port}`}`;
}

describe('addresses are read only as the WHATWG URL parser reads them', () => {
  const cases = SCHEMES.flatMap((s) => CREDENTIALS.flatMap((c) => HOSTS.flatMap((h) => PORTS.flatMap((p) => TAILS.map((t) => ({ s, c, h, p, t }))))));

  it(`agrees on the origin of ${cases.length} generated addresses, and on whether each is the approved site`, () => {
    const scope = { origins: ['https://shop.test'], patterns: [] };
    for (const { s, c, h, p, t } of cases) {
      const address = `${s.typed}${c}${h.typed}${p.typed}${t.typed}`;
      const expected = expectedOrigin(s.scheme, s.port, h.host, p.port);
      expect(originOf(address), address).toBe(expected);
      expect(inScope(address, scope), address).toBe(expected === 'https://shop.test');
      expect(sameOrigin(address, 'https://shop.test/'), address).toBe(expected === 'https://shop.test');
      expect(siteMatches(address, 'shop.test'), address).toBe(expected === 'https://shop.test' || expected === 'http://shop.test');
      expect(secretMayGo(address, ['https://shop.test']), address).toBe(expected === 'https://shop.test');
    }
  });

  it('refuses what is not a web address', () => {
    for (const bad of ['', 'shop.test', 'javascript:alert(1)', 'data:text/html,x', 'https://', 'http://[::1', 'chrome://settings', 'file:///etc/passwd']) {
      expect(parseWebAddress(bad), bad).toBeNull();
      expect(originOf(bad), bad).toBeNull();
    }
  });

  it('reads a Unicode host in a site pattern as the browser sends it', () => {
    const pattern = parseSitePattern('Bücher.example');
    expect(pattern?.host).toBe('xn--bcher-kva.example');
    expect(pattern && patternMatches('https://xn--bcher-kva.example/cart', pattern)).toBe(true);
    expect(pattern && patternMatches('https://bücher.example/cart', pattern)).toBe(true);
    expect(parseSitePattern('shop.test\\@evil.test')).toBeNull();
  });
});

describe('internationalized names on a card', () => {
  it('shows punycode with the Unicode beside it', () => {
    expect(originLabel('https://xn--shp-ted.test')).toBe('xn--shp-ted.test (shоp.test)');
    expect(originLabel('https://shоp.test')).toBe('xn--shp-ted.test (shоp.test)');
    expect(originLabel('http://shop.test:8080')).toBe('http://shop.test:8080');
  });

  // Every single-letter swap of an approved host for a look-alike from another script: the decoded name must be the
  // one the platform's IDNA decoder gives, and the card must warn that it resembles the approved site.
  const approved = ['shop.test', 'paypal.example', 'mybank.example', 'apple.com'];
  const swaps: Record<string, string[]> = { a: ['а', 'α', 'ɑ'], o: ['о', 'ο', 'օ'], e: ['е'], p: ['р', 'ρ'], c: ['с'], y: ['у'], i: ['і', 'ι'], l: ['ӏ'], s: ['ѕ'], h: ['һ'], k: ['к'] };
  const lookAlikes = approved.flatMap((site) =>
    [...site].flatMap((ch, i) => (swaps[ch] ?? []).map((other) => ({ site, fake: `${site.slice(0, i)}${other}${site.slice(i + 1)}` }))),
  );

  it(`warns for ${lookAlikes.length} generated look-alikes of approved sites`, () => {
    expect(lookAlikes.length).toBeGreaterThan(20);
    for (const { site, fake } of lookAlikes) {
      const host = parseWebAddress(`https://${fake}/`)?.host ?? '';
      expect(host, fake).toMatch(/xn--/);
      expect(hostWithUnicode(host), fake).toBe(domainToUnicode(host));
      expect(skeletonOf(host), fake).toBe(skeletonOf(site));
      expect(lookAlikeWarning(host, approved), fake).toContain(`looks like ${site}`);
    }
  });

  it('does not warn for a name in one script that resembles nothing known, nor for ASCII hosts', () => {
    for (const name of ['bücher.example', 'münchen.de', '例え.テスト', 'пример.рф', 'ελλάδα.gr']) {
      const host = parseWebAddress(`https://${name}/`)?.host ?? '';
      expect(mixedScriptLabel(host), name).toBeNull();
      expect(lookAlikeWarning(host, approved), name).toBeNull();
    }
    expect(lookAlikeWarning('evil.test', approved)).toBeNull();
    expect(lookAlikeWarning('shop.test', approved)).toBeNull();
  });

  it('warns for a label that mixes scripts even when it resembles no known site', () => {
    const host = parseWebAddress('https://gооgle-login.example/')?.host ?? '';
    expect(lookAlikeWarning(host, approved)).toContain('mixes Latin and Cyrillic');
  });
});
