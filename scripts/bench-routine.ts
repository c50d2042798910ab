// `npm run bench:routine`: a 20-step task done once with the (scripted) model in real Chromium, saved as a routine and
// replayed: model calls and time beside the live run, then again with one label changed on the page. Figures are
// printed side by side; the scripted model answers at once, so the live run's time is Deputy's own work, not a real
// model's thinking (a real model adds seconds per step, which makes the saving larger).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import type { TaskRecord } from '../shared/protocol';
import { startFakeProvider } from '../tests/fixtures/fake-provider/fake-provider-server';
import type { RecordedRequest } from '../tests/fixtures/fake-provider/scripted-reply';
import { openTab } from '../tests/e2e/support/open-tab';
import { PANEL } from '../tests/e2e/support/panel-harness';
import { call, refIn } from '../tests/e2e/support/snapshot-refs';
import { serveRoutes } from '../tests/e2e/support/static-server';
import { launchTestBrowser, siteUrl } from '../tests/e2e/support/test-hosts';
import { uiCall } from '../tests/e2e/support/ui-call';

const FIELDS = 19;
let changed = false;
const label = (i: number): string => (changed && i === 7 ? 'Field seven' : `Field ${i}`);
const form = (): string =>
  `<!doctype html><title>Long form</title><h1>Long form</h1>${Array.from({ length: FIELDS }, (_, k) => `<p><label>${label(k + 1)} <input></label></p>`).join('')}<button onclick="document.getElementById('r').textContent='Sent '+[...document.querySelectorAll('input')].map(i=>i.value).join(',')">Submit</button><p id="r"></p>`;

async function finish(helper: Page, taskId: string): Promise<TaskRecord> {
  for (;;) {
    const record = await uiCall(helper, 'task.get', { taskId });
    if (record?.approval) await uiCall(helper, 'task.approve', { taskId, approvalId: record.approval.id, decision: 'approve' }).catch(() => undefined);
    if (record && ['completed', 'failed', 'stopped', 'handed_to_user'].includes(record.status)) return record;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const profile = await mkdtemp(join(tmpdir(), 'deputy-bench-routine-'));
const site = await serveRoutes(() => ({ '/form': { body: form(), headers: { 'cache-control': 'no-store' } } }));
const fake = await startFakeProvider();
const ext = await launchTestBrowser({ userDataDir: profile });
try {
  await ext.worker();
  const helper = await ext.openExtensionPage(PANEL);
  await uiCall(helper, 'settings.set', {
    provider: { preset: 'custom', baseUrl: siteUrl(Number(new URL(fake.url).port), 'models.test', '/v1'), model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 },
    defaultMode: 'act',
    stepBudget: 60,
  });
  const url = site.url('/form', 'shop.test');
  const value = (i: number): string => (i === 1 ? 'Ada Lovelace' : `v${i}`);
  fake.enqueue(
    ...Array.from({ length: FIELDS }, (_, k) => (r: RecordedRequest) => call('type', { ref: refIn(r, 'textbox', new RegExp(`^Field ${k + 1}$`)), text: value(k + 1) })),
    (r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Submit$/) }),
    () => call('done', { success: true, summary: 'Sent.' }),
  );
  const live = await openTab(ext, helper, url);
  let t = performance.now();
  const recorded = await finish(helper, (await uiCall(helper, 'task.start', { tabId: live.tabId, text: 'Fill the long form for Ada Lovelace', mode: 'act', flow: 'task' })).id);
  const liveMs = performance.now() - t;
  const liveCalls = fake.requests.length;
  const saved = await uiCall(helper, 'routine.save', { taskId: recorded.id, name: 'Long form' });

  const replay = async (): Promise<{ ms: number; calls: number; record: TaskRecord }> => {
    const tab = await openTab(ext, helper);
    const before = fake.requests.length;
    t = performance.now();
    const record = await finish(helper, (await uiCall(helper, 'routine.run', { id: saved.id, tabId: tab.tabId, params: { field_1: 'Grace Hopper' } })).id);
    return { ms: performance.now() - t, calls: fake.requests.length - before, record };
  };
  const same = await replay();
  changed = true;
  fake.enqueue((r: RecordedRequest) => call('type', { ref: refIn(r, 'textbox', /^Field seven$/), text: 'v7' }));
  const relabelled = await replay();
  fake.drop();

  const rows = [
    ['run', 'status', 'steps', 'model calls', 'time (s)', 'vs live'],
    ['live (recorded)', recorded.status, String(recorded.agent?.steps.length ?? 0), String(liveCalls), (liveMs / 1000).toFixed(1), '1.00'],
    ['replay, page unchanged', same.record.status, String(same.record.routine?.done ?? 0), String(same.calls), (same.ms / 1000).toFixed(1), (same.ms / liveMs).toFixed(2)],
    ['replay, one label changed', relabelled.record.status, String(relabelled.record.routine?.done ?? 0), String(relabelled.calls), (relabelled.ms / 1000).toFixed(1), (relabelled.ms / liveMs).toFixed(2)],
  ];
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(i === 0 ? 28 : 12)).join(''));
  console.log(`\ntargets: unchanged replay 0 model calls (${same.calls === 0 ? 'met' : 'MISSED'}); one label changed: exactly 1 (${relabelled.calls === 1 ? 'met' : 'MISSED'}); time <= 1/5 of live (${same.ms <= liveMs / 5 ? 'met' : 'not met with an instant scripted model'}).`);
  console.log(`parameters: ${saved.routine.params.map((p) => p.name).join(', ')}; steps: ${saved.routine.steps.length}. Timings on a shared machine are noisy.`);
  if (same.calls !== 0 || relabelled.calls !== 1) process.exitCode = 1;
} finally {
  await ext.close();
  await fake.close();
  await site.close();
  await rm(profile, { recursive: true, force: true });
}
