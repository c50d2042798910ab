import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { cpus, loadavg } from 'node:os';
import { createAnthropicProvider } from '../shared/agent/providers/anthropic-provider';
import { createOpenAiChatProvider } from '../shared/agent/providers/openai-chat-provider';
import { createOpenAiResponsesProvider } from '../shared/agent/providers/openai-responses-provider';
import type { Provider } from '../shared/agent/providers/provider';
import { startAgent } from '../shared/agent/run-agent';
import { createSecretVault } from '../shared/agent/secret-vault';
import type { TraceRecord } from '../shared/agent/trace';
import type { WebEnvironment } from '../shared/agent/web-environment';
import { taskTools } from '../shared/agent/task-tools';
import type { PageView } from '../shared/agent/build-prompt';
import { ACTION_PART, PHASES, STEP_KINDS, measureOverhead, percentile } from './bench/agent-overhead';
import { STAGEHAND_VERSION, ensureStagehand, measureStagehand } from './bench/stagehand-peer-run';
import { type ProcessSample, describeTree, flagDifference } from './bench/process-tree';
import { startFakeProvider } from '../tests/fixtures/fake-provider/fake-provider-server';
import { createPromptCache } from '../tests/fixtures/fake-provider/prompt-cache';
import type { ScriptedToolCall } from '../tests/fixtures/fake-provider/scripted-reply';
import { type FakePage, createFakeWeb } from '../tests/unit/shared/agent/support/fake-web';

/**
 * `npm run bench:agent`, part one (tokens): one scripted 30-step shopping task through the real agent loop and the
 * official SDKs against the local wire-format server, per API and per page view (whole pages, or what changed). It prints the prompt's size at step 5 and step 30, what the
 * whole task sent, and the share of input tokens a provider's prompt cache could serve, emulated on the exact bytes
 * each request carried (tests/fixtures/fake-provider/prompt-cache.ts); Deputy's own count of cached tokens, read from
 * the usage the server reported, is shown beside it. Part two (scripts/bench/agent-overhead.ts): Deputy's own time per
 * step, cold start and memory on a real CLI run, and the peer's availability.
 */
const STEPS = 30;

const USAGE = `npx tsx scripts/bench-agent.ts [--tokens | --pairs | --deputy-only]  (npm run bench:agent builds first; the CLI runs need the build)
  (no option)    the token part, Deputy's overhead table (model at once, model taking 1 s), then BENCH_PAIRS pairs with Stagehand
  --tokens       the token part alone: no build, no browser
  --pairs        the token part, then the pairs with Stagehand only (ratios), without the overhead table
  --deputy-only  the token part and Deputy's overhead table, without the peer
environment: BENCH_PAIRS=n pairs with the peer (default 3); BENCH_STEPS=n steps of each CLI run (default 30, at least 4);
  BENCH_KEEP_RUNS=dir keeps each CLI run's trace and screenshots there`;
if (process.argv.includes('--help')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
/** Steps of each run of the CLI and of the peer (the token part always takes STEPS). */
const CLI_STEPS = Math.max(4, Math.round(Number(process.env.BENCH_STEPS ?? STEPS)) || STEPS);
const SITE = 'https://shop.example';
const PRODUCTS = 6;

/** A listing page about the size of a real shop's snapshot (about 9,000 characters). */
function listing(url: string, title: string, extra: FakePage['elements']): FakePage {
  const elements: FakePage['elements'] = [...extra];
  for (let i = 0; i < 100; i += 1) {
    const ref = 10 + i;
    const product = i % PRODUCTS;
    elements.push({ ref, role: 'link', name: `Product ${i + 1}: stainless steel water bottle, 750 ml, model ${1000 + i}`, ...(i < PRODUCTS ? { to: `${SITE}/p/${product}` } : {}) });
  }
  return { url, title, elements, body: 'Free delivery on orders over 50 euros. Prices include VAT. '.repeat(8) };
}

function product(i: number): FakePage {
  return {
    url: `${SITE}/p/${i}`,
    title: `Water bottle ${i}`,
    elements: [
      { ref: 1, role: 'button', name: 'Show details' },
      { ref: 2, role: 'link', name: 'Back to results', to: `${SITE}/results` },
      ...Array.from({ length: 60 }, (_, k) => ({ ref: 10 + k, role: 'link', name: `Related item ${k + 1}: insulated flask ${i}-${k}, 500 ml, brushed steel` })),
    ],
    body: `Review ${i}: keeps drinks cold for a day; the lid seals well and the paint does not chip. `.repeat(20),
  };
}

const pages: FakePage[] = [
  listing(`${SITE}/search`, 'Search', [
    { ref: 1, role: 'textbox', name: 'Search' },
    { ref: 2, role: 'button', name: 'Search', to: `${SITE}/results` },
  ]),
  listing(`${SITE}/results`, 'Results', [{ ref: 2, role: 'link', name: 'New search', to: `${SITE}/search` }]),
  ...Array.from({ length: PRODUCTS }, (_, i) => product(i)),
];

/** The model's 30 turns: a plan, then rounds of search, open a result, look at it, go back, and done at the end. */
function script(): ScriptedToolCall[] {
  const plan = (done: number) => ({
    name: 'update_plan',
    arguments: { explanation: 'Compare the bottles.', steps: [{ step: 'Look at each bottle', status: done > 3 ? 'completed' : 'in_progress' }, { step: 'Report the best', status: 'pending' }] },
  });
  const calls: ScriptedToolCall[] = [plan(0)];
  for (let round = 0; calls.length < STEPS - 1; round += 1) {
    const k = round % PRODUCTS;
    calls.push(
      { name: 'type', arguments: { ref: 1, text: `water bottle ${round}` } },
      { name: 'click', arguments: { ref: 2 } },
      { name: 'click', arguments: { ref: 10 + k } },
      { name: 'click', arguments: { ref: 1 } },
      { name: 'back', arguments: {} },
      round === 2 ? plan(round) : { name: 'navigate', arguments: { url: `${SITE}/search` } },
    );
    if (round === 2) calls.push({ name: 'navigate', arguments: { url: `${SITE}/search` } });
  }
  return [...calls.slice(0, STEPS - 1), { name: 'done', arguments: { success: true, summary: 'Bottle 3 is the best.' } }];
}

type Api = 'openai-chat' | 'openai-responses' | 'anthropic';

interface Figures {
  api: Api;
  pageView: PageView;
  status: string;
  steps: number;
  step5: number;
  step30: number;
  sentChars: number;
  input: number;
  cached: number;
  written: number;
  deputyCached: number | null;
}

async function run(api: Api, pageView: PageView): Promise<Figures> {
  const fake = await startFakeProvider();
  const cache = createPromptCache();
  const totals = { input: 0, cached: 0, written: 0 };
  for (const call of script()) {
    fake.enqueue((request) => {
      const usage = cache.usage(request.path, request.json as Record<string, unknown>);
      totals.input += usage.input;
      totals.cached += usage.cached;
      totals.written += usage.written;
      return { toolCalls: [call], usage: { input: usage.input, output: 30, cached: usage.cached, cacheWrite: usage.written } };
    });
  }
  const options = { apiKey: 'sk-bench-0123456789', maxRetries: 0, timeout: 30_000 };
  const provider: Provider =
    api === 'anthropic'
      ? createAnthropicProvider({ client: new Anthropic({ ...options, baseURL: fake.anthropicBaseUrl }), model: 'claude-haiku-4-5' })
      : api === 'openai-chat'
        ? createOpenAiChatProvider({ client: new OpenAI({ ...options, baseURL: fake.openaiBaseUrl }), model: 'gpt-4.1-mini' })
        : createOpenAiResponsesProvider({ client: new OpenAI({ ...options, baseURL: fake.openaiBaseUrl }), model: 'gpt-4.1-mini' });
  const trace: TraceRecord[] = [];
  let tick = 1_700_000_000_000;
  try {
    const state = await startAgent<WebEnvironment>(
      {
        environment: createFakeWeb(pages, `${SITE}/search`),
        // The tools the extension offers this task: no files attached, a model not sent images.
        tools: taskTools<WebEnvironment>({ flow: 'web', attachedFiles: 0, vision: provider.vision, screenshotsEachStep: false, pageView }).tools,
        provider,
        policy: { mode: 'act' },
        vault: createSecretVault({ entries: {} }),
        approve: () => Promise.resolve({ approved: false, note: 'No approvals in the benchmark.' }),
        persist: () => Promise.resolve(),
        trace: (record) => trace.push(record),
        now: () => (tick += 10),
        pageView,
      },
      { taskId: `bench-${api}`, task: 'Compare the water bottles in this shop and tell me which is best.', startUrl: `${SITE}/search` },
    );
    const prompts = trace.filter((r): r is Extract<TraceRecord, { type: 'prompt' }> => r.type === 'prompt');
    const replies = trace.filter((r) => r.type === 'reply') as (Extract<TraceRecord, { type: 'reply' }> & { cachedInputTokens?: number | null })[];
    const counted = replies.some((r) => r.cachedInputTokens !== undefined);
    return {
      api,
      pageView,
      status: state.status,
      steps: state.steps.length,
      step5: prompts[4]?.chars ?? 0,
      step30: prompts[STEPS - 1]?.chars ?? 0,
      sentChars: fake.requests.reduce((sum, r) => sum + r.bytes.length, 0),
      ...totals,
      deputyCached: counted ? replies.reduce((sum, r) => sum + (r.cachedInputTokens ?? 0), 0) : null,
    };
  } finally {
    await fake.close();
  }
}

const results: Figures[] = [];
for (const pageView of ['full', 'diff'] as const) {
  for (const api of ['openai-chat', 'openai-responses', 'anthropic'] as const) results.push(await run(api, pageView));
}

const header = ['API', 'page view', 'result', 'prompt step 5', 'prompt step 30', 'step 30 / step 5', 'bytes sent', 'input tokens', 'cache-eligible', 'share', "Deputy's cached count"];
const rows = results.map((r) => [
  r.api,
  r.pageView === 'diff' ? 'diff (default)' : r.pageView,
  `${r.status} in ${r.steps} steps`,
  `${r.step5} ch`,
  `${r.step30} ch`,
  `${(r.step30 / r.step5).toFixed(2)}x`,
  `${(r.sentChars / 1e6).toFixed(2)} MB`,
  `${r.input}`,
  `${r.cached}`,
  `${Math.round((100 * r.cached) / r.input)}%`,
  r.deputyCached === null ? 'not read' : `${r.deputyCached}`,
]);
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
const line = (cells: string[]): string => cells.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
process.stdout.write(`deputy agent benchmark (tokens): one scripted ${STEPS}-step task per API; Node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}\n\n`);
process.stdout.write(`${line(header)}\n${rows.map(line).join('\n')}\n\n`);
process.stdout.write('targets: step 30 <= 1.3x step 5; >= 70% of input tokens cache-eligible (Anthropic counts cache reads only; writes are not eligible).\n');
// `--tokens` stops here: the figures above need no build and no browser, and input tokens are exact with a scripted model.
if (process.argv.includes('--tokens')) process.exit(0);

// Part two: Deputy's own time and memory on a real run of the CLI (built extension, Chromium): once with a model that
// answers at once, once with one that takes a second (a fast hosted model), whose time is taken off each step.
// `--pairs` leaves this out and goes to the pairs with the peer; `--deputy-only` leaves the peer out.
const ms = (value: number): string => `${Math.round(value)} ms`;
if (!process.argv.includes('--pairs')) await overheadTable();
if (!process.argv.includes('--deputy-only')) await peerPairs();

async function overheadTable(): Promise<void> {
  const runs = [await measureOverhead(CLI_STEPS, 0), await measureOverhead(CLI_STEPS, 1000)];
  process.stdout.write(`\ndeputy agent benchmark (overhead): npm run task on a local shop, ${CLI_STEPS}-step scripted task (open a product, show details, back)\n\n`);
  const rowsOf = (o: (typeof runs)[number]): string[] => [
    `exit ${o.exitCode}, ${o.steps} steps`,
    ms(percentile(o.overheadMs, 50)),
    ms(percentile(o.overheadMs, 90)),
    ms(o.coldStartMs),
    `${Math.round(o.peakRssKb / 1024)} MB`,
    `${o.verified.results} of ${o.verified.actions}`,
    `${Math.round(o.inputCharsPerStep / 1000)} kB`,
  ];
  const labels = [
    'result',
    'per-step overhead, median',
    'per-step overhead, p90',
    'cold start to first model request',
    'peak RSS (CLI, browser, host; summed)',
    'actions with a verified result',
    'request size per step',
  ];
  const columns = runs.map(rowsOf);
  const labelWidth = Math.max(...labels.map((label) => label.length));
  process.stdout.write(`${''.padEnd(labelWidth)}  ${'model answers at once'.padEnd(24)}  model takes 1 s\n`);
  process.stdout.write(`${labels.map((label, i) => `${label.padEnd(labelWidth)}  ${(columns[0]?.[i] ?? '').padEnd(24)}  ${columns[1]?.[i] ?? ''}`).join('\n')}\n\n`);
  // Where a step's time goes (the task's trace: the mark before and after each part), with the model answering at once.
  // The action's parts (timed in the extension) follow the action phase, indented, each over the steps that had it.
  const phasesMs = runs[0]?.phasesMs ?? {};
  const parts = Object.keys(phasesMs).filter((key) => key.startsWith(ACTION_PART));
  const shownPhases = PHASES.flatMap((phase) => (phase === PHASES[1] ? [phase, ...parts] : [phase]));
  const phaseWidth = Math.max(...shownPhases.map((phase) => phase.length));
  process.stdout.write(`where a step's time goes (model answers at once; median, p90 over the task's steps; an action's parts over the steps that had them):\n`);
  for (const phase of shownPhases) {
    const values = phasesMs[phase] ?? [];
    const count = phase.startsWith(ACTION_PART) ? `  (${values.length} steps)` : '';
    process.stdout.write(`  ${phase.padEnd(phaseWidth)}  ${ms(percentile(values, 50)).padStart(8)}  ${ms(percentile(values, 90)).padStart(8)}${count}\n`);
  }
  const misreported = (o: (typeof runs)[number]): string => `${o.navigatingClicks.reportedNoEffect} of ${o.navigatingClicks.total}`;
  process.stdout.write(`navigating clicks reported as "no visible effect": ${runs.map(misreported).join(', ')} (target 0; load ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores)\n\n`);
}

// Part three: the peer, Stagehand's act() (npm), on the same shop and script, interleaved with Deputy run by run; the
// ratios are medians of each pair's ratio, so a machine that slows down between runs weighs on both sides alike.

async function peerPairs(): Promise<void> {
  const pairs = Math.max(1, Number(process.env.BENCH_PAIRS ?? 3));
  const peer = await ensureStagehand();
  if ('why' in peer) {
    process.stdout.write(`peer: Stagehand ${STAGEHAND_VERSION} unavailable on this machine (${peer.why}); Deputy's figures are above, no ratios printed.\n`);
    return;
  }
  const ratios: Record<string, number[]> = {};
  const add = (key: string, value: number): void => {
    if (Number.isFinite(value) && value > 0) (ratios[key] ??= []).push(value);
  };
  const notes: string[] = [];
  const misreports = { clicks: 0, noEffect: 0 };
  const trees: { deputy: ProcessSample[]; stagehand: ProcessSample[] } = { deputy: [], stagehand: [] };
  for (let pair = 0; pair < pairs; pair += 1) {
    // Alternate which side goes first, so neither always runs on a machine the other just warmed or loaded.
    let deputy: Awaited<ReturnType<typeof measureOverhead>> | undefined;
    let stagehand: Awaited<ReturnType<typeof measureStagehand>> | undefined;
    try {
      if (pair % 2 === 0) {
        deputy = await measureOverhead(CLI_STEPS, 0);
        stagehand = await measureStagehand(peer.entry, CLI_STEPS);
      } else {
        stagehand = await measureStagehand(peer.entry, CLI_STEPS);
        deputy = await measureOverhead(CLI_STEPS, 0);
      }
    } catch (error) {
      notes.push(`pair ${pair + 1}: ${String(error).slice(0, 300)}`);
      continue;
    }
    trees.deputy = deputy.atPeak;
    trees.stagehand = stagehand.atPeak;
    if (stagehand.failedSteps > 0) notes.push(`pair ${pair + 1}: Stagehand reported ${stagehand.failedSteps} failed act() steps`);
    for (const kind of STEP_KINDS) add(kind, percentile(deputy.overheadByKind[kind] ?? [], 50) / percentile(stagehand.overheadByKind[kind] ?? [], 50));
    const all = (byKind: Record<string, number[]>): number[] => Object.values(byKind).flat();
    add('whole step', percentile(all(deputy.overheadByKind), 50) / percentile(all(stagehand.overheadByKind), 50));
    add('whole step, p90', percentile(all(deputy.overheadByKind), 90) / percentile(all(stagehand.overheadByKind), 90));
    misreports.clicks += deputy.navigatingClicks.total;
    misreports.noEffect += deputy.navigatingClicks.reportedNoEffect;
    add('cold start', deputy.coldStartMs / stagehand.coldStartMs);
    add('peak memory', deputy.peakRssKb / stagehand.peakRssKb);
    add('input over the task', deputy.inputChars / stagehand.inputChars);
    process.stdout.write(
      `pair ${pair + 1}: Deputy ${ms(percentile(all(deputy.overheadByKind), 50))}/step, cold ${ms(deputy.coldStartMs)}, ${Math.round(deputy.peakRssKb / 1024)} MB, ${Math.round(deputy.inputChars / 1000)} kB sent; ` +
        `Stagehand ${ms(percentile(all(stagehand.overheadByKind), 50))}/step, cold ${ms(stagehand.coldStartMs)}, ${Math.round(stagehand.peakRssKb / 1024)} MB, ${Math.round(stagehand.inputChars / 1000)} kB sent in ${stagehand.modelCalls} model calls\n`,
    );
  }
  const targets: Record<string, string> = { 'whole step': '<= 0.5x', 'whole step, p90': '<= 0.5x', 'cold start': '<= 0.8x', 'peak memory': '<= 1.0x' };
  process.stdout.write(`\ndeputy vs Stagehand ${STAGEHAND_VERSION} act() (same shop, same ${CLI_STEPS}-step script, ${pairs} interleaved pairs; median of pair ratios; Deputy / Stagehand):\n`);
  for (const key of [...STEP_KINDS, 'whole step', 'whole step, p90', 'cold start', 'peak memory', 'input over the task']) {
    const values = ratios[key] ?? [];
    const figure = values.length > 0 ? `${percentile(values, 50).toFixed(2)}x` : 'not measured';
    process.stdout.write(`  ${key.padEnd(26)} ${figure.padStart(12)}${targets[key] ? `   target ${targets[key]}` : ''}\n`);
  }
  process.stdout.write(
    '  (Stagehand sends its model nothing for "go back": it is a page call there, a model step in Deputy. Deputy verifies every step and reads the page back; act() does not.)\n',
  );
  // What each side's figures count, so a ratio is read as what it is.
  process.stdout.write(
    '  What is counted: cold start, from starting the process (Deputy: `npm run task`, the CLI as a user runs it; Stagehand: a Node script) to its first model request; ' +
      "memory, the peak of the summed RSS of the whole process tree (Node, the browser and all its children, Deputy's native host when it runs), sampled every 250 ms; " +
      "input, the characters of every request's body Deputy sent (system prompt, tools, history, pages) and of every prompt Stagehand built (system prompt, messages, response schema).\n",
  );
  if (trees.deputy.length > 0 && trees.stagehand.length > 0) {
    process.stdout.write(`  Deputy's tree at its peak (last pair): ${describeTree(trees.deputy)}\n  Stagehand's: ${describeTree(trees.stagehand)}\n`);
    const flags = flagDifference(trees.deputy, trees.stagehand);
    process.stdout.write(
      `  Browser flags: ${flags.shared} the same on both sides (Deputy's launch flags, given to Stagehand's browser in place of its defaults); only Deputy's: ${flags.onlyMine.join(' ') || 'none'}; only Stagehand's: ${flags.onlyTheirs.join(' ') || 'none'}\n`,
    );
  }
  process.stdout.write(`  Deputy's navigating clicks reported as "no visible effect" over the pairs: ${misreports.noEffect} of ${misreports.clicks} (target 0; load ${loadavg()[0]!.toFixed(2)})\n`);
  for (const note of notes) process.stdout.write(`  note: ${note}\n`);
}
