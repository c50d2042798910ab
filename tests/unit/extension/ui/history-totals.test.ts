import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/protocol';
import { historyTotals, totalText } from '../../../../extension/ui/history-totals';
import { formatTaskCost, stepTokens, usageText } from '../../../../extension/ui/task-format';
import { runsOnThisMachine } from '../../../../shared/agent/providers/create-provider';
import { taskRecord } from './task-record-fixture';

function task(id: string, site: string, at: Date, usage: { inputTokens: number; outputTokens: number; costUsd: number | null } | null): TaskRecord {
  const base = taskRecord({ id, site, createdAt: at.getTime() });
  return { ...base, agent: usage && base.agent ? { ...base.agent, usage } : null };
}

describe('History totals per day and per site', () => {
  // Local times, so each day is the user's calendar day whatever the machine's time zone.
  const mon = (h: number) => new Date(2026, 10, 23, h);
  const tue = (h: number) => new Date(2026, 10, 24, h);
  const records = [
    task('a', 'shop.test', mon(9), { inputTokens: 10_000, outputTokens: 500, costUsd: 0.012 }),
    task('b', 'bank.test', mon(23), { inputTokens: 4000, outputTokens: 100, costUsd: 0.5 }),
    task('c', 'shop.test', tue(0), { inputTokens: 20_000, outputTokens: 2000, costUsd: 0 }),
    task('d', 'docs.test', tue(12), { inputTokens: 3000, outputTokens: 0, costUsd: null }),
    task('e', 'docs.test', tue(13), null),
  ];

  it('adds dollars where priced and keeps tokens of local and unpriced models apart, newest day first', () => {
    const { days, sites } = historyTotals(records);
    expect(days.map((d) => [d.key, d.tasks, Math.round(d.costUsd * 1000) / 1000, d.localTokens, d.unknownTokens])).toEqual([
      ['2026-11-24', 3, 0, 22_000, 3000],
      ['2026-11-23', 2, 0.512, 0, 0],
    ]);
    expect(days.map(totalText)).toEqual(['22k tokens on a local model · 3.0k tokens, price unknown · 3 tasks', '$0.51 · 2 tasks']);
    expect(sites.map((s) => [s.label, totalText(s)])).toEqual([
      ['bank.test', '$0.50 · 1 task'],
      ['shop.test', '$0.01 · 22k tokens on a local model · 2 tasks'],
      ['docs.test', '3.0k tokens, price unknown · 2 tasks'],
    ]);
  });

  it('shows no dollar figure anywhere for a task on a local model', () => {
    const local = records[2]!;
    expect(formatTaskCost(local)).toBe('22k tokens');
    expect(usageText(local)).toBe('20k in · 2.0k out');
    expect(stepTokens({ index: 0, startedAt: 0, observation: null, notices: [], reply: null, calls: [], usage: { inputTokens: 1500, outputTokens: 20 }, costUsd: 0 } as never)).toBe('1.5k in · 20 out');
    expect(totalText(historyTotals([local]).days[0]!)).not.toContain('$');
    // A priced task keeps its dollars.
    expect(usageText(records[1]!)).toBe('4.0k in · 100 out · $0.50');
  });

  it('counts a model server named localhost as local, and any other (an IP, a tunnel, a remote one) as priced', () => {
    for (const url of ['http://localhost:11434/v1', 'http://LOCALHOST:1234/v1', 'http://ollama.localhost:8000/v1']) expect(runsOnThisMachine(url)).toBe(true);
    for (const url of ['https://api.openai.com/v1', 'http://models.test:8080/v1', 'http://127.0.0.1:8080/v1', 'https://openrouter.ai/api/v1', undefined, 'not a url']) expect(runsOnThisMachine(url)).toBe(false);
  });
});
