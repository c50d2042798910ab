import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { startNavigationServer, type NavigationServer } from '../fixtures/navigation/navigation-server';
import { call, playSteps, refIn, type ScriptStep } from './support/snapshot-refs';
import { results, runTask, useTaskBrowser } from './support/task-harness';

// The verdict on an action that leaves the page, on a busy machine: every way a click navigates (a form post answered
// at once and late, a GET form sent with Enter, links, a slow redirect, a page that refreshes itself, location.assign
// at once and after a fetch, a pushState view, a new tab) must come back to the model as what it did, never as "no
// visible effect"; so must a post by script that changes nothing on the page. The load is two busy processes per core,
// started here and stopped when the file ends.

const browser = useTaskBrowser();
let site: NavigationServer;
const burners: ChildProcess[] = [];

function startLoad(): void {
  for (let i = 0; i < availableParallelism() * 2; i += 1) {
    burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  }
}

function stopLoad(): void {
  for (const burner of burners.splice(0)) burner.kill('SIGKILL');
}

beforeAll(async () => {
  const started = await startNavigationServer();
  site = started;
  browser.afterClose(() => started.close());
  startLoad();
}, 120_000);
afterAll(() => {
  stopLoad();
});

const click = (role: string, name: RegExp): ScriptStep => (r: RecordedRequest) => call('click', { ref: refIn(r, role, name) });

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Where the step must say the action went: the address it landed on, or, when the next page was still loading as the
 * step ended (a busy machine), the address the browser was going to (for a post or a redirect, where it began).
 */
const went = (to: string, begun = to): RegExp => new RegExp(`URL is now .*${escape(to)}|going to .*${escape(begun)}`);

/** Each navigating control, the tool result it must give, and the page the server must have served for it. */
const MATRIX: { what: string; step: ScriptStep; served?: string; says: RegExp }[] = [
  { what: 'a submit button whose post is redirected at once', step: click('button', /^Buy now$/), served: '/delivered?via=post', says: went('/delivered?via=post', '/order') },
  { what: 'a submit button whose post is redirected after a delay', step: click('button', /^Place order$/), served: '/delivered?via=slow-post', says: went('/delivered?via=slow-post', '/order-slow') },
  {
    what: 'Enter in a search field of a GET form',
    step: (r) => call('type', { ref: refIn(r, 'searchbox', /^Search shop$/), text: 'kettle', submit: true }),
    served: '/results?q=kettle',
    says: went('/results?q=kettle'),
  },
  { what: 'a link', step: click('link', /^Read the delivery terms$/), served: '/landed?via=link', says: went('/landed?via=link') },
  { what: 'a link to a slow redirect', step: click('link', /^Track my parcel$/), served: '/landed?via=slow-redirect', says: went('/landed?via=slow-redirect', '/slow-redirect') },
  { what: 'a link to a page that refreshes itself elsewhere', step: click('link', /^Open the old catalogue$/), served: '/meta-refresh', says: /URL is now .*\/(meta-refresh|landed\?via=meta-refresh)|going to .*\/(meta-refresh|landed\?via=meta-refresh)/ },
  { what: 'a button calling location.assign', step: click('button', /^Go to checkout$/), served: '/landed?via=assign', says: went('/landed?via=assign') },
  { what: 'a button that posts with fetch, then calls location.assign', step: click('button', /^Confirm payment$/), served: '/delivered?via=fetch', says: went('/delivered?via=fetch') },
  // Not a navigation, and nothing on the page changes: what the background saw (the post) is the effect all the same.
  { what: 'a button that only posts with fetch', step: click('button', /^Save a delivery note$/), served: '/api/note', says: /the page sent POST http:\/\/shop\.test:\d+\/api\/note \(answered\)/ },
  { what: 'a single-page app view by history.pushState', step: click('button', /^Show my orders$/), served: '/', says: /URL (is now|changed to) .*\/app\/orders/ },
  { what: 'a button that submits a form by script', step: click('button', /^Reorder my mug$/), served: '/delivered?via=script', says: went('/delivered?via=script', '/order-script') },
  { what: 'a button whose timer navigates a moment after the click', step: click('button', /^Continue to delivery$/), served: '/landed?via=timer', says: went('/landed?via=timer') },
  { what: 'a button calling location.replace', step: click('button', /^Switch to the new shop$/), served: '/landed?via=replace', says: went('/landed?via=replace') },
  // location.replace took the timer's page out of the history: back is the page before it.
  { what: 'a button calling history.back', step: click('button', /^Back to where I was$/), says: went('/delivered?via=script') },
  { what: 'a button in a frame that navigates the top page', step: click('button', /^See the sale$/), served: '/landed?via=frame', says: went('/landed?via=frame') },
  // The page it reloads is the frame's, whether or not the frame's navigation had ended when the last step did.
  { what: 'a button calling location.reload', step: click('button', /^Refresh prices$/), says: /(loaded anew at|going to|URL is now) .*\/landed\?via=frame|the next page is still loading$/m },
  { what: 'a link to a fragment of the page', step: click('link', /^Jump to reviews$/), says: /URL (is now|changed to) .*#reviews/ },
  { what: 'a button calling window.open', step: click('button', /^Open the returns form$/), served: '/landed?via=window-open', says: /opened a new tab \(tab \d+\)/ },
  { what: 'a form posted to a new tab', step: click('button', /^Buy in a new tab$/), served: '/delivered?via=new-tab-post', says: /opened a new tab \(tab \d+\)/ },
  { what: 'a link that opens a new tab', step: click('link', /^Size guide in a new tab$/), served: '/landed?via=new-tab', says: /opened a new tab \(tab \d+\)/ },
];

describe('the verdict on a navigating action, under CPU load', () => {
  it('never reports "no visible effect" for an action that navigated, and says where it went', async () => {
    const { tabId } = await browser.newTab(site.url('/'));
    const script = playSteps([...MATRIX.map((row) => row.step), () => call('done', { success: true, summary: 'Done.' })]);
    for (let turn = 0; turn < MATRIX.length * 4 + 6; turn += 1) browser.fake.enqueue(script);
    const { record } = await runTask(browser, tabId, 'Try every way this shop leaves a page', { approve: () => 'approve' });
    browser.fake.drop();
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    const acted = results(record).filter((r) => r.name === 'click' || r.name === 'type');
    expect(acted).toHaveLength(MATRIX.length);
    MATRIX.forEach((row, i) => {
      const result = acted[i];
      const told = `${row.what}: ${result?.content ?? ''}\n${(result?.evidence ?? []).join('\n')}`;
      expect(result?.ok, told).toBe(true);
      expect(told).not.toMatch(/no visible effect/);
      expect(told).toMatch(row.says);
      if (row.served) expect(site.requests, row.what).toContain(row.served);
    });
    // The search field has no key handlers: its text went in as one insertion, and the step says so.
    const typed = acted[2];
    expect(typed?.evidence, `${typed?.content ?? ''}\n${(typed?.evidence ?? []).join('\n')}`).toContain(
      'typed as one inserted text: the page has no key handlers on the field',
    );
  }, 240_000);
});
