import { describe, expect, it } from 'vitest';
import { EgressGuard, guardRules, type GuardPorts } from '../../../../../extension/background/egress/egress-guard';
import type { BlockedRequest, DnrRule } from '../../../../../extension/platform/egress-rules';

/** The browser's rule table and tabs, as the guard sees them through its ports. */
function browser(tabs: number[] = [1, 2]) {
  const rules = new Map<number, DnrRule>();
  const reopened: [number, string][] = [];
  let saved: unknown = null;
  const ports: GuardPorts = {
    replaceRules: (remove, add) => {
      for (const id of remove) rules.delete(id);
      for (const rule of add) {
        if (rules.has(rule.id)) return Promise.reject(new Error(`duplicate rule id ${rule.id}`));
        rules.set(rule.id, rule);
      }
      return Promise.resolve();
    },
    ruleIds: () => Promise.resolve([...rules.keys()]),
    tabIds: () => Promise.resolve([...tabs]),
    reopen: (tabId, url) => {
      reopened.push([tabId, url]);
      return Promise.resolve();
    },
    load: () => Promise.resolve(saved),
    save: (state) => {
      saved = JSON.parse(JSON.stringify(state));
      return Promise.resolve();
    },
    now: () => 1000,
  };
  return { ports, rules, tabs, reopened, saved: () => saved };
}

/** Whether the rules block a request, the way declarativeNetRequest decides it: the highest priority match wins. */
function blocks(
  rules: Iterable<DnrRule>,
  request: { url: string; tabId: number; type: string; method?: string },
): boolean {
  let best: DnrRule | undefined;
  for (const rule of rules) {
    const c = rule.condition;
    if (c.tabIds && !c.tabIds.includes(request.tabId)) continue;
    if (c.excludedTabIds?.includes(request.tabId)) continue;
    if (c.resourceTypes && !c.resourceTypes.includes(request.type as never)) continue;
    if (c.requestMethods && !c.requestMethods.includes((request.method ?? 'get') as never)) continue;
    if (c.regexFilter && !new RegExp(c.regexFilter, c.isUrlFilterCaseSensitive === false ? 'i' : '').test(request.url))
      continue;
    if (
      !best ||
      (rule.priority ?? 1) > (best.priority ?? 1) ||
      (rule.priority === best.priority && rule.action.type === 'allow')
    )
      best = rule;
  }
  return best?.action.type === 'block';
}

const blocked = (over: Partial<BlockedRequest>): BlockedRequest => ({
  requestId: 'r1',
  url: 'http://evil.test:9/collect?x=1',
  method: 'GET',
  type: 'main_frame',
  tabId: 1,
  frameId: 0,
  formData: null,
  rawBody: false,
  at: 1000,
  ...over,
});

describe('the egress guard rules', () => {
  const scope = { origins: ['http://shop.test:8080'], patterns: ['docs.example'] };

  it('lets the task tab reach only its approved origins, and covers new tabs for the whole task', () => {
    const rules = guardRules({ tabs: [1], scope, slot: 0 }, [1, 2]);
    const page = (url: string, tabId = 1, type = 'main_frame', method = 'get') =>
      blocks(rules, { url, tabId, type, method });
    expect(page('http://shop.test:8080/cart')).toBe(false);
    expect(page('https://docs.example/a')).toBe(false);
    expect(page('https://www.docs.example/a')).toBe(false);
    expect(page('http://evil.test:9/collect')).toBe(true);
    expect(page('http://shop.test:9090/')).toBe(true);
    expect(page('https://shop.test:8080/')).toBe(true);
    expect(page('http://shop.test:8080.evil.test/')).toBe(true);
    // Frames may load from anywhere, but not post there; pings go nowhere else.
    expect(page('http://cdn.test:7/widget', 1, 'sub_frame')).toBe(false);
    expect(page('http://evil.test:9/collect', 1, 'sub_frame', 'post')).toBe(true);
    expect(page('http://tracker.test/beacon', 1, 'ping', 'post')).toBe(true);
    // Tab 2 is the user's: untouched. Tab 3 is new (not known yet): covered from its first request.
    expect(page('http://evil.test:9/collect', 2)).toBe(false);
    expect(page('http://evil.test:9/collect', 3)).toBe(true);
    expect(page('http://shop.test:8080/', 3)).toBe(false);
  });

  it("seals the channels it cannot read (sockets, WebTransport) for the task tabs but towards the secrets' origins", () => {
    const rules = guardRules(
      { tabs: [1], scope, slot: 0, sealed: { origins: ['http://shop.test:8080'], everything: false } },
      [1, 2],
    );
    const send = (url: string, type: string, tabId = 1) => blocks(rules, { url, tabId, type });
    expect(send('ws://evil.test:9/socket', 'websocket')).toBe(true);
    expect(send('ws://shop.test:8080/live', 'websocket')).toBe(false);
    expect(send('wss://shop.test:8080/live', 'websocket')).toBe(true);
    expect(send('ws://pay.shop.test:8080/live', 'websocket')).toBe(false);
    expect(send('ws://shop.test:8080.evil.test/x', 'websocket')).toBe(true);
    expect(send('https://evil.test/wt', 'webtransport')).toBe(true);
    expect(send('ws://evil.test:9/socket', 'websocket', 2)).toBe(false);
    // What the debugger reads is left to it: an image elsewhere is not blocked by the rules.
    expect(send('http://cdn.test:7/a.png', 'image')).toBe(false);
    const blind = guardRules(
      { tabs: [1], scope, slot: 0, sealed: { origins: ['http://shop.test:8080'], everything: true } },
      [1, 2],
    );
    expect(blocks(blind, { url: 'http://cdn.test:7/a.png', tabId: 1, type: 'image' })).toBe(true);
    expect(blocks(blind, { url: 'http://evil.test:9/c', tabId: 1, type: 'xmlhttprequest' })).toBe(true);
    expect(blocks(blind, { url: 'http://shop.test:8080/api', tabId: 1, type: 'xmlhttprequest' })).toBe(false);
    expect(new Set(blind.map((r) => r.id)).size).toBe(blind.length);
  });

  it('sets no rules for a task that has nowhere to go yet (it started on a browser page)', () => {
    expect(guardRules({ tabs: [1], scope: { origins: [], patterns: [] }, slot: 0 }, [1])).toEqual([]);
  });
});

describe('the egress guard', () => {
  const scope = { origins: ['http://shop.test:8080'], patterns: [] };

  it("follows the task's tabs, however late they open: a tab its tab opens is the task's, a tab the user opens is the user's", async () => {
    const b = browser([1, 2]);
    const adopted: [string, number][] = [];
    const guard = new EgressGuard({ ...b.ports, adopted: (taskId, tabId) => adopted.push([taskId, tabId]) });
    await guard.setScope('t', 1, scope);
    b.tabs.push(3, 4);
    await guard.tabOpened(3, 1);
    await guard.tabOpened(4, undefined);
    expect(guard.tabsOf('t')).toEqual([1, 3]);
    expect(adopted).toEqual([['t', 3]]);
    expect(blocks(b.rules.values(), { url: 'http://evil.test:9/', tabId: 3, type: 'main_frame' })).toBe(true);
    expect(blocks(b.rules.values(), { url: 'http://evil.test:9/', tabId: 4, type: 'main_frame' })).toBe(false);
    // Long after any action: a tab opened by a tab the task's tab opened is still the task's.
    b.tabs.push(9);
    expect(blocks(b.rules.values(), { url: 'http://evil.test:9/', tabId: 9, type: 'main_frame' })).toBe(true);
    await guard.tabOpened(9, 3);
    expect(guard.tabsOf('t')).toEqual([1, 3, 9]);
    expect(blocks(b.rules.values(), { url: 'http://evil.test:9/', tabId: 9, type: 'main_frame' })).toBe(true);
    await guard.tabClosed(9);
    await guard.tabClosed(3);
    expect(guard.tabsOf('t')).toEqual([1]);
    await guard.end('t');
    expect(b.rules.size).toBe(0);
  });

  it('keeps what the browser held in its tabs, with the fields but not from pings, and ignores what it allowed', async () => {
    const b = browser();
    const guard = new EgressGuard(b.ports);
    await guard.setScope('t', 1, scope);
    await guard.requestBlocked(blocked({ requestId: 'p', type: 'ping', method: 'POST' }));
    await guard.requestBlocked(blocked({ requestId: 'a', url: 'http://shop.test:8080/x', method: 'GET' }));
    await guard.requestBlocked(
      blocked({ requestId: 'f', type: 'sub_frame', method: 'GET', url: 'http://ads.test/frame' }),
    );
    await guard.requestBlocked(
      blocked({
        requestId: 'b',
        method: 'POST',
        url: 'http://evil.test:9/collect',
        formData: { card: ['4111'], name: ['Ada'] },
      }),
    );
    const held = guard.heldSince('t', 0, 1);
    expect(held).toMatchObject({
      id: 'b',
      origin: 'http://evil.test:9',
      address: 'http://evil.test:9/collect',
      fields: ['card', 'name'],
      method: 'POST',
      newTab: false,
    });
    guard.release('b');
    expect(guard.heldSince('t', 0, 1)).toBeUndefined();
  });

  it('tells each held request once: the one an action asked about, then every other as untold, late windows included', async () => {
    const b = browser([1]);
    const guard = new EgressGuard(b.ports);
    await guard.setScope('t', 1, scope);
    await guard.requestBlocked(blocked({ requestId: 'a', tabId: 1, url: 'http://evil.test:9/a?card=1' }));
    await guard.requestBlocked(blocked({ requestId: 'p', tabId: 1, type: 'ping', method: 'POST' }));
    // A window the page opened long after the action: held before its tab was known, then adopted.
    await guard.requestBlocked(blocked({ requestId: 'late', tabId: 6, url: 'http://evil.test:9/late?card=1' }));
    b.tabs.push(6);
    await guard.tabOpened(6, 1);
    expect(guard.heldSince('t', 0, 1)?.id).toBe('a');
    expect(guard.heldSince('t', 0, 1)?.id).toBe('late');
    const b2 = browser([1]);
    const guard2 = new EgressGuard(b2.ports);
    await guard2.setScope('t', 1, scope);
    await guard2.requestBlocked(blocked({ requestId: 'a', tabId: 1 }));
    await guard2.requestBlocked(blocked({ requestId: 'late', tabId: 6, url: 'http://evil.test:9/late?card=1' }));
    b2.tabs.push(6);
    await guard2.tabOpened(6, 1);
    expect(guard2.heldSince('t', 0, 1)?.id).toBe('a');
    expect(guard2.unreported('t', 1).map((h) => [h.id, h.newTab, h.address])).toEqual([
      ['late', true, 'http://evil.test:9/late'],
    ]);
    expect(guard2.unreported('t', 1)).toEqual([]);
    expect(guard2.heldSince('t', 0, 1)).toBeUndefined();
    // Another task's holds and the user's tabs are not this task's to tell.
    await guard2.requestBlocked(blocked({ requestId: 'user', tabId: 8 }));
    expect(guard2.unreported('t', 1)).toEqual([]);
  });

  it("loads again a tab of the user's that was caught in the moment before it was known", async () => {
    const b = browser([1]);
    const guard = new EgressGuard(b.ports);
    await guard.setScope('t', 1, scope);
    await guard.requestBlocked(blocked({ tabId: 5, url: 'https://news.example/' }));
    b.tabs.push(5);
    await guard.tabOpened(5, undefined);
    expect(b.reopened).toEqual([[5, 'https://news.example/']]);
    expect(guard.heldSince('t', 0, 1)).toBeUndefined();
  });

  it("sends the browser its rules only when they change (each update clears every tab's back/forward cache)", async () => {
    const b = browser([1, 2]);
    const updates: number[][] = [];
    const guard = new EgressGuard({
      ...b.ports,
      replaceRules: (remove, add) => (updates.push(add.map((r) => r.id)), b.ports.replaceRules(remove, add)),
    });
    await guard.setScope('t', 1, scope);
    expect(updates).toHaveLength(1);
    // A click may open a tab: the watch around it asks for the rules again, which have not changed.
    const unwatch = await guard.watchNewTabs('t');
    await unwatch();
    await guard.setScope('t', 1, scope);
    expect(updates).toHaveLength(1);
    // A tab the user opened meanwhile changes the rule for new tabs: it is sent.
    b.tabs.push(3);
    await (
      await guard.watchNewTabs('t')
    )();
    expect(updates).toHaveLength(2);
    expect(blocks(b.rules.values(), { url: 'http://evil.test:9/', tabId: 3, type: 'main_frame' })).toBe(false);
    // A task that ends takes its rules away; the same task started again puts them back.
    await guard.end('t');
    expect(b.rules.size).toBe(0);
    await guard.setScope('t', 1, scope);
    expect(updates).toHaveLength(4);
    expect(blocks(b.rules.values(), { url: 'http://evil.test:9/', tabId: 1, type: 'main_frame' })).toBe(true);
  });

  it('survives a restart of the worker: it takes back the tasks it guarded and drops the rules of tasks that ended', async () => {
    const b = browser();
    const first = new EgressGuard(b.ports);
    await first.setScope('a', 1, scope);
    await first.setScope('b', 2, scope);
    const second = new EgressGuard(b.ports);
    await second.restore();
    expect(second.tabsOf('a')).toEqual([1]);
    await second.retain(['b']);
    expect(second.tabsOf('a')).toEqual([]);
    expect(second.tabsOf('b')).toEqual([2]);
    expect(blocks(b.rules.values(), { url: 'http://evil.test:9/', tabId: 1, type: 'main_frame' })).toBe(false);
    expect(blocks(b.rules.values(), { url: 'http://evil.test:9/', tabId: 2, type: 'main_frame' })).toBe(true);
  });
});
