import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElementHandle } from 'puppeteer-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { REPORT_PDF, SETUP_EXE, startRealInputServer, type RealInputServer } from '../fixtures/real-input/real-input-server';
import { collectFile } from '../../scripts/task/attached-file';
import { runTask as runCliTask } from '../../scripts/task/run-task';
import { openPanel, texts } from './support/panel-harness';
import { call, lastMessage, playSteps, refIn, type ScriptStep } from './support/snapshot-refs';
import { taskOptions } from './support/task-options';
import { siteUrl } from './support/test-hosts';
import { debuggerHeld, results, runTask, useTaskBrowser, type RunOptions } from './support/task-harness';
import { uiCall } from './support/ui-call';

// Real input on pages written for it, each on shop.test (mapped to loopback), driven by scripted models through the
// fake provider. One browser for the file.

const browser = useTaskBrowser();
let site: RealInputServer;

beforeAll(async () => {
  const started = await startRealInputServer();
  site = started;
  browser.afterClose(() => started.close());
});
afterEach(() => {
  // A script longer than the task needed (or a test that failed) leaves no replies for the next test.
  browser.fake.drop();
});

/** Runs a task whose scripted model plays the steps, then finishes. */
async function play(tabId: number, text: string, steps: ScriptStep[], options: RunOptions = {}) {
  const script = playSteps([...steps, () => call('done', { success: true, summary: 'Done.' })]);
  for (let turn = 0; turn < steps.length * 3 + 4; turn += 1) browser.fake.enqueue(script);
  return runTask(browser, tabId, text, options);
}

const sent = (): string[] => browser.fake.requests.map((request) => lastMessage(request));

/** The names of every file under a folder (partial downloads included), read at once. */
function savedNames(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true }).flatMap((entry) => (entry.isFile() ? [entry.name] : []));
}

describe('trusted input', () => {
  it('clicks a button that ignores clicks made by scripts, says it used trusted input, and says when a click changed nothing', async () => {
    const { page, tabId } = await browser.newTab(site.url('/pages/trusted.html'));
    let heldDuring = false;
    const { record } = await play(tabId, 'Join the newsletter', [
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Join the list$/) }),
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Do nothing$/) }),
      (r: RecordedRequest) => {
        // Checked while the task runs: the debugger is attached to its tab.
        void debuggerHeld(browser.helper, tabId).then((held) => (heldDuring = held));
        return call('hover', { ref: refIn(r, 'focusable', /^Account menu$/) });
      },
      (r: RecordedRequest) => call('type', { ref: refIn(r, 'searchbox', /^Search$/), text: 'abc' }),
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'focusable', /^Trip to Lisbon$/), double: true }),
    ]);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    expect(await page.$eval('#status', (el) => el.textContent)).toBe('Joined: welcome aboard!');
    const [subscribe, nothing, hover, typed, double] = results(record);
    expect(double?.content).toMatch(/^Double-clicked \[\d+\] focusable "Trip to Lisbon" \(trusted input\)/);
    expect(await page.$eval('#trip', (el) => el.textContent)).toBe('Renaming: Trip to Lisbon');
    expect(subscribe?.content).toMatch(/^Clicked \[\d+\] button "Join the list" \(trusted input\)/);
    expect(subscribe?.evidence).toContain('appeared: "Joined: welcome aboard!"');
    expect(nothing?.content).toMatch(/^Clicked \[\d+\] button "Do nothing": no visible effect \(nothing on the page changed\) \(trusted input\)/);
    expect(nothing?.evidence).toContain('no visible effect');
    // A real pointer sets CSS :hover, so the menu shown only by a :hover rule opens and its links are numbered.
    expect(hover?.content).toMatch(/^Hovered over \[\d+\] focusable "Account menu" \(trusted input\)/);
    expect(sent().find((text) => text.includes('- Hovered over'))).toMatch(/\*\[\d+\] link "Settings"/);
    expect(typed?.evidence).toContain('value is now "abc"');
    // The page counts key presses: the text went in key by key, and the step says why.
    expect(typed?.evidence.find((line) => line.startsWith('typed key by key'))).toMatch(/^typed key by key: the page listens for keydown on input#search/);
    expect(await page.$eval('#keys', (el) => el.textContent)).toBe('Trusted keys: a b c');
    expect(heldDuring).toBe(true);
    // Detached when the task ended: the browser's debugging bar goes with it.
    await expect.poll(() => debuggerHeld(browser.helper, tabId)).toBe(false);
  });

  /** The model types the one-time code into the bank's frame and clicks Verify; the user approves acting there. */
  const verifyInFrame = (tabId: number): ReturnType<typeof play> =>
    play(
      tabId,
      'Verify with the code 493021',
      [
        (r: RecordedRequest) => call('type', { ref: refIn(r, 'textbox', /^One-time code$/), text: '493021' }),
        (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Verify$/) }),
      ],
      { approve: () => 'approve' },
    );

  it('clicks and types in another site\'s frame, placed within the tab through the frames around it', async () => {
    const { tabId } = await browser.newTab(site.url('/pages/frame-host.html'));
    // Acting in another site's frame is acting on that site: the user approves it once for the task.
    const { record, approvals } = await verifyInFrame(tabId);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    expect(approvals[0]?.reason).toMatch(/inside a frame from http:\/\/bank\.test:\d+/);
    const [typed, verify] = results(record);
    expect(typed?.content).toMatch(/^Typed into \[\d+\] textbox "One-time code" \(trusted input\)/);
    expect(verify?.content).toMatch(/^Clicked \[\d+\] button "Verify" \(trusted input\)/);
    expect(verify?.evidence).toContain('appeared: "Verified code 493021"');
  });

  it('places another site\'s frame where it is, whatever keys a hostile top page hands out or has its own frame claim', async () => {
    const { tabId } = await browser.newTab(site.url('/pages/frame-swap-host.html'));
    const { record } = await verifyInFrame(tabId);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    const [typed, verify] = results(record);
    expect(typed?.content).toMatch(/^Typed into \[\d+\] textbox "One-time code" \(trusted input\)/);
    expect(verify?.evidence).toContain('appeared: "Verified code 493021"');
    // The clicks went where the bank's frame is, never onto the offers frame the page tried to pass it off as.
    expect(site.fetched('/pages/decoy-clicked.html')).toBe(0);
  });

  it('falls back to synthetic events where trusted input is not allowed, and says why in the step', async () => {
    await uiCall(browser.helper, 'settings.set', { trustedInput: false });
    try {
      const { page, tabId } = await browser.newTab(site.url('/pages/trusted.html'));
      const { record } = await play(tabId, 'Join the newsletter', [(r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Join the list$/) })]);
      const [click] = results(record);
      expect(click?.content).toMatch(/^Clicked \[\d+\] button "Join the list": no visible effect \(nothing on the page changed\) \(synthetic events: trusted input is turned off in Settings\)/);
      expect(await page.$eval('#status', (el) => el.textContent)).toBe('');
      expect(await debuggerHeld(browser.helper, tabId)).toBe(false);
    } finally {
      await uiCall(browser.helper, 'settings.set', { trustedInput: true });
    }
  });
});

describe('clipboard, values and drags', () => {
  it('copies with the page\'s own button and pastes with Control+V, without granting any permission', async () => {
    // On shop.test the page is not a secure context, so it copies with execCommand('copy'); on 127.0.0.1 it is, and
    // it uses the Async Clipboard API. Both need a click the person made; neither needs a permission granted.
    for (const host of ['shop.test', '127.0.0.1']) {
      const { page, tabId } = await browser.newTab(site.url('/pages/clipboard.html', host));
      const { record } = await play(tabId, 'Copy the coupon code and paste it into the coupon field', [
        (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Copy code$/) }),
        (r: RecordedRequest) => call('click', { ref: refIn(r, 'textbox', /^Coupon code$/) }),
        (r: RecordedRequest) => call('press', { key: 'Control+V', ref: refIn(r, 'textbox', /^Coupon code$/) }),
      ]);
      expect(record.status, record.agent?.endReason ?? '').toBe('completed');
      expect(await page.$eval('#copied', (el) => el.textContent), host).toBe('Copied to the clipboard');
      expect(await page.$eval('#coupon', (el) => (el as HTMLInputElement).value), host).toBe('SAVE-2024-ABC');
      expect(results(record)[2]?.content).toMatch(/^Pressed Control\+V on \[\d+\] textbox "Coupon code" \(trusted input\)/);
      await page.close();
    }
  });

  it('sets a slider, dates, times, a colour and a number by value, reads each back, and fails a value the field does not take', async () => {
    const { page, tabId } = await browser.newTab(site.url('/pages/values.html'));
    const field = (role: string, name: RegExp) => (r: RecordedRequest) => refIn(r, role, name);
    const { record } = await play(tabId, 'Fill in the trip settings', [
      (r: RecordedRequest) => call('set_value', { ref: field('slider', /^Budget$/)(r), value: '45' }),
      (r: RecordedRequest) => call('set_value', { ref: field('slider', /^Budget$/)(r), value: '47' }),
      (r: RecordedRequest) => call('type', { ref: field('date', /^Departure$/)(r), text: '10/16/2012' }),
      (r: RecordedRequest) => call('set_value', { ref: field('date', /^Departure$/)(r), value: 'next tuesday' }),
      (r: RecordedRequest) => call('type', { ref: field('time', /^Pickup time$/)(r), text: '10:15 PM' }),
      (r: RecordedRequest) => call('set_value', { ref: field('datetime-local', /^Return$/)(r), value: 'October 20, 2012 9:30 AM' }),
      (r: RecordedRequest) => call('set_value', { ref: field('month', /^Month$/)(r), value: 'October 2012' }),
      (r: RecordedRequest) => call('set_value', { ref: field('button', /^Theme colour$/)(r), value: 'teal' }),
      (r: RecordedRequest) => call('set_value', { ref: field('spinbutton', /^Travellers$/)(r), value: '12' }),
      (r: RecordedRequest) => call('set_value', { ref: field('spinbutton', /^Travellers$/)(r), value: '3' }),
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Save$/) }),
    ]);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    const [budget, offStep, departure, badDate, pickup, back, month, colour, tooMany, travellers] = results(record);
    expect(budget?.ok).toBe(true);
    expect(budget?.content).toMatch(/^Set \[\d+\] slider "Budget" to "45" \(trusted input\)/);
    expect(offStep?.ok).toBe(false);
    expect(offStep?.content).toMatch(/slider "Budget" cannot hold "47": the slider moves in steps of 5 from 0; it still holds "45"/);
    expect(departure?.evidence).toContain('value is now "2012-10-16"');
    expect(badDate?.ok).toBe(false);
    expect(badDate?.content).toContain('cannot read "next tuesday" as a date: write it as YYYY-MM-DD');
    expect(pickup?.evidence).toContain('value is now "22:15"');
    expect(back?.evidence).toContain('value is now "2012-10-20T09:30"');
    expect(month?.evidence).toContain('value is now "2012-10"');
    expect(colour?.evidence).toContain('value is now "#008080"');
    expect(tooMany?.ok).toBe(false);
    expect(tooMany?.content).toMatch(/cannot hold "12": it is above the field's maximum 9; it still holds ""/);
    expect(travellers?.evidence).toContain('value is now "3"');
    // The slider's page listens only to input a person makes: the arrow keys reached it as such.
    expect(await page.$eval('#saved', (el) => el.textContent)).toBe(
      'Saved: budget 45, departure 2012-10-16, pickup 22:15, return 2012-10-20T09:30, month 2012-10, colour #008080, travellers 3',
    );
  });

  it('reorders a sortable list by dragging one item before another', async () => {
    const { page, tabId } = await browser.newTab(site.url('/pages/sortable.html'));
    const { record } = await play(tabId, 'Put Warranty first', [
      (r: RecordedRequest) => call('drag', { ref: refIn(r, 'draggable', /^Warranty$/), to_ref: refIn(r, 'draggable', /^Price$/), position: 'before' }),
    ]);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    expect(await page.$eval('#order', (el) => el.textContent)).toBe('Order: Warranty, Price, Delivery time, Reviews');
    const [drag] = results(record);
    expect(drag?.text).toMatch(/^Dragged \[\d+\] draggable "Warranty" before \[\d+\] draggable "Price"$/);
    expect(drag?.content).toMatch(/^Dragged \[\d+\] draggable "Warranty" onto \[\d+\] draggable "Price" \(before it\) \(trusted input\)/);
    expect(drag?.evidence).toContain('the dragged element is now 1 of 4 in its list (was 4 of 4)');
  });
});

describe('JavaScript dialogs', () => {
  it('answers confirm and prompt dialogs: the model reads the dialog as the page\'s words, and the gate judges accepting it', async () => {
    const { page, tabId } = await browser.newTab(site.url('/pages/dialogs.html'));
    const before = browser.fake.requests.length;
    const { record, approvals } = await play(
      tabId,
      'Remove Streaming Plus, try renewing, and rename the list to Household',
      [
        (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Remove$/) }),
        () => call('dialog', { action: 'accept' }),
        (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Renew for a year$/) }),
        () => call('dialog', { action: 'accept' }),
        () => call('dialog', { action: 'dismiss' }),
        (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Rename list$/) }),
        () => call('dialog', { action: 'accept', text: 'Household' }),
      ],
      // The user allows removing the subscription, and refuses to pay.
      { approve: (approval) => (/pay \$499/.test(approval.reason) ? 'reject' : 'approve') },
    );
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    const turns = sent().slice(before);
    // The page is frozen under the dialog: the model is shown the dialog, inside the page's untrusted text.
    expect(turns[1]).toMatch(/<untrusted_page [^>]*>\nPage: Your subscriptions — [^\n]+\n\(The page shows a JavaScript confirm dialog and is frozen until it is answered\. The dialog says: "Remove Streaming Plus\? This cannot be undone\."/);
    const [remove, accept, renew, pay, dismiss, rename, answer] = results(record);
    expect(remove?.content).toMatch(/^The click on \[\d+\] button "Remove" opened a JavaScript confirm dialog; the page is frozen until it is answered: use the dialog tool/);
    expect(remove?.evidence).toEqual(['confirm dialog: "Remove Streaming Plus? This cannot be undone."']);
    expect(accept?.content).toMatch(/^Accepted the confirm dialog/);
    expect(accept?.evidence).toEqual(expect.arrayContaining(['the dialog closed', 'went away: "Streaming Plus Remove"']));
    expect(renew?.ok).toBe(true);
    expect(pay?.content).toMatch(/^The user did not approve this action/);
    expect(dismiss?.content).toMatch(/^Dismissed the confirm dialog/);
    expect(rename?.evidence).toEqual(['prompt dialog: "New name for the list" (suggested answer "My subscriptions")']);
    expect(answer?.content).toBe('Answered the prompt "New name for the list" with "Household"\n<untrusted_output from="dialog">\n- the dialog closed and the page got "Household"\n- then: Clicked [6] button "Rename list" (trusted input)\n- appeared: "Household"\n- went away: "My subscriptions"\n- 1 changes on the page\n</untrusted_output>'.replace('[6]', `[${/\[(\d+)\] button "Rename list"/.exec(rename?.text ?? '')?.[1] ?? '?'}]`));
    // Accepting is judged like the click that opened the dialog: "cannot be undone" and "pay" ask; the click on
    // "Remove" itself did not.
    expect(approvals.map((a) => [a.intent, a.classes.includes('irreversible') || a.classes.includes('money')])).toEqual([
      ['Accept the confirm "Remove Streaming Plus? This cannot be undone."', true],
      ['Accept the confirm "Are you sure you want to pay $499 for a year?"', true],
    ]);
    expect(await page.$eval('#status', (el) => el.textContent)).toBe('Not renewed');
    expect(await page.$eval('#list-name', (el) => el.textContent)).toBe('Household');
    expect(await page.$$eval('#items li', (items) => items.map((li) => li.textContent?.trim()))).toEqual(['Cloud Backup Remove']);
  });

  it('stays on a page that asks before leaving, then leaves when told to', async () => {
    const { page, tabId } = await browser.newTab(site.url('/pages/dialogs.html'));
    const away = site.url('/pages/trusted.html');
    const { record } = await play(tabId, 'Write a note, then go to the newsletter page', [
      (r: RecordedRequest) => call('type', { ref: refIn(r, 'textbox', /^Note to support$/), text: 'Please call me' }),
      () => call('navigate', { url: away }),
      () => call('dialog', { action: 'dismiss' }),
      () => call('navigate', { url: away }),
      () => call('dialog', { action: 'accept' }),
    ]);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    const [, leave, stay, again, go] = results(record);
    expect(leave?.content).toMatch(/^Going to http:\/\/shop\.test:\d+\/pages\/trusted\.html opened a "leave this page\?" dialog; the page is frozen until it is answered/);
    expect(stay?.content).toMatch(/^Dismissed the "leave this page\?" dialog/);
    expect(again?.ok).toBe(true);
    expect(go?.content).toMatch(/^Accepted the "leave this page\?" dialog/);
    expect(go?.evidence).toContain(`then: Opened ${away}`);
    expect(page.url()).toBe(away);
  });
});

describe('files', () => {
  it('uploads only files the user attached, by name, into a file field and behind a button that opens a picker', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'deputy-upload-'));
    try {
      const cv = join(folder, 'cv.txt');
      await writeFile(cv, 'Jane Doe, engineer. References on request.');
      const { page, tabId } = await browser.newTab(site.url('/pages/upload.html'));
      const before = browser.fake.requests.length;
      const photo = Buffer.from('PNG stand-in for a photo').toString('base64');
      const { record } = await play(
        tabId,
        'Apply with my CV and my photo',
        [
          // The page (or a compromised model) names a file that was not attached: refused, with the attached names.
          (r: RecordedRequest) => call('upload', { ref: refIn(r, 'button', /^CV$/), files: ['/etc/passwd'] }),
          (r: RecordedRequest) => call('upload', { ref: refIn(r, 'button', /^CV$/), files: ['cv.txt'] }),
          (r: RecordedRequest) => call('upload', { ref: refIn(r, 'button', /^Add a photo$/), files: ['me.png'] }),
        ],
        {
          files: [
            { name: 'cv.txt', size: 42, type: 'text/plain', path: cv },
            { name: 'me.png', size: 24, type: 'image/png', base64: photo },
          ],
        },
      );
      expect(record.status, record.agent?.endReason ?? '').toBe('completed');
      // The model learns the names, sizes and types; never where the files are.
      const first = JSON.stringify(browser.fake.requests[before]?.json);
      expect(first).toContain('Files the user attached for this task (upload them by name with the upload tool): cv.txt (text/plain, 42 bytes); me.png (image/png, 24 bytes)');
      expect(first).not.toContain(folder);
      const [refused, upload, viaButton] = results(record);
      expect(refused?.ok).toBe(false);
      expect(refused?.content).toBe('Error: "/etc/passwd" is not a file attached to this task; the attached files are "cv.txt", "me.png"'.replace('Error: ', ''));
      expect(upload?.content).toMatch(/^Put "cv\.txt" into the file field of \[\d+\] button "CV" \(trusted input\)/);
      expect(upload?.evidence).toContain('the file field now holds "cv.txt"');
      expect(viaButton?.content).toMatch(/^Put "me\.png" into the file field of \[\d+\] button "Add a photo" \(trusted input\)/);
      await expect.poll(() => page.$$eval('#chosen li', (items) => items.map((li) => li.textContent).sort())).toEqual([
        'cv: cv.txt, 42 bytes, starts "Jane Doe, engineer. "',
        'photo: me.png, 24 bytes, starts "PNG stand-in for a p"',
      ]);
      expect(record.files?.map((f) => f.name)).toEqual(['cv.txt', 'me.png']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('saves downloads to the task\'s folder with name, size and type, and keeps a program only with the user\'s approval', async () => {
    const { tabId } = await browser.newTab(site.url('/pages/downloads.html'));
    let programBeforeApproval: string[] = [];
    const { record, approvals } = await play(
      tabId,
      'Download the annual report and the desktop app',
      [
        (r: RecordedRequest) => call('click', { ref: refIn(r, 'link', /^Annual report \(PDF\)$/) }),
        (r: RecordedRequest) => call('click', { ref: refIn(r, 'link', /^Desktop app installer$/) }),
        () => call('download', { id: 'd2', action: 'keep' }),
      ],
      {
        approve: () => {
          programBeforeApproval = savedNames(browser.downloads);
          return 'approve';
        },
      },
    );
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    const [report, installer, keep] = results(record);
    const reportLine = report?.evidence.find((line) => line.startsWith('downloaded "report.pdf"')) ?? report?.content;
    expect(reportLine).toMatch(new RegExp(`^downloaded "report\\.pdf" \\(application/pdf, ${REPORT_PDF.length} bytes\\) to ${browser.downloads}/Deputy/\\d{4}-\\d\\d-\\d\\d-${record.id.slice(0, 8)}/report\\.pdf \\[download d1\\]$`));
    expect(installer?.evidence.join('\n')).toContain('the download "setup.exe" (application/x-msdownload) is held: it is a program or a script, so Deputy stopped it before it was saved');
    // Nothing of the program was written before the approval.
    expect(programBeforeApproval).toEqual(['report.pdf']);
    // The files come from another site (the shop's file host), which the egress guard has the user approve; keeping
    // the program asks again, as a program.
    expect(approvals.map((a) => [a.intent, a.classes])).toEqual([
      [expect.stringMatching(/^Click \[\d+\] link "Annual report \(PDF\)"$/), ['act']],
      [expect.stringMatching(/^Click \[\d+\] link "Desktop app installer"$/), ['act']],
      ['Keep the download "setup.exe" (d2)', ['act', 'program']],
    ]);
    expect(keep?.content).toMatch(/^Kept the download "setup\.exe"/);
    const saved = record.downloads ?? [];
    expect(saved.map((d) => [d.id, d.name, d.state, d.size])).toEqual([
      ['d1', 'report.pdf', 'complete', REPORT_PDF.length],
      ['d2', 'setup.exe', 'complete', SETUP_EXE.length],
    ]);
    for (const download of saved) expect(await readFile(download.path ?? '', 'latin1')).toBe(download.name === 'report.pdf' ? REPORT_PDF : SETUP_EXE);
    // The next page the model saw lists the task's downloads.
    expect(sent().at(-1)).toMatch(/Downloads of this task:\n- \[d1\] "report\.pdf" \(application\/pdf, \d+ bytes\): saved to /);
  });
});

describe('the debugger is the task\'s', () => {
  it('goes on with trusted input after the service worker restarts, and lets go when the task ends', async () => {
    const { page, tabId } = await browser.newTab(site.url('/pages/trusted.html'));
    let killed = false;
    browser.fake.enqueue(
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Join the list$/) }),
      () => {
        // The click is done and saved; the worker stops while the model "thinks", as Chrome may stop it.
        if (!killed) {
          killed = true;
          void browser.ext.worker().then((worker) => worker.close());
        }
        return { hang: true };
      },
      (r: RecordedRequest) => call('type', { ref: refIn(r, 'searchbox', /^Search$/), text: 'xyz' }),
      () => call('done', { success: true, summary: 'Joined and searched.' }),
    );
    const { record } = await runTask(browser, tabId, 'Join the list, then search for xyz');
    expect(killed).toBe(true);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    // The restarted worker took over the attachment its predecessor made: the keys still arrive as a person's.
    expect(results(record).find((c) => c.name === 'type')?.content).toMatch(/^Typed into \[\d+\] searchbox "Search" \(trusted input\)/);
    expect(await page.$eval('#keys', (el) => el.textContent)).toBe('Trusted keys: x y z');
    await expect.poll(() => debuggerHeld(browser.helper, tabId)).toBe(false);
  });

  it('still shows and answers a dialog that was open when the service worker restarted', async () => {
    const { page, tabId } = await browser.newTab(site.url('/pages/dialogs.html'));
    let killed = false;
    browser.fake.enqueue(
      (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Remove$/) }),
      () => {
        if (!killed) {
          killed = true;
          void browser.ext.worker().then((worker) => worker.close());
        }
        return { hang: true };
      },
      () => call('dialog', { action: 'accept' }),
      () => call('done', { success: true, summary: 'Removed.' }),
    );
    const before = browser.fake.requests.length;
    const { record } = await runTask(browser, tabId, 'Remove Streaming Plus', { approve: () => 'approve' });
    expect(killed).toBe(true);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    // The new worker knew the page was frozen under the dialog, and showed it rather than a page it could not read.
    expect(sent().slice(before).at(-2)).toContain('The dialog says: "Remove Streaming Plus? This cannot be undone."');
    expect(results(record).find((c) => c.name === 'dialog')?.content).toMatch(/^Accepted the confirm dialog/);
    expect(await page.$$eval('#items li', (items) => items.map((li) => li.textContent?.trim()))).toEqual(['Cloud Backup Remove']);
    await expect.poll(() => debuggerHeld(browser.helper, tabId)).toBe(false);
  });

  it('lets go of the tab when the user stops the task', async () => {
    const { tabId } = await browser.newTab(site.url('/pages/trusted.html'));
    browser.fake.enqueue({ hang: true });
    const started = await uiCall(browser.helper, 'task.start', { tabId, text: 'Join the list', mode: 'act', flow: 'task' });
    // The task attaches as soon as it looks at its page, before the model answers.
    await expect.poll(() => debuggerHeld(browser.helper, tabId)).toBe(true);
    await uiCall(browser.helper, 'task.stop', { taskId: started.id });
    await expect.poll(async () => (await uiCall(browser.helper, 'task.get', { taskId: started.id }))?.status).toBe('stopped');
    await expect.poll(() => debuggerHeld(browser.helper, tabId)).toBe(false);
  });

  it('takes files the user chose in the side panel\'s task box', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'deputy-panel-file-'));
    try {
      const notes = join(folder, 'notes.txt');
      await writeFile(notes, 'Cover letter: I would love to join.');
      const { page, tabId } = await browser.newTab(site.url('/pages/upload.html'));
      const panel = await openPanel(browser.ext, tabId);
      const picker = await panel.waitForSelector('[data-testid=composer-task] [data-testid=task-file-input]');
      await (picker as ElementHandle<HTMLInputElement>).uploadFile(notes);
      await panel.waitForSelector('[data-testid=composer-task] [data-testid=task-file]');
      expect(await texts(panel, '[data-testid=composer-task] [data-testid=task-file]')).toEqual(['notes.txt×']);
      const script = playSteps([
        (r: RecordedRequest) => call('upload', { ref: refIn(r, 'button', /^CV$/), files: ['notes.txt'] }),
        () => call('done', { success: true, summary: 'Uploaded.' }),
      ]);
      for (let turn = 0; turn < 4; turn += 1) browser.fake.enqueue(script);
      await panel.type('[data-testid=composer-task] [data-testid=task-input]', 'Attach my cover letter as the CV');
      await panel.click('[data-testid=composer-task] [data-testid=run-task]');
      await expect.poll(() => page.$$eval('#chosen li', (items) => items.map((li) => li.textContent))).toEqual(['cv: notes.txt, 35 bytes, starts "Cover letter: I woul"']);
      const [task] = await uiCall(browser.helper, 'task.list', { tabId, limit: 1 });
      expect(task?.files).toEqual([{ name: 'notes.txt', size: 35, type: 'text/plain', stored: expect.any(String) as string }]);
      await panel.close();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('npm run task --file', () => {
  it('uploads a file given on the command line, by its name, and prints the step', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'deputy-cli-file-'));
    try {
      const cv = join(folder, 'resume.txt');
      await writeFile(cv, 'Grace Hopper: compilers, COBOL.');
      const modelPort = Number(new URL(browser.fake.url).port);
      const script = playSteps([
        (r: RecordedRequest) => call('upload', { ref: refIn(r, 'button', /^CV$/), files: ['resume.txt'] }),
        () => call('done', { success: true, summary: 'Uploaded the resume.' }),
      ]);
      for (let turn = 0; turn < 4; turn += 1) browser.fake.enqueue(script);
      const lines: string[] = [];
      let shown: string[] = [];
      const run = await runCliTask(
        taskOptions({
          url: site.url('/pages/upload.html'),
          task: 'Upload my resume as the CV',
          provider: { preset: 'custom', baseUrl: siteUrl(modelPort, 'models.test', '/v1'), model: 'gpt-4o-mini' },
          files: collectFile(cv, []),
        }),
        { write: (line) => void lines.push(line) },
        { beforeClose: async (target) => void (shown = await target.$$eval('#chosen li', (items) => items.map((li) => li.textContent ?? ''))) },
      );
      expect(run.exitCode, lines.join('\n')).toBe(0);
      expect(shown).toEqual(['cv: resume.txt, 31 bytes, starts "Grace Hopper: compil"']);
      expect(lines.join('\n')).toMatch(/1\. Uploaded "resume\.txt" to \[\d+\] button "CV" -> Put "resume\.txt" into the file field of \[\d+\] button "CV"/);
      expect(run.record.files).toEqual([{ name: 'resume.txt', size: 31, type: 'text/plain', path: cv }]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
