import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvalReport } from '../../scripts/eval/eval-report';
import { runEval, type EvalOptions } from '../../scripts/eval/run-eval';
import { miniwobMissing, MINIWOB_DIR } from '../../scripts/lib/miniwob-harness';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import type { RecordedRequest, ScriptedReply } from '../fixtures/fake-provider/fake-provider-server';
import { doneSoFar, MINIWOB_MODELS } from '../fixtures/miniwob-models';
import { useE2e } from './support/e2e-fixture';
import { call, lastMessage, playSteps, refIn } from './support/snapshot-refs';
import { taskOptions } from './support/task-options';
import { testHostEnv } from './support/test-hosts';

// The scripted model and the temp folder come from the shared fixture; the browsers (two at a time, one killed
// mid-task) and the demo shop stay `npm run eval`'s own: the CLI is what is tested.

// `npm run eval` with scripted models (not AI) over the real SDK: the built extension in Chromium, two browsers at a
// time, the demo shop's tasks judged by the state they leave. One run holds a solved task, a task the model claims
// but did not do, a model that never answers (timeout) and a browser killed mid-task; the CLI then re-runs only the
// failures with a model that solves them, and compares the two reports.

const e2e = useE2e({ browser: false, model: true, work: true, dropModelAfterEach: true });
/** Each task's browser, by task id, as the runner started it. */
const browsers = new Map<string, ExtensionBrowser>();

const modelUrl = (): string => e2e.modelBaseUrl;

function options(fields: Partial<EvalOptions>): EvalOptions {
  return {
    base: taskOptions({ url: undefined, task: '', provider: { preset: 'custom', baseUrl: modelUrl(), model: 'gpt-4o-mini' }, approve: 'all', steps: 20 }),
    suites: ['deputy'],
    suiteDir: MINIWOB_DIR,
    tasks: null,
    parallel: 2,
    seed: 'e2e',
    timeoutMs: 60_000,
    outDir: join(e2e.work, 'run'),
    label: null,
    rerun: null,
    ...fields,
  };
}

/** What a chat's support side has said by now, in the whole conversation the model was sent. */
const heard = (r: RecordedRequest, pattern: RegExp): boolean => pattern.test(r.text);

/** Not yet: playSteps answers `wait` and tries the step again next turn. */
const fail = (): never => {
  throw new Error('not yet');
};

/** Scripted solutions of Deputy's own tasks, from the snapshots they are sent. */
const SOLUTIONS: Record<string, (r: RecordedRequest) => ReturnType<typeof call>> = {
  'cheapest headphones': playSteps([(r) => call('click', { ref: refIn(r, 'button', /^Add Pocket Buds/) }), () => call('done', { success: true, summary: 'Added Pocket Buds.' })]),
  'Save my account details': playSteps([
    (r) => call('type', { ref: refIn(r, 'textbox', /^Full name/), text: 'Ada Lovelace' }),
    (r) => call('type', { ref: refIn(r, 'textbox', /^Email/), text: 'ada@example.org' }),
    (r) => call('type', { ref: refIn(r, 'textbox', /^Phone/), text: '+44 20 7946 0000' }),
    (r) => call('select', { ref: refIn(r, 'combobox', /^Country/), values: ['United Kingdom'] }),
    (r) => call('click', { ref: refIn(r, 'button', /^Save details/) }),
    () => call('done', { success: true, summary: 'Saved.' }),
  ]),
  'Search the catalogue for speakers': playSteps([
    (r) => call('type', { ref: refIn(r, 'searchbox', /^Search products/), text: 'speakers' }),
    (r) => call('click', { ref: refIn(r, 'button', /^Search$/) }),
    (r) => call('click', { ref: refIn(r, 'link', /^Next page$/) }),
    (r) => call('click', { ref: refIn(r, 'link', /^Summit XL/) }),
    (r) => call('click', { ref: refIn(r, 'button', /^Add to wishlist$/) }),
    () => call('done', { success: true, summary: 'Added the Summit XL (26 h).' }),
  ]),
  // Each answer waits until support said what it answers (support types with a delay).
  'Get a full refund': playSteps([
    () => call('chat_send', { text: 'Hello, my order arrived broken and I would like a full refund.' }),
    (r) => (heard(r, /order number\?/) ? call('chat_send', { text: 'The order number is 48213.' }) : fail()),
    // The widget offers the refund as a quick reply under its messages: the model clicks it, as a person would.
    (r) => (heard(r, /Quick replies \(chat_choose\): [^<]*Full refund please/) ? call('chat_choose', { choice: 'Full refund please' }) : fail()),
    (r) => (heard(r, /full refund is on its way/) ? call('chat_end', { outcome: 'agreed', summary: 'Support is refunding order 48213 in full.' }) : fail()),
  ]),
};

function taskOf(r: RecordedRequest): string {
  const key = Object.keys(SOLUTIONS).find((phrase) => r.text.includes(phrase));
  if (!key) throw new Error(`A request for no known task: ${r.text.slice(0, 400)}`);
  return key;
}

/** Enough replies for every turn of every task; each decides by the task it is asked about. */
function serve(model: (r: RecordedRequest) => ScriptedReply): void {
  for (let turn = 0; turn < 200; turn += 1) e2e.fake.enqueue(model);
}

function npmEval(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...testHostEnv() };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'CHROME_PATH']) delete env[name];
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'eval', '--', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run eval on the demo shop, with scripted models', () => {
  const first = (): string => join(e2e.work, 'run', 'report.json');

  it('reports a solved task, a claimed but undone one, a timeout and a killed browser, and still writes every report', async () => {
    serve((r) => {
      const task = taskOf(r);
      if (task === 'cheapest headphones') return SOLUTIONS[task]?.(r) ?? { hang: true };
      // Claims success without doing anything: the suite reads the shop's stored account and says no.
      if (task === 'Save my account details') return call('done', { success: true, summary: 'Saved your details.' });
      if (task === 'Search the catalogue for speakers') void browsers.get('deputy/catalogue-search')?.browser.process()?.kill('SIGKILL');
      // The support case's model never answers; the catalogue's has no browser left to answer to.
      return { hang: true };
    });
    const lines: string[] = [];
    const { report, html } = await runEval(options({ timeoutMs: 40_000 }), (line) => lines.push(line), { onLaunched: (task, browser) => void browsers.set(task.id, browser) });
    const byId = Object.fromEntries(report.tasks.map((task) => [task.id, task]));
    const output = lines.join('\n');

    expect(byId['deputy/shop-cheapest-headphones'], output).toMatchObject({ status: 'solved', agentClaimedSuccess: true, steps: 2 });
    expect(byId['deputy/account-form']).toMatchObject({ status: 'failed', agentClaimedSuccess: true, reason: 'No account details were saved.' });
    expect(byId['deputy/support-refund']).toMatchObject({ status: 'timeout', reason: "No end within 40 s (from its browser's start): the task was stopped." });
    // The model never answered: the time it was waited for is the model's, not Deputy's.
    expect(byId['deputy/support-refund']?.modelMs).toBeGreaterThan(0);
    expect(byId['deputy/catalogue-search']).toMatchObject({ status: 'error', reason: 'The browser closed in the middle of the task (killed by SIGKILL).' });
    expect(report.totals).toMatchObject({ tasks: 4, solved: 1, failed: 1, timeout: 1, error: 1, successRate: 0.25 });
    const solved = byId['deputy/shop-cheapest-headphones'];
    expect(solved?.modelMs).not.toBeNull();
    expect(solved?.deputyMs).toBe((solved?.wallMs ?? 0) - (solved?.modelMs ?? 0));
    expect(byId['deputy/catalogue-search']?.modelMs).toBeNull();

    // The files: a report.json that parses as the schema, the same as returned; an HTML report with its chart.
    const json = EvalReport.parse(JSON.parse(await readFile(first(), 'utf8')));
    expect(json).toEqual(report);
    expect(json.settings).toMatchObject({ seed: 'e2e', parallel: 2, timeoutMs: 40_000, suites: ['deputy'] });
    expect(json.tasks.map((task) => task.seed)).toEqual(json.tasks.map((task) => `e2e/${task.id}`));
    expect(await readFile(join(e2e.work, 'run', 'report.html'), 'utf8')).toBe(html);
    expect(html).toContain('<svg class="chart" data-chart="run-0"');
    expect(html).not.toMatch(/<script|src="http|href="http/);
    expect(output).toMatch(/^total\s+1\/4 solved/m);
    expect(output).toContain('gpt-4o-mini: 25% solved (1 solved, 1 failed, 1 timed out, 1 errors)');
  }, 240_000);

  it('--rerun-failures runs only the tasks the report did not count as solved, with their seeds, and --compare puts both runs side by side', async () => {
    serve((r) => SOLUTIONS[taskOf(r)]?.(r) ?? { hang: true });
    const second = join(e2e.work, 'rerun');
    const rerun = await npmEval(['--rerun-failures', first(), '--base-url', modelUrl(), '--model', 'gpt-4o-mini', '--parallel', '2', '--timeout', '90', '--out', second, '--label', 'rerun']);
    expect(rerun.code, `${rerun.stdout}\n${rerun.stderr}`).toBe(0);
    const report = EvalReport.parse(JSON.parse(await readFile(join(second, 'report.json'), 'utf8')));
    expect(report.tasks.map((task) => task.id).sort()).toEqual(['deputy/account-form', 'deputy/catalogue-search', 'deputy/support-refund']);
    expect(report.tasks.map((task) => task.status)).toEqual(['solved', 'solved', 'solved']);
    expect(report.tasks.every((task) => task.seed === `e2e/${task.id}`)).toBe(true);
    expect(report.rerunOf).toBe(first());
    expect(rerun.stdout).toContain(`Running again the 3 task(s) ${first()} did not count as solved.`);

    const compare = await npmEval(['--compare', first(), join(second, 'report.json'), '--out', join(e2e.work, 'compare')]);
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout).toMatch(/^gpt-4o-mini\s+1\/4 \(25%\)/m);
    expect(compare.stdout).toMatch(/^rerun\s+3\/3 \(100%\)/m);
    const html = await readFile(join(e2e.work, 'compare', 'compare.html'), 'utf8');
    for (const chart of ['compare', 'run-0', 'run-1']) expect(html).toContain(`data-chart="${chart}"`);
  }, 240_000);

  it('--as-routines: each task runs live once, is saved as a routine and replayed in a fresh browser with no model call', async () => {
    serve((r) => SOLUTIONS[taskOf(r)]?.(r) ?? { hang: true });
    const before = e2e.fake.requests.length;
    const lines: string[] = [];
    const { report } = await runEval(options({ tasks: ['deputy/shop-cheapest-headphones', 'deputy/account-form'], asRoutines: true, outDir: join(e2e.work, 'routines') }), (line) => lines.push(line));
    const output = lines.join('\n');
    const asked = e2e.fake.requests.length - before;
    for (const task of report.tasks) {
      expect(task, output).toMatchObject({ status: 'solved', routine: { replay: { status: 'solved', modelCalls: 0, repairs: 0 } } });
      expect(task.routine?.file).toMatch(/\.routine\.json$/);
      expect(task.routine?.replay?.stepsDone).toBeGreaterThan(0);
      expect(task.routine?.replay?.costUsd ?? 0).toBe(0);
    }
    // The model was asked only by the live runs: one request a step.
    expect(asked).toBe(report.tasks.reduce((sum, task) => sum + task.steps, 0));
    expect(EvalReport.parse(JSON.parse(await readFile(join(e2e.work, 'routines', 'report.json'), 'utf8')))).toEqual(report);
    expect(output).toContain('As routines (each task saved after its live run, then replayed in a fresh browser):');
    expect(output).toContain('2 replay(s) solved with no model call, 0 solved with repairs, 0 not solved; 0 task(s) not replayed');
  }, 180_000);
});

const missing = miniwobMissing();

describe.skipIf(missing !== null)(`npm run eval on MiniWoB++${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it("seeds each episode, and judges by the page's own reward: a right answer solves, a wrong one claimed as done fails", async () => {
    serve((r) => {
      if (r.text.includes('enter-date.html')) return MINIWOB_MODELS['enter-date']?.(lastMessage(r), r, doneSoFar(r)) ?? { hang: true };
      return playSteps([
        (q) => call('type', { ref: refIn(q, 'time', /.*/), text: '11:11 PM' }),
        (q) => call('click', { ref: refIn(q, 'button', /^Submit$/) }),
        () => call('done', { success: true, summary: 'Entered the time.' }),
      ])(r);
    });
    const { report } = await runEval(options({ suites: ['miniwob'], tasks: ['enter-date', 'miniwob/enter-time'], seed: 'wob', outDir: join(e2e.work, 'miniwob') }), () => undefined);
    const byId = Object.fromEntries(report.tasks.map((task) => [task.id, task]));
    expect(byId['miniwob/enter-date']).toMatchObject({ status: 'solved', score: 1, seed: 'wob/miniwob/enter-date' });
    expect(byId['miniwob/enter-time']).toMatchObject({ status: 'failed', agentClaimedSuccess: true });
    expect(byId['miniwob/enter-time']?.reason).toMatch(/^The page's raw reward is -?\d/);
    expect(byId['miniwob/enter-time']?.score).toBeLessThan(1);
  });
});
