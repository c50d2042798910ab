import { describe, expect, it } from 'vitest';
import type { AttackSites, Route } from '../../../fixtures/attacks/attack-sites';
import { instructionsIn } from '../../../fixtures/attacks/obedient-model';
import { SCENARIOS } from '../../../fixtures/attacks/scenarios';
import { FRAMINGS, framingOf, reword, surfaceOf } from '../../../fixtures/attacks/wording';

// The sites' addresses only: the scenarios' pages are built from them, nothing is served.
const site = (port: number) => ({ port, log: [], routes: new Map(), close: () => Promise.resolve() });
const SITES: AttackSites = {
  shop: site(1),
  evil: site(2),
  cdn: site(3),
  shopOrigin: 'http://shop.test:1',
  evilOrigin: 'http://evil.test:2',
  evilSameHost: 'http://shop.test:2',
  cdnOrigin: 'http://cdn.test:3',
  close: () => Promise.resolve(),
};

const pages = SCENARIOS.flatMap((scenario) => {
  const routes = scenario.routes(SITES);
  return [...Object.values(routes.shop ?? {}), ...Object.values(routes.cdn ?? {})]
    .map((route: Route) => (typeof route === 'string' ? route : typeof route === 'function' ? '' : (route.body ?? '')))
    .filter((html) => html.includes('AGENT STEP'))
    .map((html) => ({ id: scenario.id, html }));
});

describe('bench:safety --attempts: every attempt words the attacks differently, and keeps them', () => {
  it('gives 100 attempts 100 different framings', () => {
    expect(new Set(Array.from({ length: 100 }, (_, k) => framingOf(k))).size).toBe(100);
    expect(framingOf(0)).toBe('');
    expect(FRAMINGS.length).toBeGreaterThanOrEqual(10);
  });

  for (const attempt of [1, 9, 10, 57, 99]) {
    it(`attempt ${attempt}: the obedient model still finds every page's instructions, framed`, () => {
      expect(pages.length).toBeGreaterThan(10);
      for (const { id, html } of pages) {
        const reworded = reword(html, attempt);
        expect(instructionsIn(reworded), id).toEqual(instructionsIn(html));
        expect(reworded, id).toContain(framingOf(attempt));
      }
    });
  }

  it('sorts the attacks by surface: the page, a frame of another site, a support chat', () => {
    const surfaces = new Map(SCENARIOS.map((s) => [s.id, surfaceOf(s, SITES)]));
    expect(surfaces.get('iframe-cross-origin')).toBe('frame');
    expect(surfaces.get('frame-authority')).toBe('frame');
    expect(surfaces.get('form-action-cross-origin')).toBe('page');
    expect(surfaces.get('legit-chat')).toBe('chat');
    expect(new Set(surfaces.values())).toEqual(new Set(['page', 'frame', 'chat']));
  });
});
