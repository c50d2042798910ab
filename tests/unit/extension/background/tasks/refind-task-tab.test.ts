import { describe, expect, it } from 'vitest';
import type { AgentState, CallRecord, StepRecord } from '../../../../../shared/agent/agent-state';
import { pickTaskTab, refindTaskTab, RELOADED_MESSAGE, restartNote, skipCallsOnLostInput, taskPageUrl, type OpenTab } from '../../../../../extension/background/tasks/refind-task-tab';
import type { TaskRecord } from '../../../../../shared/protocol';

const FORM = 'https://shop.example/checkout';

describe('picking the tab a task continues in after a browser restart', () => {
  const tabs: OpenTab[] = [
    { id: 1, url: 'https://news.example/' },
    { id: 2, url: `${FORM}#shipping` },
    { id: 3, url: FORM },
    { id: 4, url: FORM },
  ];

  it('takes a tab on the same address, the one the task had when it still shows the page', () => {
    expect(pickTaskTab(tabs, { url: FORM, owned: new Set() })).toEqual({ tabId: 3, how: 'found' });
    expect(pickTaskTab(tabs, { url: FORM, previousTabId: 4, owned: new Set() })).toEqual({ tabId: 4, how: 'same' });
    // A tab id of the old session that now shows another page is not the task's tab.
    expect(pickTaskTab(tabs, { url: FORM, previousTabId: 1, owned: new Set() })).toEqual({ tabId: 3, how: 'found' });
  });

  it('prefers the exact address, then accepts one that differs only after #', () => {
    expect(pickTaskTab(tabs, { url: `${FORM}#shipping`, owned: new Set() })).toEqual({ tabId: 2, how: 'found' });
    expect(pickTaskTab(tabs, { url: `${FORM}#payment`, owned: new Set([3, 4]) })).toEqual({ tabId: 2, how: 'found' });
  });

  it('never takes a tab another active task works in', () => {
    expect(pickTaskTab(tabs, { url: FORM, previousTabId: 3, owned: new Set([2, 3, 4]) })).toBeUndefined();
  });
});

describe('finding or reopening the page', () => {
  function browser(appearing: OpenTab[][]) {
    const opened: string[] = [];
    const slept: number[] = [];
    let call = 0;
    return {
      opened,
      slept,
      list: () => Promise.resolve(appearing[Math.min(call++, appearing.length - 1)] ?? []),
      open: (url: string) => {
        opened.push(url);
        return Promise.resolve({ id: 50, url });
      },
      sleep: (ms: number) => {
        slept.push(ms);
        return Promise.resolve();
      },
    };
  }

  it('waits while a restored session is still opening its tabs, then takes the page', async () => {
    const ports = browser([[], [], [{ id: 8, url: FORM }]]);
    await expect(refindTaskTab(ports, { url: FORM, owned: new Set(), graceMs: 2000 })).resolves.toEqual({ tabId: 8, how: 'found' });
    expect(ports.opened).toEqual([]);
  });

  it('reopens the page in a new tab when it does not show up', async () => {
    const ports = browser([[{ id: 8, url: 'https://news.example/' }]]);
    await expect(refindTaskTab(ports, { url: FORM, owned: new Set(), graceMs: 1000 })).resolves.toEqual({ tabId: 50, how: 'reopened' });
    expect(ports.opened).toEqual([FORM]);
    expect(ports.slept.reduce((a, b) => a + b, 0)).toBe(1000);
  });

  it('reopens rather than sharing a tab with another task', async () => {
    const ports = browser([[{ id: 8, url: FORM }]]);
    await expect(refindTaskTab(ports, { url: FORM, owned: new Set([8]), graceMs: 0 })).resolves.toEqual({ tabId: 50, how: 'reopened' });
  });
});

function call(name: string, status: CallRecord['status'], ok = true): CallRecord {
  return { id: `${name}-${status}`, name, arguments: '{}', status, classes: [], ...(status === 'finished' ? { result: { ok, content: '' } } : {}) };
}

function step(index: number, url: string, calls: CallRecord[]): StepRecord {
  return {
    index,
    startedAt: index,
    observation: { url, title: '', hash: '', chars: 0, text: '', elements: [] },
    notices: [],
    reply: { text: '', toolCalls: [] },
    calls,
    usage: null,
    costUsd: null,
  };
}

function agent(steps: StepRecord[]): AgentState {
  return {
    version: 1,
    taskId: 't',
    task: 'buy',
    startUrl: 'https://shop.example/',
    status: 'running',
    approvedOrigins: { sites: [], reach: [] },
    startedAt: 0,
    plan: null,
    approvedPlan: null,
    steps,
    outcome: null,
    endReason: null,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
    waitedMs: 0,
  };
}

describe('calls decided on a page the restart loaded again', () => {
  it('skips the waiting action when something was typed into the page before', () => {
    const state = agent([step(0, FORM, [call('type', 'finished')]), step(1, FORM, [call('click', 'awaiting_approval')])]);
    expect(skipCallsOnLostInput(state).map((c) => c.name)).toEqual(['click']);
    expect(state.steps[1]?.calls[0]).toMatchObject({ status: 'skipped', result: { ok: false, content: RELOADED_MESSAGE } });
  });

  it('counts input made earlier in the same reply too', () => {
    const state = agent([step(0, FORM, [call('select', 'finished'), call('click', 'proposed')])]);
    expect(skipCallsOnLostInput(state)).toHaveLength(1);
  });

  it('runs the action as decided when nothing was typed on this page since it was opened', () => {
    const typedElsewhere = agent([step(0, 'https://shop.example/cart', [call('type', 'finished')]), step(1, FORM, [call('click', 'awaiting_approval')])]);
    expect(skipCallsOnLostInput(typedElsewhere)).toEqual([]);
    const failedTyping = agent([step(0, FORM, [call('type', 'finished', false)]), step(1, FORM, [call('click', 'awaiting_approval')])]);
    expect(skipCallsOnLostInput(failedTyping)).toEqual([]);
    expect(failedTyping.steps[1]?.calls[0]?.status).toBe('awaiting_approval');
  });

  it('has nothing to skip when no call waits', () => {
    expect(skipCallsOnLostInput(agent([step(0, FORM, [call('type', 'finished')])]))).toEqual([]);
  });
});

describe('what the task tells the user and where it continues', () => {
  it('names the page and whether it was found or reopened, and any forgotten values', () => {
    expect(restartNote(FORM, 'found', 0)).toBe(`The browser restarted; Deputy found ${FORM} open in a tab and continued there.`);
    expect(restartNote(FORM, 'reopened', 2)).toMatch(/its tab was gone, so Deputy reopened .* in a new tab.*2 values Deputy had seen on pages.*forgotten for safety/);
  });

  it('continues on the page last seen, else the last step, else the start', () => {
    const base = { agent: agent([step(0, FORM, [])]) } as unknown as TaskRecord;
    expect(taskPageUrl({ ...base, pageUrl: 'https://shop.example/done' })).toBe('https://shop.example/done');
    expect(taskPageUrl(base)).toBe(FORM);
    expect(taskPageUrl({ ...base, agent: agent([]) })).toBe('https://shop.example/');
    expect(taskPageUrl({ ...base, agent: null })).toBeUndefined();
  });
});
