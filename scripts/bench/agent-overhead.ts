import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOST_RULES_ENV, LOOPBACK_ONLY_RULES } from '../lib/host-rules';
import { startFakeProvider } from '../../tests/fixtures/fake-provider/fake-provider-server';
import { currentView } from '../../tests/fixtures/fake-provider/prompt-view';
import type { RecordedRequest, ScriptedMessage } from '../../tests/fixtures/fake-provider/scripted-reply';
import { serveRoutes } from '../../tests/e2e/support/static-server';
import { type ProcessSample, samplePeakRss } from './process-tree';

/**
 * Deputy's own cost per step on a real run: `npm run task` (the CLI as a user runs it: the built extension in
 * Chromium) against a local shop and the local wire-format model server, driven by a scripted model that opens a
 * product, shows its details and goes back, round after round. The model answers at once, so the time between one
 * reply and the next request is Deputy's alone: observing, prompting, acting, settling and verifying.
 */
const PRODUCTS = 6;

/** The kinds of step the scripted task takes, in turn: the peer (scripts/bench/stagehand-peer.mjs) names them alike. */
export const STEP_KINDS = ['click a link (navigates)', 'click a button (in page)', 'go back'] as const;

/** The local shop both Deputy and the peer work on. */
export function shop(): Record<string, string> {
  const list = Array.from({ length: PRODUCTS }, (_, i) => `<li><a href="/p/${i}">Bottle ${i + 1}</a> stainless steel, 750 ml, ${20 + i} EUR</li>`).join('');
  const routes: Record<string, string> = {
    '/': `<!doctype html><title>Bottles</title><h1>Water bottles</h1><label>Search <input name="q"></label><ul>${list}</ul><p>${'Free delivery over 50 EUR. '.repeat(20)}</p>`,
  };
  for (let i = 0; i < PRODUCTS; i += 1) {
    routes[`/p/${i}`] =
      `<!doctype html><title>Bottle ${i + 1}</title><h1>Bottle ${i + 1}</h1><a href="/">Back to results</a>` +
      `<button onclick="document.getElementById('d').hidden=false">Show details</button><p id="d" hidden>Keeps drinks cold for ${12 + i} hours.</p>` +
      `<p>${`Review: the lid seals well, model ${i}. `.repeat(20)}</p>`;
  }
  return routes;
}

const call = (name: string, args: Record<string, unknown>): ScriptedMessage => ({ toolCalls: [{ name, arguments: args }] });

function refOf(view: string, role: string, name: string): number | undefined {
  for (const match of view.matchAll(/\[(\d+)\] ([\w-]+) "([^"]*)"/g)) if (match[2] === role && match[3] === name) return Number(match[1]);
  return undefined;
}

/** Turn n of the scripted task: open a product, show its details, go back; `done` on the last turn. */
function turn(n: number, steps: number, request: RecordedRequest): ScriptedMessage {
  if (n === steps - 1) return call('done', { success: true, summary: 'Looked at every bottle.' });
  const view = currentView(request);
  const round = Math.floor(n / 3);
  const want = n % 3 === 0 ? (['link', `Bottle ${(round % PRODUCTS) + 1}`] as const) : n % 3 === 1 ? (['button', 'Show details'] as const) : null;
  if (!want) return call('back', {});
  const ref = refOf(view, want[0], want[1]);
  return ref === undefined ? call('wait', { seconds: 0.5 }) : call('click', { ref });
}

export interface OverheadFigures {
  exitCode: number | null;
  steps: number;
  /** From starting the CLI to the first model request. */
  coldStartMs: number;
  /** Per step, from the model's reply to Deputy's next request. */
  overheadMs: number[];
  /** The same, by the kind of step it carried out (STEP_KINDS). */
  overheadByKind: Record<string, number[]>;
  /** Characters of every request the model was sent over the task. */
  inputChars: number;
  peakRssKb: number;
  /** The process tree when its memory peaked. */
  atPeak: ProcessSample[];
  /** Actions whose result came back verified (a result with evidence or a stated failure), of all actions. */
  verified: { results: number; actions: number };
  inputCharsPerStep: number;
  /** Where each step's time went, from the task's trace (see stepPhases). */
  phasesMs: Record<string, number[]>;
  /** Clicks after which the tab was on another page, and how many of them were reported as having no visible effect. */
  navigatingClicks: { total: number; reportedNoEffect: number };
}

/** The phases of a step as the task's trace shows them, in order. */
export const PHASES = ['history screenshot (before acting)', 'action (gate, act, settle, verdict)', 'save, checks (after acting)', 'snapshot (observe)', 'prompt'] as const;

/** The prefix of an action's parts in `phasesMs` (see stepPhases): printed under the action phase. */
export const ACTION_PART = '  ';

interface TraceLine {
  type: string;
  at: number;
  step?: number;
  durationMs?: number;
  name?: string;
  url?: string;
  content?: string;
  /** Where a call's time went, by part (the trace's tool record). */
  phases?: Record<string, number>;
}

/**
 * Splits each step's time by the trace's marks: from the model's reply to the call's start (the kept screenshot the
 * call waits for), the call itself, from its end to the next look, the look, and building the next prompt. Also counts
 * the clicks after which the next look was at another address, and those of them reported as "no visible effect".
 */
export function stepPhases(lines: TraceLine[]): Pick<OverheadFigures, 'phasesMs' | 'navigatingClicks'> {
  const phasesMs: Record<string, number[]> = Object.fromEntries(PHASES.map((p) => [p, []]));
  const push = (phase: (typeof PHASES)[number], ms: number): void => void phasesMs[phase]!.push(Math.max(0, ms));
  const observations = new Map(lines.filter((l) => l.type === 'observation').map((l) => [l.step, l]));
  const navigatingClicks = { total: 0, reportedNoEffect: 0 };
  let reply: TraceLine | undefined;
  let tool: TraceLine | undefined;
  for (const line of lines) {
    if (line.type === 'reply') reply = line;
    if (line.type === 'tool' && line.durationMs !== undefined) {
      tool = line;
      if (reply) push(PHASES[0], line.at - line.durationMs - reply.at);
      push(PHASES[1], line.durationMs);
      // The action's parts as the extension timed them, and what none of them covers (the tool, the egress checks).
      if (line.phases) {
        let covered = 0;
        for (const [part, ms] of Object.entries(line.phases)) {
          if (part === 'page settle (in act)') continue;
          // A part of another part (the tab settle's loading, its wait for the page's script...) is shown, not added.
          if (part.startsWith('of which ')) {
            (phasesMs[`${ACTION_PART}  ${part}`] ??= []).push(Math.max(0, ms));
            continue;
          }
          (phasesMs[`${ACTION_PART}${part}`] ??= []).push(Math.max(0, ms));
          covered += ms;
        }
        const inAct = line.phases['page settle (in act)'];
        if (inAct !== undefined) (phasesMs[`${ACTION_PART}  of which the page's settle`] ??= []).push(inAct);
        (phasesMs[`${ACTION_PART}other`] ??= []).push(Math.max(0, line.durationMs - covered));
      }
      const before = observations.get(line.step);
      const after = observations.get((line.step ?? 0) + 1);
      if (line.name === 'click' && before?.url && after?.url && before.url !== after.url) {
        navigatingClicks.total += 1;
        if (/no visible effect/i.test(line.content ?? '')) navigatingClicks.reportedNoEffect += 1;
      }
    }
    if (line.type === 'observation' && tool && line.durationMs !== undefined) {
      push(PHASES[2], line.at - line.durationMs - tool.at);
      push(PHASES[3], line.durationMs);
    }
    if (line.type === 'prompt' && (line.step ?? 0) > 0) {
      const look = observations.get(line.step);
      if (look) push(PHASES[4], line.at - look.at);
    }
  }
  return { phasesMs, navigatingClicks };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/**
 * Runs the scripted task once through the CLI and measures it. `modelMs` is how long the model takes to answer: 0 for
 * a model that answers at once (everything Deputy does lies between two requests), or a real model's latency, which is
 * taken off each gap, so work Deputy does while the model thinks counts as it does with a real model.
 */
export async function measureOverhead(steps = 30, modelMs = 0): Promise<OverheadFigures> {
  const fake = await startFakeProvider();
  const site = await serveRoutes(shop());
  const runs = process.env.BENCH_KEEP_RUNS ?? (await mkdtemp(join(tmpdir(), 'deputy-bench-agent-')));
  const arrivals: number[] = [];
  for (let n = 0; n < steps; n += 1) {
    fake.enqueue((request) => {
      arrivals.push(performance.now());
      const reply = turn(n, steps, request);
      return modelMs > 0 ? { ...reply, holdUntil: new Promise((resolve) => setTimeout(resolve, modelMs)) } : reply;
    });
  }
  const rules = `MAP *.test 127.0.0.1, ${LOOPBACK_ONLY_RULES}`;
  const modelUrl = `http://models.test:${new URL(fake.url).port}/v1`;
  const args = ['scripts/task.mjs', '--json', '--steps', String(steps + 5), '--runs-dir', runs, '--url', site.url('/', 'shop.test'), '--base-url', modelUrl, '--model', 'gpt-4o-mini', 'Look at each bottle'];
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, [HOST_RULES_ENV]: rules, DEPUTY_API_KEY: 'bench' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const memory = samplePeakRss(child.pid);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const { peakRssKb, atPeak } = await memory.stop();
  try {
    const end = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; runDir?: string })
      .find((event) => event.type === 'end');
    const record = end?.runDir ? (JSON.parse(await readFile(join(end.runDir, 'task.json'), 'utf8')) as TaskFile) : undefined;
    const trace = end?.runDir
      ? (await readFile(join(end.runDir, 'trace.jsonl'), 'utf8').catch(() => ''))
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as TraceLine)
      : [];
    const calls = record?.agent?.steps.flatMap((step) => step.calls).filter((c) => c.name !== 'done') ?? [];
    const overheadMs = arrivals.slice(1).map((at, i) => at - (arrivals[i] ?? at) - modelMs);
    const overheadByKind: Record<string, number[]> = {};
    // The gap after request n is the time Deputy took to carry out turn n's action and look again.
    overheadMs.forEach((ms, n) => (overheadByKind[STEP_KINDS[n % 3]!] ??= []).push(ms));
    return {
      exitCode,
      steps: record?.agent?.steps.length ?? 0,
      coldStartMs: (arrivals[0] ?? started) - started,
      overheadMs,
      overheadByKind,
      inputChars: fake.requests.reduce((sum, r) => sum + r.bytes.length, 0),
      peakRssKb,
      atPeak,
      verified: { results: calls.filter((c) => c.result !== undefined && (!c.result.ok || (c.result.evidence?.length ?? 0) > 0 || c.result.changed !== undefined)).length, actions: calls.length },
      inputCharsPerStep: fake.requests.reduce((sum, r) => sum + r.bytes.length, 0) / Math.max(1, fake.requests.length),
      ...stepPhases(trace),
    };
  } finally {
    await fake.close();
    await site.close();
    if (!process.env.BENCH_KEEP_RUNS) await rm(runs, { recursive: true, force: true });
  }
}

interface TaskFile {
  agent?: { steps: { calls: { name: string; result?: { ok: boolean; changed?: boolean; evidence?: string[] } }[] }[] };
}
