import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { startRealInputServer, type RealInputServer } from '../fixtures/real-input/real-input-server';
import { requireBuild } from './support/register-host';
import { call, lastMessage, playSteps, refIn, type ScriptStep } from './support/snapshot-refs';
import { debuggerHeld, results, runTask, startTaskBrowser, type RunOptions, type TaskBrowser } from './support/task-harness';
import { uiCall } from './support/ui-call';

// Real input on pages written for it, each on shop.test (mapped to loopback), driven by scripted models through the
// fake provider. One browser for the file.

let browser: TaskBrowser;
let site: RealInputServer;

beforeAll(async () => {
  requireBuild();
  site = await startRealInputServer();
  browser = await startTaskBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
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
    ]);
    expect(record.status, record.agent?.endReason ?? '').toBe('completed');
    expect(await page.$eval('#status', (el) => el.textContent)).toBe('Joined: welcome aboard!');
    const [subscribe, nothing, hover, typed] = results(record);
    expect(subscribe?.content).toMatch(/^Clicked \[\d+\] button "Join the list" \(trusted input\)/);
    expect(subscribe?.evidence).toContain('appeared: "Joined: welcome aboard!"');
    expect(nothing?.content).toMatch(/^Clicked \[\d+\] button "Do nothing": no visible effect \(nothing on the page changed\) \(trusted input\)/);
    expect(nothing?.evidence).toContain('no visible effect');
    // A real pointer sets CSS :hover, so the menu shown only by a :hover rule opens and its links are numbered.
    expect(hover?.content).toMatch(/^Hovered over \[\d+\] focusable "Account menu" \(trusted input\)/);
    expect(sent().at(-2)).toMatch(/\*\[\d+\] link "Settings"/);
    expect(typed?.evidence).toContain('value is now "abc"');
    expect(await page.$eval('#keys', (el) => el.textContent)).toBe('Trusted keys: a b c');
    expect(heldDuring).toBe(true);
    // Detached when the task ended: the browser's debugging bar goes with it.
    await expect.poll(() => debuggerHeld(browser.helper, tabId)).toBe(false);
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
