import type { EvalReport, EvalStatus } from './eval-report';
import { dollars, percent, seconds, tokens } from './eval-table';

const COLOURS: Record<EvalStatus, string> = { solved: '#15803d', failed: '#b91c1c', timeout: '#b45309', error: '#6b21a8' };

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

/**
 * One run's chart: a bar per task, as long as its wall time, split into Deputy's own time and the time waiting for
 * the model, with the suite's verdict as the colour of its mark.
 */
function runChart(report: EvalReport, index: number): string {
  const rowHeight = 22;
  const labelWidth = 260;
  const barWidth = 420;
  const longest = Math.max(1, ...report.tasks.map((task) => task.wallMs));
  const rows = report.tasks.map((task, row) => {
    const y = 30 + row * rowHeight;
    const wall = (task.wallMs / longest) * barWidth;
    const own = task.deputyMs === null ? wall : (task.deputyMs / longest) * barWidth;
    return [
      `<circle cx="8" cy="${y + 7}" r="5" fill="${COLOURS[task.status]}"><title>${escape(task.status)}: ${escape(task.reason)}</title></circle>`,
      `<text x="20" y="${y + 11}" font-size="12">${escape(task.id.length > 36 ? `${task.id.slice(0, 35)}…` : task.id)}</text>`,
      `<rect x="${labelWidth}" y="${y}" width="${own.toFixed(1)}" height="14" fill="#2563eb"><title>Deputy: ${seconds(task.deputyMs)}</title></rect>`,
      `<rect x="${(labelWidth + own).toFixed(1)}" y="${y}" width="${Math.max(0, wall - own).toFixed(1)}" height="14" fill="#93c5fd"><title>Model: ${seconds(task.modelMs)}</title></rect>`,
      `<text x="${(labelWidth + wall + 6).toFixed(1)}" y="${y + 11}" font-size="11" fill="#374151">${seconds(task.wallMs)} · ${task.steps} steps</text>`,
    ].join('');
  });
  const height = 40 + report.tasks.length * rowHeight + 24;
  const legendY = height - 14;
  return `<svg class="chart" data-chart="run-${index}" role="img" aria-label="${escape(report.label)}: time per task" viewBox="0 0 ${labelWidth + barWidth + 140} ${height}" width="100%">
<text x="0" y="16" font-size="14" font-weight="600">${escape(report.label)}: ${report.totals.solved}/${report.totals.tasks} solved (${percent(report.totals.successRate)})</text>
${rows.join('\n')}
<rect x="0" y="${legendY - 9}" width="10" height="10" fill="#2563eb"/><text x="14" y="${legendY}" font-size="11">Deputy's own time</text>
<rect x="130" y="${legendY - 9}" width="10" height="10" fill="#93c5fd"/><text x="144" y="${legendY}" font-size="11">waiting for the model</text>
${(Object.keys(COLOURS) as EvalStatus[]).map((status, i) => `<circle cx="${300 + i * 80}" cy="${legendY - 4}" r="5" fill="${COLOURS[status]}"/><text x="${308 + i * 80}" y="${legendY}" font-size="11">${status}</text>`).join('')}
</svg>`;
}

/** Runs side by side: the share solved per run, with cost and median Deputy time per step beside each bar. */
function comparisonChart(reports: readonly EvalReport[]): string {
  const rowHeight = 26;
  const barWidth = 360;
  const rows = reports.map((report, row) => {
    const y = 10 + row * rowHeight;
    const t = report.totals;
    return `<text x="0" y="${y + 13}" font-size="12">${escape(report.label)}</text><rect x="200" y="${y}" width="${barWidth}" height="16" fill="#e5e7eb"/><rect x="200" y="${y}" width="${(t.successRate * barWidth).toFixed(1)}" height="16" fill="#15803d"/><text x="${200 + barWidth + 8}" y="${y + 13}" font-size="11">${percent(t.successRate)} · ${dollars(t.costUsd)} · ${seconds(t.medianDeputyMsPerStep)}/step</text>`;
  });
  return `<svg class="chart" data-chart="compare" role="img" aria-label="Share of tasks solved per run" viewBox="0 0 760 ${20 + reports.length * rowHeight}" width="100%">${rows.join('')}</svg>`;
}

/** Each task's verdict in each run, and a warning when the runs did not run the same tasks. */
function perTaskComparison(reports: readonly EvalReport[]): string {
  const ids = [...new Set(reports.flatMap((report) => report.tasks.map((task) => task.id)))];
  const same = reports.every((report) => report.tasks.length === ids.length);
  const cell = (report: EvalReport, id: string): string => {
    const task = report.tasks.find((candidate) => candidate.id === id);
    return task ? `<span class="status" style="background:${COLOURS[task.status]}" title="${escape(task.reason)}">${task.status}</span> ${task.steps} steps, ${seconds(task.wallMs)}` : 'not run';
  };
  return `${same ? '' : '<p class="warning">These runs did not run the same tasks: their totals compare different work. The table below shows each task where it ran.</p>'}
<table><thead><tr><th>Task</th>${reports.map((report) => `<th>${escape(report.label)}</th>`).join('')}</tr></thead>
<tbody>${ids.map((id) => `<tr><td>${escape(id)}</td>${reports.map((report) => `<td>${cell(report, id)}</td>`).join('')}</tr>`).join('\n')}</tbody></table>`;
}

function taskTable(report: EvalReport): string {
  const rows = report.tasks.map(
    (task) =>
      `<tr><td>${escape(task.id)}</td><td><span class="status" style="background:${COLOURS[task.status]}">${task.status}</span></td><td>${escape(task.reason)}</td><td>${task.agentClaimedSuccess === null ? '-' : task.agentClaimedSuccess ? 'yes' : 'no'}</td><td>${task.steps}</td><td>${tokens(task.inputTokens)}</td><td>${tokens(task.outputTokens)}</td><td>${tokens(task.cachedTokens)}</td><td>${dollars(task.costUsd)}</td><td>${seconds(task.wallMs)}</td><td>${seconds(task.deputyMs)}</td></tr>`,
  );
  const t = report.totals;
  return `<table><thead><tr><th>Task</th><th>Result</th><th>Why</th><th>Agent claimed success</th><th>Steps</th><th>Input</th><th>Output</th><th>Cached</th><th>Cost</th><th>Wall</th><th>Deputy</th></tr></thead>
<tbody>${rows.join('\n')}</tbody>
<tfoot><tr><td>Total</td><td>${t.solved}/${t.tasks}</td><td>${t.failed} failed, ${t.timeout} timed out, ${t.error} errors</td><td></td><td>${t.steps}</td><td>${tokens(t.inputTokens)}</td><td>${tokens(t.outputTokens)}</td><td>${tokens(t.cachedTokens)}</td><td>${dollars(t.costUsd)}</td><td>${seconds(t.wallMs)}</td><td>${seconds(t.deputyMs)}</td></tr></tfoot></table>`;
}

function runSection(report: EvalReport, index: number): string {
  const s = report.settings;
  return `<section><h2>${escape(report.label)}</h2>
<p class="meta">${escape(report.model.provider)} · ${escape(report.model.model)}${report.model.baseUrl ? ` at ${escape(report.model.baseUrl)}` : ''} · ${escape(report.startedAt)} · suites ${escape(s.suites.join(', '))} · seed ${escape(s.seed)} · ${s.parallel} in parallel · timeout ${seconds(s.timeoutMs)} · mode ${escape(s.mode)}, approvals ${escape(s.approve)}${s.screenshots ? ' · screenshots' : ''}${report.rerunOf ? ` · failures of ${escape(report.rerunOf)} run again` : ''} · the run took ${seconds(report.elapsedMs)}</p>
${
  Object.keys(report.bySuite).length > 1
    ? `<p>${Object.entries(report.bySuite)
        .map(([suite, t]) => `<strong>${escape(suite)}</strong>: ${t.solved}/${t.tasks} solved (${percent(t.successRate)}), cost ${dollars(t.costUsd)}`)
        .join(' · ')}</p>`
    : ''
}
${runChart(report, index)}
${taskTable(report)}
</section>`;
}

/**
 * The HTML report: self-contained (no script, no outside file), a chart per run (per model when runs are compared),
 * each run's tasks with the suite's verdict and the reason, and the runs side by side when there are several.
 */
export function evalHtml(reports: readonly EvalReport[]): string {
  const title = reports.length === 1 ? `Deputy eval: ${reports[0]?.label ?? ''}` : `Deputy eval: ${reports.map((report) => report.label).join(' vs ')}`;
  const compare =
    reports.length > 1
      ? `<section><h2>Side by side</h2>${comparisonChart(reports)}<table><thead><tr><th>Run</th><th>Solved</th><th>Steps</th><th>Input</th><th>Output</th><th>Cached</th><th>Cost</th><th>Deputy per step (median)</th></tr></thead><tbody>${reports
          .map((report) => {
            const t = report.totals;
            return `<tr><td>${escape(report.label)}</td><td>${t.solved}/${t.tasks} (${percent(t.successRate)})</td><td>${t.steps}</td><td>${tokens(t.inputTokens)}</td><td>${tokens(t.outputTokens)}</td><td>${tokens(t.cachedTokens)}</td><td>${dollars(t.costUsd)}</td><td>${seconds(t.medianDeputyMsPerStep)}</td></tr>`;
          })
          .join('')}</tbody></table>${perTaskComparison(reports)}</section>`
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;color:#111827;margin:24px auto;max-width:1100px;padding:0 16px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px}.meta{color:#4b5563}
table{border-collapse:collapse;width:100%;margin:12px 0}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #e5e7eb;vertical-align:top}
td:nth-child(n+4){white-space:nowrap}tfoot td{font-weight:600}.status{color:#fff;border-radius:4px;padding:1px 6px;font-size:12px}
.chart{max-width:900px;display:block;margin:8px 0}.warning{background:#fef3c7;padding:6px 10px;border-radius:6px}
</style></head><body>
<h1>${escape(title)}</h1>
<p>Success is the suite's own judgement from the state each task left (MiniWoB++: the page's raw reward &ge; 1; Deputy's tasks: the shop's stored cart, account, wishlist or the support side of the chat), not the agent's claim. Wall: the task's time from start to end. Deputy: wall time minus the time waiting for the model's replies.</p>
${compare}
${reports.map(runSection).join('\n')}
</body></html>
`;
}
