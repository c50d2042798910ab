// `npm run bench:routine`: a 20-step task done once with a scripted model in real Chromium, saved as a routine and
// replayed: model calls, tokens, dollars and time beside the live run measured in the same run, then again with one
// label changed on the page.
//
// The model is a local OpenAI chat-completions server (tests/fixtures/fake-provider) that behaves like a real one on
// the two axes the saving is about: each call waits before its first byte (default 1-3 s, drawn from a fixed seed;
// `--delay-ms=MIN-MAX` to change it, `--delay-ms=0-0` for Deputy's own overhead alone), and each reply reports the
// usage a real provider would: input tokens counted on the request's own bytes (4 characters a token) with OpenAI's
// automatic prompt caching emulated on them (tests/fixtures/fake-provider/prompt-cache.ts), output tokens on the
// reply's tool call (4 characters a token, plus 20 for the call's framing). Dollars are Deputy's own count on its
// task record, at the price table's gpt-4o-mini rate. The target is a replay costing <= 1/5 of the live run:
// the ratios are printed; only the model-call counts decide the exit code, never a timing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import type { TaskRecord } from '../shared/protocol';
import { startFakeProvider } from '../tests/fixtures/fake-provider/fake-provider-server';
import { createPromptCache } from '../tests/fixtures/fake-provider/prompt-cache';
import type { RecordedRequest, ScriptedReply } from '../tests/fixtures/fake-provider/scripted-reply';
import { openTab } from '../tests/e2e/support/open-tab';
import { PANEL } from '../tests/e2e/support/panel-harness';
import { call, refIn } from '../tests/e2e/support/snapshot-refs';
import { serveRoutes } from '../tests/e2e/support/static-server';
import { launchTestBrowser, siteUrl } from '../tests/e2e/support/test-hosts';
import { uiCall } from '../tests/e2e/support/ui-call';

const FIELDS = 19;
const delayArg = process.argv.find((a) => a.startsWith('--delay-ms='))?.slice('--delay-ms='.length) ?? '1000-3000';
const delayMatch = /^(\d+)-(\d+)$/.exec(delayArg);
if (!delayMatch || Number(delayMatch[1]) > Number(delayMatch[2])) throw new Error(`--delay-ms is MIN-MAX in milliseconds, such as 1000-3000, not "${delayArg}".`);
const [minDelay, maxDelay] = [Number(delayMatch[1]), Number(delayMatch[2])];
// A fixed-seed generator (mulberry32), so two runs of the bench wait the same sequence of delays.
let seed = 0x5eed;
const random = (): number => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const cache = createPromptCache();
/** A scripted reply made to wait and to report usage as a real model's would (see the head of this file). */
const realistic =
  (script: (r: RecordedRequest) => ScriptedReply) =>
  (r: RecordedRequest): ScriptedReply => {
    const reply = script(r);
    const usage = cache.usage(r.path, (r.json ?? {}) as Record<string, unknown>);
    const output = 20 + Math.ceil(JSON.stringify('toolCalls' in reply ? (reply.toolCalls ?? []) : []).length / 4);
    const wait = minDelay + Math.round(random() * (maxDelay - minDelay));
    return { ...reply, usage: { input: usage.input, output, cached: usage.cached }, holdUntil: new Promise((resolve) => setTimeout(resolve, wait)) };
  };
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
    ...Array.from({ length: FIELDS }, (_, k) => realistic((r) => call('type', { ref: refIn(r, 'textbox', new RegExp(`^Field ${k + 1}$`)), text: value(k + 1) }))),
    realistic((r) => call('click', { ref: refIn(r, 'button', /^Submit$/) })),
    realistic(() => call('done', { success: true, summary: 'Sent.' })),
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
  fake.enqueue(realistic((r) => call('type', { ref: refIn(r, 'textbox', /^Field seven$/), text: 'v7' })));
  const relabelled = await replay();
  fake.drop();

  const spent = (record: TaskRecord): { tokens: number; usd: number } => ({
    tokens: (record.agent?.usage.inputTokens ?? 0) + (record.agent?.usage.outputTokens ?? 0),
    usd: record.agent?.usage.costUsd ?? 0,
  });
  const liveSpent = spent(recorded);
  const ratio = (part: number, whole: number): string => (whole > 0 ? (part / whole).toFixed(3) : 'n/a');
  const row = (name: string, record: TaskRecord, steps: number, calls: number, ms: number): string[] => {
    const s = spent(record);
    return [name, record.status, String(steps), String(calls), String(s.tokens), `$${s.usd.toFixed(5)}`, (ms / 1000).toFixed(1), ratio(s.tokens, liveSpent.tokens), ratio(s.usd, liveSpent.usd), ratio(ms, liveMs)];
  };
  const rows = [
    ['run', 'status', 'steps', 'model calls', 'tokens', 'cost', 'time (s)', 'tokens/live', 'cost/live', 'time/live'],
    row('live (recorded)', recorded, recorded.agent?.steps.length ?? 0, liveCalls, liveMs),
    row('replay, page unchanged', same.record, same.record.routine?.done ?? 0, same.calls, same.ms),
    row('replay, one label changed', relabelled.record, relabelled.record.routine?.done ?? 0, relabelled.calls, relabelled.ms),
  ];
  console.log(`model: scripted OpenAI chat server, ${minDelay}-${maxDelay} ms before each reply, usage as a real provider reports it (see the head of scripts/bench-routine.ts)\n`);
  for (const cells of rows) console.log(cells.map((cell, i) => cell.padEnd(i === 0 ? 28 : 13)).join(''));
  console.log(`\ntargets: unchanged replay 0 model calls (${same.calls === 0 ? 'met' : 'MISSED'}); one label changed: exactly 1 (${relabelled.calls === 1 ? 'met' : 'MISSED'}).`);
  console.log(`the issue's target, a replay at <= 1/5 (0.200) of the live run: cost ratio ${ratio(spent(same.record).usd, liveSpent.usd)} unchanged, ${ratio(spent(relabelled.record).usd, liveSpent.usd)} with one repair; wall time ratio ${ratio(same.ms, liveMs)} and ${ratio(relabelled.ms, liveMs)} (timings on a shared machine are noisy and decide nothing).`);
  console.log(`parameters: ${saved.routine.params.map((p) => p.name).join(', ')}; steps: ${saved.routine.steps.length}.`);
  if (same.calls !== 0 || relabelled.calls !== 1) process.exitCode = 1;
} finally {
  await ext.close();
  await fake.close();
  await site.close();
  await rm(profile, { recursive: true, force: true });
}
