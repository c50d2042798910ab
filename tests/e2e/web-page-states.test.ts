import type { Page } from 'puppeteer-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval, TaskRecord } from '../../shared/protocol';
import { type RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { startWebStatesServer, type WebStatesServer } from '../fixtures/web-states/web-states-server';
import { openTab } from './support/open-tab';
import { openPanel } from './support/panel-harness';
import { call, lastMessage, refIn } from './support/snapshot-refs';
import { closedPort } from './support/test-hosts';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

// The page states that used to end tasks, each on a page written for it, on truly different sites (e2e.shop.test for the
// pages, models.test for the model server, both mapped to loopback). One browser for the whole file.

const e2e = useE2e({ model: 'act', stepBudget: 30 });
let site: WebStatesServer;
let helper: Page;

beforeAll(async () => {
  const started = await startWebStatesServer();
  site = started;
  // Closed after the browser: closed before it, a server waits out the browser's idle keep-alive connections.
  e2e.afterClose(() => started.close());
  helper = await e2e.helper();
});
afterEach(() => {
  // A script longer than the task needed (or a test that failed) leaves no replies for the next test.
  e2e.fake.drop();
});

const newTab = (url?: string): Promise<{ page: Page; tabId: number }> => openTab(e2e.ext, helper, url);

/**
 * Starts a task on the tab through the panel's own method, and waits until it has ended. Approvals the test expects
 * are given and collected; any other means the task went somewhere the test did not mean it to, and it is stopped.
 */
async function runTask(tabId: number, text: string, url?: string, approvals?: PendingApproval[]): Promise<TaskRecord> {
  const started = await uiCall(helper, 'task.start', { tabId, text, mode: 'act', flow: 'task', ...(url ? { url } : {}) });
  for (;;) {
    const record = await uiCall(helper, 'task.get', { taskId: started.id });
    if (record && ['completed', 'failed', 'stopped', 'handed_to_user'].includes(record.status)) return record;
    const approval = record?.approval;
    if (approval && approvals) {
      if (!approvals.some((a) => a.id === approval.id)) approvals.push(approval);
      await uiCall(helper, 'task.approve', { taskId: started.id, approvalId: approval.id, decision: 'approve' }).catch(() => undefined);
    } else if (approval) {
      await uiCall(helper, 'task.stop', { taskId: started.id });
      throw new Error(`The task asks for approval: ${approval.intent} (${approval.reason})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}


/** What the model was sent at each turn, last message only (the current page and the last step's result). */
const sent = (): string[] => e2e.fake.requests.map((request) => lastMessage(request));

describe('page states are steps, not endings', () => {
  it('starts on the New Tab page: the model is asked, opens the site, and reads the app once it has rendered', async () => {
    const { tabId } = await newTab('chrome://new-tab-page/');
    const before = e2e.fake.requests.length;
    e2e.fake.enqueue(
      () => call('navigate', { url: site.url('/spa.html') }),
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Track order 1$/) }),
      () => call('done', { success: true, summary: 'Tracking order 1.' }),
    );
    const record = await runTask(tabId, 'Track my first order');
    const turns = sent().slice(before);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    expect(turns[0]).toContain('Deputy cannot read or act on this page');
    expect(turns[0]).toContain('chrome://new-tab-page/');
    // The app renders 1 s after its page loaded; the model saw it rendered, not its skeleton.
    expect(turns[1]).toMatch(/\[\d+\] button "Track order 1"/);
    expect(turns[1]).not.toContain('Loading…');
    expect(record.agent?.steps.flatMap((s) => s.calls).map((c) => c.name)).toEqual(['navigate', 'click', 'done']);
  });

  it('works on a page whose HTML streams for 25 s: the model is told it is still loading, acts on what is there, and waits for the rest', async () => {
    const { page, tabId } = await newTab();
    const before = e2e.fake.requests.length;
    e2e.fake.enqueue(
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Invoice for order 1$/) }),
      () => call('wait', { seconds: 20 }),
      () => call('done', { success: true, summary: 'Five orders, all delivered.' }),
    );
    const record = await runTask(tabId, 'Open the invoice of order 1, then tell me how many orders I have', site.url('/stream'));
    const turns = sent().slice(before);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    expect(turns[0]).toContain('(The page is still loading: what follows is what it shows so far.');
    expect(turns[0]).toContain('Order 1: delivered');
    expect(turns[0]).not.toContain('All orders are listed.');
    expect(turns[1]).toMatch(/Clicked \[\d+\] button "Invoice for order 1": succeeded/);
    expect(turns[2]).toMatch(/The page finished loading after \d+\.\d s/);
    expect(turns[2]).toContain('All orders are listed.');
    expect(await page.title()).toBe('Invoice 1');
  });

  it('lets the model go elsewhere when a page cannot be reached, instead of ending the task', async () => {
    const { tabId } = await newTab();
    const before = e2e.fake.requests.length;
    e2e.fake.enqueue(
      () => call('navigate', { url: site.url('/spa.html') }),
      () => call('done', { success: true, summary: 'Opened the shop instead.' }),
    );
    // Nothing listens on that port of e2e.shop.test (mapped to this machine): the connection is refused. The model then
    // tries the address it knows works on the shop's real port, which is another origin: the user approves it.
    const down = `http://shop.test:${await closedPort()}/`;
    const approvals: PendingApproval[] = [];
    const record = await runTask(tabId, 'Look at my orders', down, approvals);
    const turns = sent().slice(before);
    expect(record.status, record.agent?.endReason ?? record.error?.message ?? '').toBe('completed');
    expect(approvals.map((a) => a.destination)).toEqual([new URL(site.url('/')).origin]);
    expect(turns[0]).toContain(`This page could not be loaded: net::ERR_CONNECTION_REFUSED (${down})`);
    expect(record.notes?.[0]?.text).toBe(`Opened ${down} to start the task: Opened ${down}, but the page could not be loaded: net::ERR_CONNECTION_REFUSED`);
  });

  it('shows suggestions that the server sends 300 ms after typing in the very next snapshot', async () => {
    const { tabId } = await newTab(site.url('/autocomplete.html'));
    const shot = await uiCall(helper, 'page.snapshot', { tabId, mode: 'viewport' });
    const field = shot.elements.find((el) => el.role === 'combobox' && el.name === 'Station');
    expect(field, shot.text).toBeDefined();
    const typed = await uiCall(helper, 'page.act', { tabId, action: { kind: 'type', ref: field?.ref, text: 'Par' } });
    expect(typed.ok).toBe(true);
    const next = await uiCall(helper, 'page.snapshot', { tabId, mode: 'viewport' });
    expect(next.elements.filter((el) => el.role === 'option').map((el) => el.name)).toEqual(['Paris Nord', 'Paris Est', 'Paris Montparnasse', 'Parma']);
    expect(next.text).toMatch(/\*\[\d+\] option "Paris Nord"/);
  });

  it('says so when a search of a huge page runs out of time, rather than "found nothing"', async () => {
    const { tabId } = await newTab(site.url('/huge.html'));
    // A budget of 1 ms runs out on 40,000 rows on any machine; the agent's own budget is seconds.
    const found = await uiCall(helper, 'page.act', { tabId, action: { kind: 'find', text: 'Details of part 39999', budgetMs: 1 } });
    expect(found.message).toMatch(/^Found nothing matching "Details of part 39999" in the part of the page searched before the search ran out of time/);
    // With the longest budget the tool takes, the whole page is searched even on a loaded machine.
    const complete = await uiCall(helper, 'page.act', { tabId, action: { kind: 'find', text: 'Details of part 39999', budgetMs: 30_000 } });
    expect(complete.message).toBe('Found 1 match for "Details of part 39999"');
  });
});

describe('scrolling is progress', () => {
  it('scrolls a 200-item feed as long as it shows new items, nudged after 8 scrolls in a row, and finishes', async () => {
    const { page, tabId } = await newTab(site.url('/perception/infinite.html?total=200'));
    const before = e2e.fake.requests.length;
    // A patient reader: scrolls until item 150 shows, opens it, and is done.
    let opened = false;
    const script = (r: RecordedRequest): ReturnType<typeof call> => {
      if (opened) return call('done', { success: true, summary: 'Opened item 150.' });
      try {
        const ref = refIn(r, 'link', /^Item 150$/);
        opened = true;
        return call('click', { ref });
      } catch {
        return call('scroll', { direction: 'down', pages: 2 });
      }
    };
    for (let turn = 0; turn < 25; turn += 1) e2e.fake.enqueue(script);
    const record = await runTask(tabId, 'Open item 150 of the feed');
    const calls = record.agent?.steps.flatMap((s) => s.calls).map((c) => c.name) ?? [];
    const scrolls = calls.filter((name) => name === 'scroll').length;
    expect(record.status, record.agent?.endReason ?? '').not.toBe('failed');
    expect(scrolls).toBeGreaterThanOrEqual(8);
    expect(calls.at(-2)).toBe('click');
    expect(await page.evaluate(() => location.hash)).toBe('#item-150');
    const turns = sent().slice(before);
    expect(turns.some((text) => text.includes('You have scrolled 8 times in a row.'))).toBe(true);
    expect(turns.some((text) => text.includes('same action'))).toBe(false);
  });

  it('keeps a screenshot of each step, shown in the history', async () => {
    const records = await uiCall(helper, 'task.list', { limit: 1 });
    const last = records[0];
    if (!last) throw new Error('no task in the history');
    const shots = await uiCall(helper, 'task.screenshots', { taskId: last.id });
    expect(shots.map((shot) => shot.step)).toEqual(last.agent?.steps.map((step) => step.index));
    expect(shots.every((shot) => shot.base64.startsWith('/9j/'))).toBe(true);
    const panel = await openPanel(e2e.ext, last.tabId);
    await panel.click('[data-testid=flow-history]');
    const item = `[data-testid=history-item][data-task-id="${last.id}"]`;
    await panel.waitForSelector(item);
    await panel.click(item);
    await panel.waitForSelector('[data-testid=step-thumbnail]');
    expect(await panel.$$eval('[data-testid=step-thumbnail]', (buttons) => buttons.map((button) => Number(button.getAttribute('data-step'))))).toEqual(
      // A thumbnail sits on the first line of its step; a step without a tool call has no line.
      shots.map((shot) => shot.step).filter((step) => (last.agent?.steps[step]?.calls.length ?? 0) > 0),
    );
    await panel.click('[data-testid=step-thumbnail]');
    await panel.waitForFunction(() => (document.querySelector<HTMLImageElement>('[data-testid=screenshot-dialog][open] [data-testid=screenshot-full]')?.naturalWidth ?? 0) > 0);
    const full = await panel.$eval('[data-testid=screenshot-full]', (img) => (img as HTMLImageElement).naturalWidth);
    expect(full).toBeGreaterThan(600);
    await panel.close();
  });
});

describe('the snapshot says what the page says', () => {
  it('keeps inline text as the page spaces it, and shows each field by its kind, its label and what it expects', async () => {
    const { tabId } = await newTab(site.url('/booking.html'));
    const shot = await uiCall(helper, 'page.snapshot', { tabId, mode: 'viewport' });
    const lines = shot.text.split('\n');
    expect(lines).toContain('To confirm, enter "Nathalie" as the guest name.');
    expect(lines).toContain('Your booking code is AB-12 (case-sensitive).');
    const line = (pattern: RegExp): string => lines.find((l) => pattern.test(l)) ?? `(no line matching ${pattern.source} in)\n${shot.text}`;
    expect(line(/ textbox "Guest name"/)).toMatch(/^\[\d+\] textbox "Guest name"$/);
    expect(line(/"Booking code"/)).toMatch(/^\[\d+\] textbox "Booking code" placeholder="e\.g\. XY-99"$/);
    expect(line(/ date /)).toMatch(/^\[\d+\] date "Check-in" format=YYYY-MM-DD min=2025-01-01 required$/);
    expect(line(/ time /)).toMatch(/^\[\d+\] time "Arrival time" format=HH:MM$/);
    expect(line(/type=email/)).toMatch(/^\[\d+\] textbox "Email for the confirmation" type=email$/);
    expect(line(/Anything/)).toMatch(/^\[\d+\] textbox "Anything we should know"$/);
    // Labels that only name a field are no controls of their own, and no field is named after its id.
    expect(shot.elements.filter((el) => el.role === 'label')).toEqual([]);
    expect(shot.text).not.toMatch(/"#\w+"/);
  });

  it('lets a model that copies the page exactly fill the form, dates in the format shown', async () => {
    const { page, tabId } = await newTab(site.url('/booking.html'));
    const copy = (r: RecordedRequest, pattern: RegExp): string => pattern.exec(lastMessage(r))?.[1] ?? 'not found';
    e2e.fake.enqueue(
      (r: RecordedRequest) => call('type', { ref: refIn(r, 'textbox', /^Guest name$/), text: copy(r, /enter "([^"]+)" as the guest name/) }),
      (r: RecordedRequest) => call('type', { ref: refIn(r, 'textbox', /^Booking code$/), text: copy(r, /booking code is (\S+) /) }),
      (r: RecordedRequest) => call('type', { ref: refIn(r, 'date', /^Check-in$/), text: '2025-03-16' }),
      (r: RecordedRequest) => call('type', { ref: refIn(r, 'time', /^Arrival time$/), text: '14:30' }),
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Book$/) }),
      () => call('done', { success: true, summary: 'Booked.' }),
    );
    const before = e2e.fake.requests.length;
    const record = await runTask(tabId, 'Book the room as the page says, checking in on 16 March 2025 at 14:30');
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    expect(await page.$eval('#result', (el) => el.textContent)).toBe('Booked for Nathalie on 2025-03-16 at 14:30');
    expect(sent().slice(before).at(-1)).toMatch(/\[\d+\] date "Check-in" value="2025-03-16"/);
  });
});
