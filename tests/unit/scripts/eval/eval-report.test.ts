import { describe, expect, it } from 'vitest';
import { evalHtml } from '../../../../scripts/eval/eval-html';
import { type EvalReport, type EvalTaskResult, failuresOf, parseReport, totalsBySuite, totalsOf } from '../../../../scripts/eval/eval-report';
import { type EvalTask, seededOrder } from '../../../../scripts/eval/eval-suite';
import { formatComparison, formatTable } from '../../../../scripts/eval/eval-table';
import { traceFigures } from '../../../../scripts/eval/run-eval-task';
import { selectTasks } from '../../../../scripts/eval/run-eval';

function result(id: string, fields: Partial<EvalTaskResult> = {}): EvalTaskResult {
  return {
    id,
    suite: id.split('/')[0] ?? '',
    seed: `s/${id}`,
    status: 'solved',
    reason: 'ok',
    agentClaimedSuccess: true,
    score: null,
    steps: 4,
    inputTokens: 1000,
    outputTokens: 100,
    cachedTokens: null,
    costUsd: 0.01,
    wallMs: 8000,
    modelMs: 6000,
    deputyMs: 2000,
    runDir: null,
    ...fields,
  };
}

function report(label: string, tasks: EvalTaskResult[]): EvalReport {
  return {
    schema: 'deputy-eval/1',
    label,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    elapsedMs: 60_000,
    model: { provider: 'openai', model: label, baseUrl: null },
    settings: { suites: ['deputy'], tasks: null, seed: 's', parallel: 2, timeoutMs: 300_000, mode: 'act', approve: 'all', stepBudget: null, screenshots: false },
    rerunOf: null,
    tasks,
    totals: totalsOf(tasks),
    bySuite: totalsBySuite(tasks),
  };
}

const task = (id: string): EvalTask => ({ id, suite: id.split('/')[0] ?? '', text: '', flow: 'task', judge: () => Promise.resolve({ solved: true, reason: '' }) });

describe('eval totals', () => {
  it('counts verdicts, adds tokens, and leaves a total unknown when a part of it is', () => {
    const totals = totalsOf([
      result('deputy/a'),
      result('deputy/b', { status: 'failed', cachedTokens: 300, steps: 2, deputyMs: 1000 }),
      result('deputy/c', { status: 'timeout', costUsd: null }),
      result('deputy/d', { status: 'error', steps: 0, modelMs: null, deputyMs: null }),
    ]);
    expect(totals).toMatchObject({ tasks: 4, solved: 1, failed: 1, timeout: 1, error: 1, successRate: 0.25, steps: 10, inputTokens: 4000, cachedTokens: 300, costUsd: null, deputyMs: null });
    // Deputy's time per step: 500, 500, 500 (the error task has none): the median is 500 ms.
    expect(totals.medianDeputyMsPerStep).toBe(500);
    expect(totalsOf([result('deputy/a')]).cachedTokens).toBeNull();
  });

  it('keeps each suite apart too', () => {
    const bySuite = totalsBySuite([result('deputy/a'), result('miniwob/b', { status: 'failed' }), result('miniwob/c')]);
    expect(Object.keys(bySuite)).toEqual(['deputy', 'miniwob']);
    expect(bySuite.miniwob).toMatchObject({ tasks: 2, solved: 1, successRate: 0.5 });
    const mixed = report('m', [result('deputy/a'), result('miniwob/b', { status: 'failed' })]);
    expect(formatTable(mixed)).toContain('  miniwob: 0/1 solved (0%), cost $0.01');
    expect(evalHtml([mixed])).toContain('<strong>miniwob</strong>: 0/1 solved (0%), cost $0.01');
  });
});

describe('reading a report back', () => {
  it('takes a report it wrote, and says what is wrong with anything else', () => {
    const written = report('gpt-4o-mini', [result('deputy/a'), result('deputy/b', { status: 'failed' })]);
    expect(parseReport(JSON.stringify(written), 'a.json')).toEqual(written);
    expect(() => parseReport('{', 'a.json')).toThrow(/^a\.json is not JSON/);
    expect(() => parseReport(JSON.stringify({ ...written, schema: 'other' }), 'a.json')).toThrow(/^a\.json is not a Deputy eval report \(schema: /);
    expect(() => parseReport(JSON.stringify({ ...written, tasks: [{ id: 'x' }] }), 'b.json')).toThrow(/^b\.json is not a Deputy eval report \(tasks\.0\.suite/);
  });

  it('--rerun-failures picks only the tasks not solved, with the seeds they had', () => {
    const previous = report('m', [result('deputy/a'), result('deputy/b', { status: 'failed', seed: 'old/b' }), result('miniwob/c', { status: 'timeout', seed: 'old/c' }), result('deputy/gone', { status: 'error' })]);
    expect(failuresOf(previous).map((t) => t.id)).toEqual(['deputy/b', 'miniwob/c', 'deputy/gone']);
    const chosen = selectTasks([task('deputy/a'), task('deputy/b'), task('miniwob/c')], { tasks: null, seed: 'new', rerun: { path: 'p.json', report: previous } });
    expect(chosen.map(({ task: t, seed }) => [t.id, seed])).toEqual([['deputy/b', 'old/b'], ['miniwob/c', 'old/c']]);
  });
});

describe('choosing tasks', () => {
  const all = ['miniwob/click-button', 'miniwob/click-dialog', 'miniwob/enter-date', 'deputy/account-form'].map(task);

  it('filters by id or name with globs, in an order the seed fixes, each with a seed of its own', () => {
    const chosen = selectTasks(all, { tasks: ['click-*', 'deputy/*'], seed: '7', rerun: null });
    expect(chosen.map((c) => c.task.id).sort()).toEqual(['deputy/account-form', 'miniwob/click-button', 'miniwob/click-dialog']);
    expect(chosen.map((c) => c.seed)).toEqual(chosen.map((c) => `7/${c.task.id}`));
    expect(selectTasks(all, { tasks: null, seed: '7', rerun: null }).map((c) => c.task.id)).toEqual(selectTasks(all, { tasks: null, seed: '7', rerun: null }).map((c) => c.task.id));
  });

  it('shuffles the same way for the same seed, and differently for others', () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    expect(seededOrder(items, 'a')).toEqual(seededOrder(items, 'a'));
    expect(seededOrder(items, 'a')).not.toEqual(seededOrder(items, 'b'));
    expect([...seededOrder(items, 'a')].sort((x, y) => x - y)).toEqual(items);
  });
});

describe('model time from the trace', () => {
  it("adds the replies' times and a prompt left unanswered at the end, and the cached tokens when reported", () => {
    const lines = [
      { type: 'prompt', at: 1000, step: 0 },
      { type: 'reply', at: 3000, step: 0, durationMs: 2000, cachedInputTokens: 0 },
      { type: 'prompt', at: 3500, step: 1 },
      { type: 'reply', at: 4500, step: 1, durationMs: 1000, cachedInputTokens: 800 },
      { type: 'prompt', at: 5000, step: 2 },
      { type: 'end', at: 9000 },
    ];
    expect(traceFigures(lines.map((line) => JSON.stringify(line)).join('\n'))).toEqual({ modelMs: 7000, cachedTokens: 800 });
    expect(traceFigures('{"type":"reply","at":1,"durationMs":5}\n')).toEqual({ modelMs: 5, cachedTokens: null });
  });
});

describe('report formats', () => {
  const a = report('gpt-4o-mini', [result('deputy/a'), result('deputy/<b>', { status: 'failed', reason: 'Saved <nothing> & "more"' })]);
  const b = report('claude-haiku-4-5', [result('deputy/a', { costUsd: null })]);

  it('prints a table per task with the totals and what the columns mean', () => {
    const lines = formatTable(a);
    expect(lines[1]).toMatch(/^task\s+result\s+steps\s+input\s+output\s+cached\s+cost\s+wall\s+deputy$/);
    expect(lines.find((line) => line.startsWith('deputy/a'))).toMatch(/solved\s+4\s+1000\s+100\s+-\s+\$0\.01\s+8\.0 s\s+2\.0 s$/);
    expect(lines.find((line) => line.startsWith('total'))).toMatch(/^total\s+1\/2 solved\s+8\s+2000\s+200\s+-\s+\$0\.02\s+16\.0 s\s+4\.0 s$/);
    expect(lines).toContain("gpt-4o-mini: 50% solved (1 solved, 1 failed, 0 timed out, 0 errors); cost $0.02; Deputy's own time per step (median) 500 ms; the run took 60.0 s.");
    expect(formatComparison([a, b])).toEqual([expect.stringMatching(/^run\s+solved/), expect.stringMatching(/^gpt-4o-mini\s+1\/2 \(50%\)/), expect.stringMatching(/^claude-haiku-4-5\s+1\/1 \(100%\)\s+4\s+1000\s+100\s+-\s+\?/)]);
  });

  it('writes a self-contained HTML report with a chart per run, the runs side by side, and page text escaped', () => {
    const one = evalHtml([a]);
    expect(one).toContain('data-chart="run-0"');
    expect(one).not.toContain('data-chart="compare"');
    expect(one).not.toMatch(/<script|<link|src=/);
    expect(one).toContain('Saved &lt;nothing&gt; &amp; &quot;more&quot;');
    expect(one).not.toContain('<b>');
    const both = evalHtml([a, b]);
    for (const chart of ['compare', 'run-0', 'run-1']) expect(both).toContain(`data-chart="${chart}"`);
    expect(both).toContain('<title>Deputy eval: gpt-4o-mini vs claude-haiku-4-5</title>');
    // The runs ran different tasks: the report says so, and shows each task in each run.
    expect(both).toContain('These runs did not run the same tasks');
    expect(both).toMatch(/<td>deputy\/&lt;b&gt;<\/td><td><span class="status"[^>]*>failed<\/span> 4 steps, 8\.0 s<\/td><td>not run<\/td>/);
    expect(evalHtml([a, a])).not.toContain('These runs did not run the same tasks');
  });
});
