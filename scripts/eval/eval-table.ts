import type { EvalReport, EvalTaskResult, EvalTotals } from './eval-report';

/** 12.3 s, 850 ms; "-" when unknown. */
export function seconds(ms: number | null): string {
  if (ms === null) return '-';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function dollars(usd: number | null): string {
  if (usd === null) return '?';
  return usd < 0.01 && usd > 0 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function tokens(count: number | null): string {
  if (count === null) return '-';
  return count >= 10_000 ? `${(count / 1000).toFixed(1)}k` : String(count);
}

export function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

/** The line printed as each task ends. */
export function formatTaskLine(result: EvalTaskResult, done: number, total: number): string {
  return `[${done}/${total}] ${result.status.toUpperCase().padEnd(7)} ${result.id}  ${result.steps} steps, ${seconds(result.wallMs)}: ${result.reason}`;
}

const HEAD = ['task', 'result', 'steps', 'input', 'output', 'cached', 'cost', 'wall', 'deputy'];

function row(name: string, result: string, values: { steps: number; inputTokens: number; outputTokens: number; cachedTokens: number | null; costUsd: number | null; wallMs: number; deputyMs: number | null }): string[] {
  return [name, result, String(values.steps), tokens(values.inputTokens), tokens(values.outputTokens), tokens(values.cachedTokens), dollars(values.costUsd), seconds(values.wallMs), seconds(values.deputyMs)];
}

function totalsRow(totals: EvalTotals): string[] {
  return row('total', `${totals.solved}/${totals.tasks} solved`, totals);
}

/** Text columns left-aligned (the first two), figures right-aligned. */
function align(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? '').length)));
  return rows.map((cells) => cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd());
}

/** A rule under the heading and above the totals. */
function withRules(lines: string[]): string[] {
  const rule = '-'.repeat(Math.max(...lines.map((line) => line.length)));
  return [lines[0] ?? '', rule, ...lines.slice(1, -1), rule, lines.at(-1) ?? ''];
}

/** The terminal table: one row per task, then the totals and the run's figures. */
export function formatTable(report: EvalReport): string[] {
  const rows = [HEAD, ...report.tasks.map((task) => row(task.id, task.status, task)), totalsRow(report.totals)];
  const t = report.totals;
  return [
    '',
    ...withRules(align(rows)),
    '',
    `${report.label}: ${percent(t.successRate)} solved (${t.solved} solved, ${t.failed} failed, ${t.timeout} timed out, ${t.error} errors); cost ${dollars(t.costUsd)}; ` +
      `Deputy's own time per step (median) ${seconds(t.medianDeputyMsPerStep)}; the run took ${seconds(report.elapsedMs)}.`,
    ...(Object.keys(report.bySuite).length > 1
      ? Object.entries(report.bySuite).map(([suite, totals]) => `  ${suite}: ${totals.solved}/${totals.tasks} solved (${percent(totals.successRate)}), cost ${dollars(totals.costUsd)}`)
      : []),
    "wall: the task's time from start to end; deputy: wall time minus the time waiting for the model.",
    ...formatRoutines(report),
  ];
}

/** With --as-routines: each task's replay beside its live run, and how many replays needed no model at all. */
export function formatRoutines(report: EvalReport): string[] {
  const tasks = report.tasks.filter((task) => task.routine !== undefined);
  if (tasks.length === 0) return [];
  const head = ['task', 'live', 'replay', 'model calls', 'repaired', 'cost live', 'cost replay', 'wall live', 'wall replay'];
  const rows = tasks.map((task) => {
    const replay = task.routine?.replay;
    return replay
      ? [task.id, task.status, replay.status, String(replay.modelCalls), String(replay.repairs), dollars(task.costUsd), dollars(replay.costUsd), seconds(task.wallMs), seconds(replay.wallMs)]
      : [task.id, task.status, 'not run', '-', '-', dollars(task.costUsd), '-', seconds(task.wallMs), '-'];
  });
  const replays = tasks.flatMap((task) => (task.routine?.replay ? [task.routine.replay] : []));
  const solved = replays.filter((replay) => replay.status === 'solved');
  const sum = (values: (number | null)[]): number | null => (values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0));
  const liveCost = sum(tasks.filter((task) => task.routine?.replay).map((task) => task.costUsd));
  const replayCost = sum(replays.map((replay) => replay.costUsd));
  return [
    '',
    'As routines (each task saved after its live run, then replayed in a fresh browser):',
    ...align([head, ...rows]),
    `${solved.filter((r) => r.modelCalls === 0).length} replay(s) solved with no model call, ${solved.filter((r) => r.modelCalls > 0).length} solved with repairs, ${replays.length - solved.length} not solved; ${tasks.length - replays.length} task(s) not replayed` +
      ` (${tasks.filter((task) => !task.routine?.replay).map((task) => `${task.id}: ${task.routine?.note ?? ''}`).join('; ') || 'none'}).`,
    `cost of the replayed tasks: live ${dollars(liveCost)}, replay ${dollars(replayCost)}${liveCost !== null && replayCost !== null && liveCost > 0 ? ` (${(replayCost / liveCost).toFixed(3)} of live)` : ''}.`,
  ];
}

/** Runs side by side: one row per run with its totals. */
export function formatComparison(reports: readonly EvalReport[]): string[] {
  const head = ['run', 'solved', 'steps', 'input', 'output', 'cached', 'cost', 'wall', 'deputy'];
  const rows = [head, ...reports.map((report) => row(report.label, `${report.totals.solved}/${report.totals.tasks} (${percent(report.totals.successRate)})`, report.totals))];
  return align(rows);
}
