import { describe, expect, it } from 'vitest';
import shipped from '../../../../shared/agent/support-sites.json';
import { SupportSiteMap, contactPageFor, supportSiteFor, supportSiteHint, supportSiteMap } from '../../../../shared/agent/support-sites';

describe('the shipped map of where support lives on large sites', () => {
  it('parses, lists each domain once, and every address is on one of its site\'s own domains', () => {
    const map = supportSiteMap();
    expect(map.sites.length).toBeGreaterThanOrEqual(12);
    const domains = map.sites.flatMap((site) => site.domains);
    expect(new Set(domains).size).toBe(domains.length);
    for (const site of map.sites) {
      for (const url of Object.values(site.pages)) {
        const host = new URL(url).hostname;
        expect(site.domains.some((d) => host === d || host.endsWith(`.${d}`)), `${site.name}: ${url}`).toBe(true);
      }
    }
  });

  it('rejects a bad edit with a message that says what is wrong', () => {
    const bad = structuredClone(shipped) as { sites: { pages: Record<string, string>; domains: string[] }[] };
    bad.sites[0]!.pages.support = 'http://www.amazon.com/help';
    expect(() => SupportSiteMap.parse(bad)).toThrow(/must be https/);
    const badDomain = structuredClone(shipped) as typeof bad;
    badDomain.sites[0]!.domains = ['https://amazon.com/'];
    expect(() => SupportSiteMap.parse(badDomain)).toThrow(/lower-case, without a scheme/);
    const badKind = structuredClone(shipped) as typeof bad;
    badKind.sites[0]!.pages.faq = 'https://www.amazon.com/faq';
    expect(() => SupportSiteMap.parse(badKind)).toThrow();
  });

  it('finds a site by any of its hosts, not by a look-alike', () => {
    expect(supportSiteFor('https://www.amazon.com/dp/B0')?.name).toBe('Amazon');
    expect(supportSiteFor('https://help.target.com/help')?.name).toBe('Target');
    expect(supportSiteFor('https://www.comcast.net/')?.name).toBe('Xfinity (Comcast)');
    expect(supportSiteFor('https://notamazon.com/')).toBeNull();
    expect(supportSiteFor('https://amazon.com.evil.example/')).toBeNull();
    expect(supportSiteFor('not a url')).toBeNull();
  });

  it('gives the case its hint from the map and from earlier cases, and a contact page to write to', () => {
    const hint = supportSiteHint('https://www.amazon.com/', { chatUrl: 'https://www.amazon.com/gp/help', vendor: 'custom', at: 1 });
    expect(hint).toContain("Where things are on Amazon (Deputy's shipped map");
    expect(hint).toContain('- orders: https://www.amazon.com/gp/css/order-history');
    expect(hint).toContain('the support chat (custom) was found at https://www.amazon.com/gp/help');
    expect(supportSiteHint('https://shop.example/', null)).toBe('');
    expect(contactPageFor('https://www.amazon.com/', null)).toBe('https://www.amazon.com/gp/help/customer/contact-us');
    expect(contactPageFor('https://www.walmart.com/', null)).toBe('https://www.walmart.com/help');
    expect(contactPageFor('https://shop.example/', { contactUrl: 'https://shop.example/contact', at: 1 })).toBe('https://shop.example/contact');
    expect(contactPageFor('https://shop.example/', null)).toBeNull();
  });
});
