import type { TaskRecord } from '../../../../shared/protocol';

/** A finished-looking task record with one step of usage, for view-logic tests to vary. */
export function taskRecord(overrides: Partial<TaskRecord>): TaskRecord {
  return {
    id: 't1',
    tabId: 7,
    flow: 'task',
    text: 'Add the headphones to the cart',
    mode: 'act',
    site: 'shop.test',
    status: 'completed',
    createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    updatedAt: Date.UTC(2026, 0, 2, 3, 5, 10),
    agent: {
      version: 1,
      taskId: 't1',
      task: 'Add the headphones to the cart',
      startUrl: 'https://shop.test/',
      status: 'completed',
      startedAt: 0,
      plan: null,
      approvedPlan: null,
      approvedOrigins: { sites: [], reach: [] },
      steps: [],
      outcome: { success: true, summary: 'Added.' },
      endReason: null,
      usage: { inputTokens: 1200, outputTokens: 80, costUsd: 0.003 },
      waitedMs: 0,
    },
    approval: null,
    question: null,
    error: null,
    stopRequested: false,
    pauseRequested: false,
    facts: {},
    chat: null,
    ...overrides,
  };
}
