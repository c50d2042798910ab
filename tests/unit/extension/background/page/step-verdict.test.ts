import { describe, expect, it } from 'vitest';
import { finalVerdict, LATE_EFFECT_MS, lateTabEffect, navigationPending, tabEffect, withEffect, type TabFacts } from '../../../../../extension/background/page/step-verdict';
import type { TabActivity } from '../../../../../extension/platform/tab-activity';

const quiet: TabActivity = { committed: [], sameDocument: [], opened: [], failed: [], pending: false };
const report = { ok: true, message: 'clicked [@]', changed: false, evidence: [], flagsNoEffect: true, inputPath: 'trusted input' };
const facts = (over: Partial<TabFacts>): TabFacts => ({ topFrame: true, urlBefore: 'http://shop.test/', urlAfter: 'http://shop.test/', activity: quiet, stillLoading: false, ...over });

describe('the verdict on an action', () => {
  it('says "no visible effect" only when neither the frame nor the tab saw anything, before the input path', () => {
    const verdict = finalVerdict(report, tabEffect(facts({})));
    expect(verdict).toEqual({ message: 'clicked [@]: no visible effect (nothing on the page changed) (trusted input)', changed: false, evidence: ['no visible effect'] });
    expect(finalVerdict({ ...report, flagsNoEffect: false }, tabEffect(facts({}))).message).toBe('clicked [@] (trusted input)');
  });

  // Every way the tab can show that the action did something, each alone with a frame that saw nothing.
  const seen: [string, Partial<TabFacts>, RegExp][] = [
    ['the address changed', { urlAfter: 'http://shop.test/delivered' }, /^URL is now http:\/\/shop\.test\/delivered$/],
    ['a page committed under the same address', { activity: { ...quiet, committed: [{ url: 'http://shop.test/', transition: 'form_submit' }] } }, /loaded anew/],
    ['the address changed within the page', { activity: { ...quiet, sameDocument: ['http://shop.test/#orders'] } }, /within the page/],
    ['a new tab opened', { activity: { ...quiet, opened: [{ tabId: 7, url: 'http://shop.test/size' }] } }, /opened a new tab \(tab 7\) at http:\/\/shop\.test\/size/],
    ['a load failed', { activity: { ...quiet, failed: [{ url: 'http://shop.test/x', error: 'net::ERR_CONNECTION_RESET' }] } }, /failed: net::ERR_CONNECTION_RESET/],
    ['the next page still loads', { stillLoading: true }, /still loading/],
    ['a load was begun and not ended', { activity: { ...quiet, pending: true } }, /still loading/],
    ['a load to a known address was begun and not ended', { activity: { ...quiet, pending: true, pendingUrl: 'http://shop.test/pay' } }, /^the next page is still loading \(going to http:\/\/shop\.test\/pay\)$/],
    ['the page said where it was going and it still loads', { stillLoading: true, navigation: { url: 'http://shop.test/next', sameDocument: false } }, /still loading \(going to http:\/\/shop\.test\/next\)/],
    ['the page said it was leaving and the browser said nothing yet', { navigation: { url: 'http://shop.test/next', sameDocument: false } }, /began going to http:\/\/shop\.test\/next/],
    ['the page posted by script and got its answer', { sent: [{ method: 'POST', url: 'http://shop.test/api/pay', state: 'answered' }] }, /^the page sent POST http:\/\/shop\.test\/api\/pay \(answered\)$/],
    ['the page posted by script and waits for the answer', { sent: [{ method: 'POST', url: 'http://shop.test/api/pay', state: 'open' }] }, /^the page sent POST http:\/\/shop\.test\/api\/pay and is still waiting for the answer$/],
    ['a post by script failed', { sent: [{ method: 'DELETE', url: 'http://shop.test/api/item', state: 'failed', error: 'net::ERR_CONNECTION_RESET' }] }, /^the page's DELETE http:\/\/shop\.test\/api\/item failed: net::ERR_CONNECTION_RESET$/],
  ];
  it.each(seen)('never says "no visible effect" when %s', (_what, over, line) => {
    for (const flagged of [true, false]) {
      const verdict = finalVerdict({ ...report, flagsNoEffect: flagged }, tabEffect(facts(over)));
      expect(verdict.changed).toBe(true);
      expect(verdict.message).toBe('clicked [@] (trusted input)');
      expect(verdict.evidence.some((l) => line.test(l))).toBe(true);
      expect(verdict.evidence).not.toContain('no visible effect');
    }
  });

  it('counts a cancelled load (a 204, a download) as nothing, and a frame in a subframe does not own the address', () => {
    expect(tabEffect(facts({ activity: { ...quiet, failed: [{ url: 'http://shop.test/204', error: 'net::ERR_ABORTED' }] } })).changed).toBe(false);
    expect(tabEffect(facts({ activity: { ...quiet, failed: [{ url: 'http://shop.test/204', error: 'net::ERR_ABORTED' }] }, navigation: { url: 'http://shop.test/204', sameDocument: false } })).changed).toBe(false);
    expect(tabEffect(facts({ topFrame: false, urlAfter: 'http://shop.test/other' })).changed).toBe(false);
  });

  it('names a new address once when the frame already saw it', () => {
    const verdict = finalVerdict({ ...report, changed: true, evidence: ['URL changed to http://shop.test/app'] }, tabEffect(facts({ urlAfter: 'http://shop.test/app' })));
    expect(verdict.evidence).toEqual(['URL changed to http://shop.test/app']);
  });

  it('takes "no visible effect" back when a download shows the action did something', () => {
    const silent = finalVerdict(report, tabEffect(facts({})));
    expect(withEffect(silent, ['a download started'])).toEqual({ message: 'clicked [@] (trusted input)', changed: true, evidence: ['a download started'] });
  });
});

describe('waiting for a navigation', () => {
  it('waits while the browser reports a load, and for a while after the page said it left until the browser reports on it', () => {
    let activity = quiet;
    let now = 0;
    const watch = { seen: () => activity };
    const pending = navigationPending(watch, { url: 'http://shop.test/next', sameDocument: false }, 0, () => now);
    expect(pending()).toBe(true);
    activity = { ...quiet, pending: true };
    now = 9000;
    expect(pending()).toBe(true);
    activity = { ...quiet, committed: [{ url: 'http://shop.test/next', transition: 'link' }] };
    expect(pending()).toBe(false);
    activity = quiet;
    expect(pending()).toBe(false);
    now = 10;
    expect(navigationPending(watch, { url: 'http://shop.test/#a', sameDocument: true }, 0, () => now)()).toBe(false);
    expect(navigationPending(undefined, { url: 'http://shop.test/next', sameDocument: false }, 0, () => now)()).toBe(false);
  });
});

describe('the late look of a step that saw no effect', () => {
  const empty = (): TabActivity => ({ committed: [], sameDocument: [], opened: [], failed: [], pending: false });
  /** A clock the look's sleeps move, and a tab whose activity appears at `at` ms (never when undefined). */
  const world = (at: number | undefined, change: Partial<TabActivity>, sentAt?: number) => {
    let clock = 0;
    const activity = { seen: () => (at !== undefined && clock >= at ? { ...empty(), ...change } : empty()) };
    const sent = () => (sentAt !== undefined && clock >= sentAt ? [{ method: 'POST', url: 'http://shop.test/api/order', state: 'open' as const }] : []);
    return {
      // The tab's side of the verdict over its facts as they are at each look, as the action's code asks it.
      changed: () => tabEffect(facts({ activity: activity.seen(), sent: sent() })).changed,
      sleep: (ms: number) => {
        clock += ms;
        return Promise.resolve();
      },
      now: () => clock,
      elapsed: () => clock,
    };
  };

  it.each([
    ['a navigation a timer begins', { pending: true, pendingUrl: 'http://shop.test/next' }],
    ['a load that commits at once', { committed: [{ url: 'http://shop.test/next', transition: 'link' }] }],
    ['an address changed within the page', { sameDocument: ['http://shop.test/#reviews'] }],
    ['a tab the page opens', { opened: [{ tabId: 7, url: 'http://shop.test/help' }] }],
    ['a load that fails', { failed: [{ url: 'http://shop.test/next', error: 'net::ERR_CONNECTION_REFUSED' }] }],
  ])('sees %s that begins after the settle, and stops looking then', async (_, change) => {
    const w = world(400, change);
    await expect(lateTabEffect(w)).resolves.toBe(true);
    expect(w.elapsed()).toBeGreaterThanOrEqual(400);
    expect(w.elapsed()).toBeLessThan(500);
  });

  it('sees a post a timer sends', async () => {
    const w = world(undefined, {}, 700);
    await expect(lateTabEffect(w)).resolves.toBe(true);
  });

  it('gives up at its cap when nothing begins, and counts a 204 or a download as nothing', async () => {
    const idle = world(undefined, {});
    await expect(lateTabEffect(idle)).resolves.toBe(false);
    expect(idle.elapsed()).toBeGreaterThanOrEqual(LATE_EFFECT_MS);
    const quiet = world(100, { failed: [{ url: 'http://shop.test/204', error: 'net::ERR_ABORTED' }] });
    await expect(lateTabEffect(quiet)).resolves.toBe(false);
  });

  it('waits for nothing when the tab had already acted', async () => {
    const w = world(0, { pending: true });
    await expect(lateTabEffect(w)).resolves.toBe(true);
    expect(w.elapsed()).toBe(0);
  });
});
