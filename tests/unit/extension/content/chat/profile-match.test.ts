import { describe, expect, it } from 'vitest';
import { allGlobalPaths, confidenceOf, globalsEvidence, hostMatches, matchProfile } from '../../../../../extension/content/chat/profile-match';
import { VENDOR_PROFILES, profileById } from '../../../../../extension/content/chat/vendor-profiles';

function facts(selectors: string[], scriptHosts: string[] = []) {
  return { has: (selector: string) => selectors.includes(selector), scriptHosts };
}

describe('vendor profiles', () => {
  it('cover the sixteen vendors of the category (Zendesk in its two generations) with one entry each', () => {
    const ids = VENDOR_PROFILES.map((profile) => profile.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining(['intercom', 'zendesk-classic', 'zendesk-messaging', 'drift', 'livechat', 'freshchat', 'freshdesk', 'hubspot', 'crisp', 'tawk', 'tidio', 'olark', 'gorgias', 'salesforce', 'zoho-salesiq', 'chatwoot', 'helpscout']),
    );
  });

  it.each(VENDOR_PROFILES.map((profile) => [profile.id, profile] as const))('%s names every layer a detection and the driver need', (_id, profile) => {
    expect(profile.globals.length).toBeGreaterThan(0);
    expect(profile.scriptHosts.length).toBeGreaterThan(0);
    expect(profile.markers.length + profile.frames.length).toBeGreaterThan(0);
    expect(profile.open.launcher.length).toBeGreaterThan(0);
    expect(profile.composer.length).toBeGreaterThan(0);
    expect(new Set(profile.authors.map((rule) => rule.author))).toEqual(new Set(['us', 'them', 'system']));
    if (profile.open.api) expect(profile.globals.map((path) => path.split('.')[0])).toContain(profile.open.api.path[0]);
  });
});

describe('hostMatches', () => {
  it('matches a host, its subdomains, and dotted suffixes, but not look-alikes', () => {
    expect(hostMatches('widget.intercom.io', 'widget.intercom.io')).toBe(true);
    expect(hostMatches('eu.widget.intercom.io', 'widget.intercom.io')).toBe(true);
    expect(hostMatches('static.olark.com', '.olark.com')).toBe(true);
    expect(hostMatches('olark.com', '.olark.com')).toBe(true);
    expect(hostMatches('evilwidget.intercom.io.example', 'widget.intercom.io')).toBe(false);
    expect(hostMatches('notolark.com', '.olark.com')).toBe(false);
    expect(hostMatches('WIDGET.Intercom.IO', 'widget.intercom.io')).toBe(true);
  });
});

describe('matchProfile', () => {
  const intercom = profileById('intercom');
  if (!intercom) throw new Error('no intercom profile');

  it('collects evidence from script hosts, page markers, frame markers and UI markers', () => {
    const evidence = matchProfile(intercom, facts(['#intercom-container', 'iframe[name="intercom-messenger-frame"]', '.intercom-messenger'], ['js.intercomcdn.com', 'example.com']));
    expect(evidence).toEqual([
      { layer: 'script', detail: 'script from js.intercomcdn.com' },
      { layer: 'marker', detail: '#intercom-container' },
      { layer: 'frame', detail: 'iframe[name="intercom-messenger-frame"]' },
      { layer: 'structure', detail: '.intercom-messenger' },
    ]);
  });

  it('finds nothing on a page without the vendor', () => {
    expect(matchProfile(intercom, facts(['#drift-widget-container'], ['js.driftt.com']))).toEqual([]);
  });
});

describe('confidenceOf', () => {
  it('counts each layer once and combines layers as independent signals', () => {
    expect(confidenceOf([])).toBe(0);
    expect(confidenceOf([{ layer: 'marker' }])).toBe(0.5);
    expect(confidenceOf([{ layer: 'marker' }, { layer: 'marker' }])).toBe(0.5);
    expect(confidenceOf([{ layer: 'global' }, { layer: 'script' }])).toBe(0.8);
    expect(confidenceOf([{ layer: 'global' }, { layer: 'script' }, { layer: 'marker' }, { layer: 'frame' }])).toBe(0.95);
  });
});

describe('page globals', () => {
  it('are read once for all profiles, nested paths included, and mapped back to their vendors', () => {
    const paths = allGlobalPaths(VENDOR_PROFILES);
    expect(paths).toContain('$zoho.salesiq');
    expect(paths.filter((path) => path === 'zE')).toHaveLength(1);
    const byVendor = globalsEvidence(VENDOR_PROFILES, ['zE', 'zESettings']);
    expect(byVendor.get('zendesk-classic')).toEqual([
      { layer: 'global', detail: 'window.zE' },
      { layer: 'global', detail: 'window.zESettings' },
    ]);
    expect(byVendor.get('zendesk-messaging')).toEqual([{ layer: 'global', detail: 'window.zE' }]);
    expect(byVendor.has('intercom')).toBe(false);
  });
});
