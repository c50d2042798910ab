import { describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import type { Provider, ProviderReply, ProviderRequest } from '../../../../shared/agent/providers/provider';
import type { WebAction } from '../../../../shared/agent/web-environment';
import type { TaskRecord } from '../../../../shared/protocol';
import type { ChatState } from '../../../../shared/protocol';
import { createChatCaseEnvironment } from '../../../../extension/background/chat-case-environment';
import type { ChatDriver } from '../../../../extension/background/chat-driver';
import { SettingsStore } from '../../../../extension/background/settings-store';
import type { TabEnvironment } from '../../../../extension/background/tab-environment';
import { TaskRunner } from '../../../../extension/background/task-runner';
import { TaskStore } from '../../../../extension/background/task-store';
import type { Store } from '../../../../extension/platform/storage';

/** chrome.storage stand-in: values are copied through JSON the way the real storage copies them. */
function memoryStore(): Store & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: <T>(key: string, schema: z.ZodType<T>) => {
      const raw = data.get(key);
      const parsed = schema.safeParse(raw === undefined ? undefined : JSON.parse(raw));
      return Promise.resolve(parsed.success ? parsed.data : undefined);
    },
    set: (key, value) => {
      data.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
    remove: (key) => {
      data.delete(key);
      return Promise.resolve();
    },
  };
}

function memorySecrets() {
  const saved = new Map<string, Record<string, string>>();
  return {
    saved,
    load: (taskId: string) => Promise.resolve(saved.get(taskId) ?? {}),
    save: (taskId: string, entries: Record<string, string>) => {
      saved.set(taskId, entries);
      return Promise.resolve();
    },
  };
}

type Turn = { name: string; args: Record<string, unknown> };

/** A model that plays a fixed list of tool calls, one per turn, and records what it was sent. */
function scriptedProvider(turns: Turn[]): Provider & { requests: ProviderRequest[] } {
  const requests: ProviderRequest[] = [];
  let index = 0;
  return {
    label: 'scripted',
    model: 'scripted-1',
    vision: false,
    free: true,
    requests,
    complete(request): Promise<ProviderReply> {
      requests.push(request);
      const turn = turns[index];
      index += 1;
      const toolCalls = turn ? [{ id: `call-${index}`, name: turn.name, arguments: JSON.stringify(turn.args) }] : [];
      return Promise.resolve({ text: '', toolCalls, usage: { inputTokens: 10, outputTokens: 5 }, model: 'scripted-1', stopReason: 'tool_use' });
    },
  };
}

/** A one-page shop: a quantity box and two buttons. */
function fakeTab(): TabEnvironment & { actions: WebAction[] } {
  const actions: WebAction[] = [];
  let count = 0;
  return {
    actions,
    currentTabId: () => 5,
    observe: () =>
      Promise.resolve({
        url: 'https://shop.example/cart',
        title: 'Cart',
        text: `[1] button "Add to cart"\n[2] button "Place order"\ncart: ${count}`,
        elements: [
          { ref: 1, role: 'button', name: 'Add to cart' },
          { ref: 2, role: 'button', name: 'Place order' },
        ],
        tabs: [],
      }),
    act: (action) => {
      actions.push(action);
      if (action.kind === 'click' && action.ref === 1) count += 1;
      return Promise.resolve({ ok: true, message: `did ${action.kind}`, changed: true, evidence: [] });
    },
  };
}

/** A chat driver over one in-memory conversation: support offers store credit and confirms whatever is accepted. */
function fakeChatDriver() {
  const messages: ChatState['messages'] = [{ id: '0', author: 'them', text: 'We can offer a $25 store credit instead of a refund. Would you like that?', time: null, seenAt: 0 }];
  const state = (): ChatState => ({
    vendor: 'fake',
    open: true,
    messages: [...messages],
    typing: false,
    choices: [],
    forms: [],
    uploads: [],
    composer: { found: true, kind: 'textarea', disabled: false },
  });
  const driver = {
    sent: [] as string[],
    open: () => Promise.resolve({ opened: true, how: 'already_open' as const, detection: {} as never, summary: 'open' }),
    read: () => Promise.resolve(state()),
    send: (_tabId: number, text: string) => {
      driver.sent.push(text);
      messages.push({ id: String(messages.length), author: 'us', text, time: null, seenAt: 1 });
      messages.push({ id: String(messages.length), author: 'them', text: 'Done: the credit is on your account.', time: null, seenAt: 2 });
      return Promise.resolve({ sent: true, via: 'enter' as const, state: state() });
    },
    wait: () => Promise.resolve({ status: 'timeout' as const, newMessages: [], typingSeen: false, waitedMs: 1, summary: 'No reply', state: state() }),
    choose: () => Promise.reject(new Error('no choices')),
    end: () => Promise.resolve({ ended: true }),
  };
  return driver as typeof driver & Pick<ChatDriver, 'open' | 'read' | 'send' | 'wait' | 'choose' | 'end'>;
}

async function setup(turns: Turn[], mode: 'ask' | 'act' = 'act') {
  const store = memoryStore();
  const tasks = new TaskStore(store);
  const settings = new SettingsStore(store);
  await settings.update({ provider: { preset: 'ollama', model: 'scripted-1' }, defaultMode: mode });
  const provider = scriptedProvider(turns);
  const tab = fakeTab();
  const chat = fakeChatDriver();
  const updates: TaskRecord[] = [];
  let ids = 0;
  const runner = new TaskRunner({
    tasks,
    secrets: memorySecrets(),
    settings,
    tabUrl: () => Promise.resolve('https://shop.example/cart'),
    environment: () => tab,
    chatEnvironment: () => createChatCaseEnvironment(chat, tab),
    provider: () => provider,
    now: () => 1_000 + ids,
    newId: () => `id-${(ids += 1)}`,
    log: { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() },
    onUpdate: (record) => updates.push(record),
  });
  return { store, tasks, settings, provider, tab, chat, updates, runner };
}

async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition never held');
}

const doneTurn: Turn = { name: 'done', args: { success: true, summary: 'Added it.' } };

describe('the background task runner', () => {
  it('runs a task to completion, persisting it and streaming each change', async () => {
    const { runner, tasks, tab, updates } = await setup([{ name: 'click', args: { ref: 1 } }, doneTurn]);
    const started = await runner.start({ tabId: 5, text: 'Add one to the cart', flow: 'task' });
    expect(started.status).toBe('queued');
    await until(async () => (await tasks.get(started.id))?.status === 'completed');
    const saved = await tasks.get(started.id);
    expect(tab.actions).toEqual([{ kind: 'click', ref: 1, double: false }]);
    expect(saved?.agent?.outcome).toEqual({ success: true, summary: 'Added it.' });
    expect(saved?.site).toBe('shop.example');
    expect(updates.map((u) => u.status)).toContain('running');
    expect((await tasks.trace(started.id)).map((line) => (JSON.parse(line) as { type: string }).type)).toContain('end');
  });

  it('keeps one task per tab', async () => {
    const { runner } = await setup([{ name: 'wait', args: { seconds: 0 } }, doneTurn]);
    await runner.start({ tabId: 5, text: 'first', flow: 'task' });
    await expect(runner.start({ tabId: 5, text: 'second', flow: 'task' })).rejects.toMatchObject({ code: 'busy' });
  });

  it('asks before spending money, and acts only after the user approves', async () => {
    const { runner, tasks, tab } = await setup([{ name: 'click', args: { ref: 2 } }, doneTurn]);
    const { id } = await runner.start({ tabId: 5, text: 'Buy it', flow: 'task' });
    await until(async () => (await tasks.get(id))?.status === 'awaiting_approval');
    const waiting = await tasks.get(id);
    expect(waiting?.approval?.classes).toContain('money');
    expect(waiting?.approval?.intent).toContain('Place order');
    expect(tab.actions).toEqual([]);
    expect(runner.pendingApprovals).toBe(1);
    await runner.approve(id, waiting?.approval?.id ?? '', 'approve');
    await until(async () => (await tasks.get(id))?.status === 'completed');
    expect(tab.actions).toEqual([{ kind: 'click', ref: 2, double: false }]);
  });

  it('does not act when the user rejects, and refuses stale approvals', async () => {
    const { runner, tasks, tab } = await setup([{ name: 'click', args: { ref: 2 } }, { name: 'done', args: { success: false, summary: 'User said no.' } }]);
    const { id } = await runner.start({ tabId: 5, text: 'Buy it', flow: 'task' });
    await until(async () => (await tasks.get(id))?.status === 'awaiting_approval');
    const approvalId = (await tasks.get(id))?.approval?.id ?? '';
    await runner.approve(id, approvalId, 'reject', 'too expensive');
    await until(async () => (await tasks.get(id))?.status === 'failed');
    expect((await tasks.get(id))?.agent?.endReason).toBe('User said no.');
    expect(tab.actions).toEqual([]);
    await expect(runner.approve(id, approvalId, 'approve')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('stops before the next action when the user presses Stop', async () => {
    const { runner, tasks, tab } = await setup([{ name: 'click', args: { ref: 2 } }, { name: 'click', args: { ref: 1 } }, doneTurn]);
    const { id } = await runner.start({ tabId: 5, text: 'Buy it', flow: 'task' });
    await until(async () => (await tasks.get(id))?.status === 'awaiting_approval');
    await runner.stop(id);
    await until(async () => (await tasks.get(id))?.status === 'stopped');
    expect(tab.actions).toEqual([]);
  });

  it('resumes an interrupted task from its saved state without repeating the finished action', async () => {
    const first = await setup([{ name: 'click', args: { ref: 1 } }, doneTurn]);
    const { id } = await first.runner.start({ tabId: 5, text: 'Add one', flow: 'task' });
    await until(async () => (await first.tasks.get(id))?.status === 'completed');
    // Pretend the worker died right after the click was persisted: roll the record back to "running" after step 1.
    const finished = await first.tasks.get(id);
    const crashed = { ...finished!, status: 'running' as const, agent: { ...finished!.agent!, status: 'running' as const, outcome: null, steps: finished!.agent!.steps.slice(0, 1) } };
    const second = await setup([doneTurn]);
    await second.tasks.save(crashed);
    expect(await second.runner.resumeInterrupted()).toBe(1);
    await until(async () => (await second.tasks.get(id))?.status === 'completed');
    expect(second.tab.actions).toEqual([]);
  });

  it('runs a chat case: stops before accepting an offer with the exact message, and saves what was agreed with the transcript', async () => {
    const { runner, tasks, chat, provider, updates } = await setup([
      { name: 'chat_send', args: { text: 'Yes, I accept the $25 store credit.' } },
      { name: 'chat_end', args: { outcome: 'agreed', summary: 'A $25 store credit for order 1234.' } },
    ]);
    const started = await runner.start({ tabId: 5, text: 'Refund for order 1234', flow: 'chat', facts: { order_number: '1234' } });
    expect(started.facts).toEqual({ order_number: '1234' });
    await until(async () => (await tasks.get(started.id))?.approval !== null);
    const waiting = await tasks.get(started.id);
    expect(waiting?.status).toBe('awaiting_approval');
    expect(waiting?.approval?.intent).toBe('Send to support: "Yes, I accept the $25 store credit."');
    expect(chat.sent).toEqual([]);
    await runner.approve(started.id, waiting?.approval?.id ?? '', 'approve');
    await until(async () => (await tasks.get(started.id))?.status === 'completed');
    const saved = await tasks.get(started.id);
    expect(chat.sent).toEqual(['Yes, I accept the $25 store credit.']);
    expect(saved?.chat).toEqual({
      outcome: 'agreed',
      summary: 'A $25 store credit for order 1234.',
      vendor: 'fake',
      transcript: [
        { author: 'them', text: 'We can offer a $25 store credit instead of a refund. Would you like that?' },
        { author: 'us', text: 'Yes, I accept the $25 store credit.' },
        { author: 'them', text: 'Done: the credit is on your account.' },
      ],
    });
    expect(updates.map((u) => u.status)).toEqual(expect.arrayContaining(['queued', 'running', 'awaiting_approval', 'completed']));
    expect(provider.requests[0]?.system).toContain('Order number: 1234');
    expect(JSON.stringify(provider.requests[0]?.messages)).toMatch(/<untrusted_chat[^>]*>\\n.*support: We can offer a \$25 store credit/);
  });

  it('fails with a clear error when no provider is set', async () => {
    const store = memoryStore();
    const runner = new TaskRunner({
      tasks: new TaskStore(store),
      secrets: memorySecrets(),
      settings: new SettingsStore(store),
      tabUrl: () => Promise.resolve('https://a.example/'),
      environment: () => fakeTab(),
      provider: () => scriptedProvider([]),
      now: () => 1,
      newId: () => 'x',
      log: { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() },
      onUpdate: () => undefined,
    });
    await expect(runner.start({ tabId: 1, text: 'go', flow: 'task' })).rejects.toMatchObject({ code: 'bad_config' });
  });
});

describe('settings', () => {
  it('keeps the stored API key when the panel saves without it, and never hands it back', async () => {
    const settings = new SettingsStore(memoryStore());
    await settings.update({ provider: { preset: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-secret-123' } });
    const view = await settings.update({ provider: { preset: 'openai', model: 'gpt-4.1' } });
    expect(view.apiKeySet).toBe(true);
    expect(view.provider?.apiKey).toBe('');
    expect((await settings.get()).provider?.apiKey).toBe('sk-secret-123');
    await expect(settings.update({ stepBudget: 0 })).rejects.toMatchObject({ code: 'invalid_params' });
  });
});
