import type { TaskRecord } from '../../shared/protocol';
import { formatCost, formatTokens } from './task-format';

/** What a set of tasks used: dollars where prices are known, and tokens where there is no dollar figure. */
export interface UsageTotal {
  key: string;
  /** The day ("Sat, 28 Nov 2026") or the site, as the row shows it. */
  label: string;
  tasks: number;
  /** Dollars of the tasks whose model has a price (above zero). */
  costUsd: number;
  /** Tokens of the tasks with no dollar figure: a local model (free) or a model whose price is unknown. */
  localTokens: number;
  unknownTokens: number;
}

function add(totals: Map<string, UsageTotal>, key: string, label: string, record: TaskRecord): void {
  const total = totals.get(key) ?? { key, label, tasks: 0, costUsd: 0, localTokens: 0, unknownTokens: 0 };
  total.tasks += 1;
  const usage = record.agent?.usage;
  if (usage) {
    const tokens = usage.inputTokens + usage.outputTokens;
    if (usage.costUsd === null) total.unknownTokens += tokens;
    else if (usage.costUsd === 0) total.localTokens += tokens;
    else total.costUsd += usage.costUsd;
  }
  totals.set(key, total);
}

/** The local calendar day of a moment, as a sortable key. */
function dayKey(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * The tasks' totals per day (newest day first, in the user's time zone) and per site (costliest first, then by
 * tokens), each over the tasks given: the History view passes the ones its search shows.
 */
export function historyTotals(records: readonly TaskRecord[]): { days: UsageTotal[]; sites: UsageTotal[] } {
  const days = new Map<string, UsageTotal>();
  const sites = new Map<string, UsageTotal>();
  for (const record of records) {
    add(days, dayKey(record.createdAt), new Date(record.createdAt).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }), record);
    add(sites, record.site, record.site, record);
  }
  const tokens = (t: UsageTotal): number => t.localTokens + t.unknownTokens;
  return {
    days: [...days.values()].sort((a, b) => b.key.localeCompare(a.key)),
    sites: [...sites.values()].sort((a, b) => b.costUsd - a.costUsd || tokens(b) - tokens(a) || a.key.localeCompare(b.key)),
  };
}

/**
 * A total in words: "$0.42 · 3 tasks", with the tokens that have no dollar figure beside it ("12k tokens on a local
 * model", "8k tokens, price unknown"); a day on local models only shows no dollars at all.
 */
export function totalText(total: UsageTotal): string {
  const parts: string[] = [];
  if (total.costUsd > 0) parts.push(formatCost(total.costUsd));
  if (total.localTokens > 0) parts.push(`${formatTokens(total.localTokens)} tokens on a local model`);
  if (total.unknownTokens > 0) parts.push(`${formatTokens(total.unknownTokens)} tokens, price unknown`);
  if (parts.length === 0) parts.push('no model calls');
  parts.push(`${total.tasks} ${total.tasks === 1 ? 'task' : 'tasks'}`);
  return parts.join(' · ');
}
