import { describe, expect, it, vi } from 'vitest';
import { DIFF_LEGEND } from '../../../../../shared/agent/build-prompt';
import type { Provider, ProviderReply, ProviderRequest } from '../../../../../shared/agent/providers/provider';
import type { WebAction } from '../../../../../shared/agent/web-environment';
import type { TaskRecord } from '../../../../../shared/protocol';
import type { ChatState } from '../../../../../shared/protocol';
import { createChatCaseEnvironment } from '../../../../../extension/background/chat/chat-case-environment';
import type { ChatDriver } from '../../../../../extension/background/chat/chat-driver';
import { SettingsStore } from '../../../../../extension/background/stores/settings-store';
import type { OpenTab } from '../../../../../extension/background/tasks/refind-task-tab';
import type { TabEnvironment } from '../../../../../extension/background/page/tab-environment';
import { TaskRunner } from '../../../../../extension/background/tasks/task-runner';
import { TaskStore } from '../../../../../extension/background/tasks/task-store';
import { memoryScreenshots } from '../support/memory-screenshots';
import { memoryStore } from '../support/memory-store';

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
function scriptedProvider(turns: Turn[], vision = false): Provider & { requests: ProviderRequest[] } {
  const requests: ProviderRequest[] = [];
  let index = 0;
  return {
    label: 'scripted',
    model: 'scripted-1',
    vision,
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
function fakeTab(tabId = 5): TabEnvironment & { actions: WebAction[]; restored: number[] } {
  const actions: WebAction[] = [];
  const restored: number[] = [];
  let count = 0;
  return {
    actions,
    restored,
    currentTabId: () => tabId,
    restoreRefs: (_url, elements) => {
      restored.push(...elements.map((e) => e.ref));
      return elements.length;
    },
    observe: (options) =>
      Promise.resolve({
        ...(options.screenshot ? { screenshot: { mediaType: 'image/jpeg' as const, base64: `/9j/shot-${actions.length}` } } : {}),
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

/** The browser's open tabs: a list to re-find a task's page in, and new tabs opened with the next free id. */
function fakeTabs(open: OpenTab[] = []) {
  const tabs = [...open];
  const opened: string[] = [];
  return {
    tabs,
    opened,
    list: () => Promise.resolve([...tabs]),
    open: (url: string) => {
      const tab = { id: Math.max(100, ...tabs.map((t) => t.id + 1)), url };
      tabs.push(tab);
      opened.push(url);
      return Promise.resolve(tab);
    },
    sleep: () => Promise.resolve(),
  };
}

interface SetupOptions {
  /** Storage shared with an earlier "browser": chrome.storage.local survives a restart. */
  store?: ReturnType<typeof memoryStore>;
  /** The browser session's id: a new one stands for a restarted browser. */
  session?: string;
  tabs?: ReturnType<typeof fakeTabs>;
  screenshots?: ReturnType<typeof memoryScreenshots>;
  /** The address of the tab the task starts in; the shop's cart by default. */
  tabUrl?: string;
  /** The model reads images. */
  vision?: boolean;
}

/** Holds the model's answer to request number `at` (1-based) until the test releases it, as a slow model would. */
function holdReply(provider: Provider & { requests: ProviderRequest[] }, at: number): { release: () => void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const complete = provider.complete.bind(provider);
  provider.complete = async (request, options) => {
    const reply = complete(request, options);
    if (provider.requests.length === at) await gate;
    return reply;
  };
  return { release: () => release() };
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

async function setup(turns: Turn[], mode: 'ask' | 'act' = 'act', options: SetupOptions = {}) {
  const store = options.store ?? memoryStore();
  const tasks = new TaskStore(store, options.screenshots);
  const settings = new SettingsStore(store);
  await settings.update({ provider: { preset: 'ollama', model: 'scripted-1' }, defaultMode: mode });
  const provider = scriptedProvider(turns, options.vision);
  const tab = fakeTab();
  const environments: number[] = [];
  const browser = options.tabs ?? fakeTabs([{ id: 5, url: 'https://shop.example/cart' }]);
  const chat = fakeChatDriver();
  const updates: TaskRecord[] = [];
  let ids = 0;
  const prefix = options.session ?? 'A';
  const runner = new TaskRunner({
    tasks,
    secrets: memorySecrets(),
    settings,
    tabUrl: () => Promise.resolve(options.tabUrl ?? 'https://shop.example/cart'),
    environment: (tabId) => {
      environments.push(tabId);
      return tab;
    },
    chatEnvironment: () => createChatCaseEnvironment(chat, tab),
    provider: () => provider,
    now: () => 1_000 + ids,
    newId: () => `${prefix}-id-${(ids += 1)}`,
    log: { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() },
    onUpdate: (record) => updates.push(record),
    browserSession: () => Promise.resolve(options.session ?? 'A'),
    tabs: browser,
    restoreGraceMs: 0,
  });
  return { store, tasks, settings, provider, tab, chat, browser, environments, updates, runner };
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

  it('sends a web task the diff page view by default: the full_page tool, and how to read a diff in the system prompt', async () => {
    const { runner, tasks, provider } = await setup([doneTurn]);
    const started = await runner.start({ tabId: 5, text: 'Add one to the cart', flow: 'task' });
    await until(async () => (await tasks.get(started.id))?.status === 'completed');
    expect(provider.requests[0]?.tools.map((tool) => tool.name)).toContain('full_page');
    expect(provider.requests[0]?.system).toContain(DIFF_LEGEND);
  });

  it('offers the tools the task calls for: upload only with files attached, positions only to a model that reads images', async () => {
    const plain = await setup([doneTurn]);
    const first = await plain.runner.start({ tabId: 5, text: 'Add one to the cart', flow: 'task' });
    await until(async () => (await plain.tasks.get(first.id))?.status === 'completed');
    const offered = plain.provider.requests[0]?.tools.map((tool) => tool.name) ?? [];
    expect(offered).toEqual(expect.arrayContaining(['click', 'type', 'dialog', 'download', 'tabs', 'done']));
    for (const name of ['upload', 'click_at', 'hover_at', 'drag_at', 'screenshot', 'chat_send']) expect(offered).not.toContain(name);

    const attached = await setup([doneTurn], 'act', { vision: true });
    const files = [{ name: 'cv.txt', size: 3, type: 'text/plain', path: '/tmp/cv.txt' }];
    const second = await attached.runner.start({ tabId: 5, text: 'Apply with my CV', flow: 'task', files });
    await until(async () => (await attached.tasks.get(second.id))?.status === 'completed');
    expect(attached.provider.requests[0]?.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['upload', 'click_at', 'hover_at', 'drag_at', 'screenshot']));
  });

  it('opens the address a task is given before the model looks, and takes its site from it', async () => {
    const { runner, tasks, tab, provider } = await setup([doneTurn]);
    const { id, site } = await runner.start({ tabId: 5, text: 'Look around', flow: 'task', url: 'https://docs.example/start' });
    expect(site).toBe('docs.example');
    await until(async () => (await tasks.get(id))?.status === 'completed');
    expect(tab.actions[0]).toEqual({ kind: 'navigate', url: 'https://docs.example/start' });
    expect((await tasks.get(id))?.notes?.map((n) => n.text)).toEqual(['Opened https://docs.example/start to start the task.']);
    expect(provider.requests).toHaveLength(1);
  });

  it('files a task that started on a blank tab under the first site it reached', async () => {
    const { runner, tasks } = await setup([doneTurn], 'act', { tabUrl: 'about:blank#deputy-1' });
    const { id, site } = await runner.start({ tabId: 5, text: 'Look around', flow: 'task' });
    expect(site).toBe('about:blank');
    await until(async () => (await tasks.get(id))?.status === 'completed');
    expect((await tasks.get(id))?.site).toBe('shop.example');
  });

  it('keeps a screenshot of each step with the task, without sending it to a model that was not asked for images', async () => {
    const screenshots = memoryScreenshots();
    const { runner, tasks, provider } = await setup([{ name: 'click', args: { ref: 1 } }, doneTurn], 'act', { screenshots });
    const { id } = await runner.start({ tabId: 5, text: 'Add one', flow: 'task' });
    await until(async () => (await tasks.get(id))?.status === 'completed');
    await until(async () => (await tasks.screenshotsOf(id)).length === 2);
    expect((await tasks.screenshotsOf(id)).map((shot) => [shot.step, shot.base64])).toEqual([
      [0, '/9j/shot-0'],
      [1, '/9j/shot-1'],
    ]);
    expect(JSON.stringify(provider.requests)).not.toContain('/9j/');
    // Nor is it kept in the saved state: the screenshots live beside it.
    expect(JSON.stringify(await tasks.get(id))).not.toContain('/9j/');
  });

  it('takes no screenshots when the user turned them off, and prunes old tasks as tasks end', async () => {
    const screenshots = memoryScreenshots();
    const { runner, tasks, settings } = await setup([doneTurn, doneTurn, doneTurn], 'act', { screenshots });
    await settings.update({ stepScreenshots: false, historyMaxTasks: 2 });
    for (const text of ['one', 'two', 'three']) {
      const { id } = await runner.start({ tabId: 5, text, flow: 'task' });
      await until(async () => (await tasks.get(id))?.status === 'completed');
    }
    await until(async () => (await tasks.list()).length === 2);
    expect((await tasks.list()).map((r) => r.text)).toEqual(['three', 'two']);
    expect(screenshots.data.size).toBe(0);
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

  it('pauses before the next action, holds there, and resumes the same step without repeating an action', async () => {
    const { runner, tasks, tab, provider } = await setup([{ name: 'click', args: { ref: 1 } }, { name: 'click', args: { ref: 1 } }, doneTurn]);
    const slow = holdReply(provider, 2);
    const { id } = await runner.start({ tabId: 5, text: 'Add two', flow: 'task' });
    await until(() => provider.requests.length === 2);
    const pausing = await runner.pause(id);
    expect(pausing).toMatchObject({ pauseRequested: true, status: 'running' });
    slow.release();
    await until(async () => (await tasks.get(id))?.status === 'paused');
    // The second click was proposed by the model but not made.
    expect(tab.actions).toHaveLength(1);
    expect((await tasks.get(id))?.agent?.steps.at(-1)?.calls.map((c) => c.status)).toEqual(['proposed']);
    await expect(runner.start({ tabId: 5, text: 'other', flow: 'task' })).rejects.toMatchObject({ code: 'busy', message: 'A paused task holds this tab: resume it or stop it first.' });
    const resumed = await runner.resume(id);
    expect(resumed).toMatchObject({ pauseRequested: false, status: 'running' });
    await until(async () => (await tasks.get(id))?.status === 'completed');
    expect(tab.actions).toEqual([{ kind: 'click', ref: 1, double: false }, { kind: 'click', ref: 1, double: false }]);
    expect(provider.requests).toHaveLength(3);
  });

  it('keeps a paused task paused across a worker restart, then resumes it from its saved state', async () => {
    const first = await setup([{ name: 'click', args: { ref: 1 } }, { name: 'click', args: { ref: 1 } }]);
    const slow = holdReply(first.provider, 2);
    const { id } = await first.runner.start({ tabId: 5, text: 'Add two', flow: 'task' });
    await until(() => first.provider.requests.length === 2);
    await first.runner.pause(id);
    slow.release();
    await until(async () => (await first.tasks.get(id))?.status === 'paused');
    const paused = await first.tasks.get(id);

    // A new worker over the same storage: the task stays paused, and nothing runs.
    const second = await setup([doneTurn]);
    await second.tasks.save(paused!);
    expect(await second.runner.resumeInterrupted()).toBe(0);
    expect((await second.tasks.get(id))?.status).toBe('paused');
    expect(second.provider.requests).toHaveLength(0);
    await second.runner.resume(id);
    await until(async () => (await second.tasks.get(id))?.status === 'completed');
    // The click the model asked for before the pause is made once, and the model is not asked for it again.
    expect(second.tab.actions).toEqual([{ kind: 'click', ref: 1, double: false }]);
    expect(second.provider.requests).toHaveLength(1);
    await first.runner.stop(id);
  });

  it('stops a paused task without acting, and refuses to pause or resume what cannot be', async () => {
    const { runner, tasks, tab, provider } = await setup([{ name: 'click', args: { ref: 1 } }, { name: 'click', args: { ref: 1 } }, doneTurn]);
    const slow = holdReply(provider, 2);
    const { id } = await runner.start({ tabId: 5, text: 'Add two', flow: 'task' });
    await until(() => provider.requests.length === 2);
    await expect(runner.resume(id)).rejects.toMatchObject({ code: 'bad_request' });
    await runner.pause(id);
    slow.release();
    await until(async () => (await tasks.get(id))?.status === 'paused');
    await runner.stop(id);
    await until(async () => (await tasks.get(id))?.status === 'stopped');
    expect(tab.actions).toHaveLength(1);
    await expect(runner.pause(id)).rejects.toMatchObject({ code: 'bad_request', message: 'The task has ended: there is nothing to pause.' });
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
      goal: 'Refund for order 1234',
      // The order number was allowed but never written into the chat.
      factsShared: [],
      promises: [],
      escalations: [],
      open: false,
      transcript: [
        { author: 'them', text: 'We can offer a $25 store credit instead of a refund. Would you like that?', at: 0, time: null },
        { author: 'us', text: 'Yes, I accept the $25 store credit.', at: 1, time: null },
        { author: 'them', text: 'Done: the credit is on your account.', at: 2, time: null },
      ],
    });
    expect(updates.map((u) => u.status)).toEqual(expect.arrayContaining(['queued', 'running', 'awaiting_approval', 'completed']));
    expect(provider.requests[0]?.system).toContain('Order number: 1234');
    expect(JSON.stringify(provider.requests[0]?.messages)).toMatch(/<untrusted_chat[^>]*>\\n.*support: We can offer a \$25 store credit/);
    // A chat is sent whole every turn whatever the page view: its prompt does not explain diffs, its tools have no full_page.
    expect(provider.requests.length).toBeGreaterThan(1);
    for (const request of provider.requests) {
      expect(request.tools.map((tool) => tool.name)).not.toContain('full_page');
      expect(JSON.stringify(request.messages)).not.toMatch(/changes since step/);
    }
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
      browserSession: () => Promise.resolve('A'),
      tabs: fakeTabs(),
    });
    await expect(runner.start({ tabId: 1, text: 'go', flow: 'task' })).rejects.toMatchObject({ code: 'bad_config' });
  });
});

const CART = 'https://shop.example/cart';

/** A task on tab 5 of browser session A, stopped at the approval for "Place order", then the browser "closes". */
async function waitingBeforeRestart(turnsBefore: Turn[] = [{ name: 'click', args: { ref: 2 } }]) {
  const before = await setup(turnsBefore, 'act', { session: 'A' });
  const { id } = await before.runner.start({ tabId: 5, text: 'Buy it', flow: 'task' });
  await until(async () => (await before.tasks.get(id))?.status === 'awaiting_approval');
  const record = (await before.tasks.get(id))!;
  return { id, record, store: before.store };
}

describe('a browser restart', () => {
  it('keeps a task waiting for the same approval, on a tab showing its page, and acts once when approved', async () => {
    const { id, record, store } = await waitingBeforeRestart();
    // After the restart tab 5 is another page, and the shop is open in tab 9.
    const tabs = fakeTabs([
      { id: 5, url: 'https://news.example/' },
      { id: 9, url: CART },
    ]);
    const after = await setup([doneTurn], 'act', { store, session: 'B', tabs });
    expect(await after.runner.resumeInterrupted()).toBe(1);
    await until(async () => (await after.tasks.get(id))?.tabId === 9 && after.runner.pendingApprovals === 1);
    const resumed = (await after.tasks.get(id))!;
    expect(resumed.status).toBe('awaiting_approval');
    expect(resumed.approval).toEqual(record.approval);
    expect(resumed.tabSession).toBe('B');
    expect(resumed.notes?.map((n) => n.text)).toEqual([`The browser restarted; Deputy found ${CART} open in a tab and continued there.`]);
    expect(after.environments).toEqual([9]);
    expect(tabs.opened).toEqual([]);
    // The approved click names its element by the number the user saw: that number is given back to the new tab.
    expect(after.tab.restored).toEqual([1, 2]);

    await after.runner.approve(id, record.approval!.id, 'approve');
    await until(async () => (await after.tasks.get(id))?.status === 'completed');
    expect(after.tab.actions).toEqual([{ kind: 'click', ref: 2, double: false }]);
  });

  it('takes an answer given to the restored card before the task has asked again', async () => {
    const { id, record, store } = await waitingBeforeRestart();
    const after = await setup([doneTurn], 'act', { store, session: 'B', tabs: fakeTabs([{ id: 3, url: CART }]) });
    const resuming = after.runner.resumeInterrupted();
    // The panel shows the stored card at once; the user answers while the worker is still finding the tab.
    await after.runner.approve(id, record.approval!.id, 'reject', 'not today');
    await resuming;
    await until(async () => (await after.tasks.get(id))?.status === 'completed');
    const call = (await after.tasks.get(id))?.agent?.steps[0]?.calls[0];
    expect(call?.status).toBe('denied');
    expect(call?.result?.content).toContain('not today');
    expect(after.tab.actions).toEqual([]);
  });

  it('reopens the page in a new tab when no free tab shows it, never taking the tab of another active task', async () => {
    const { id, store } = await waitingBeforeRestart();
    const tabs = fakeTabs([{ id: 9, url: CART }]);
    const after = await setup([{ name: 'click', args: { ref: 2 } }], 'act', { store, session: 'B', tabs });
    // A task started after the restart works in tab 9, on the same page.
    const other = await after.runner.start({ tabId: 9, text: 'Buy another', flow: 'task' });
    await until(async () => (await after.tasks.get(other.id))?.status === 'awaiting_approval');
    await after.runner.resumeInterrupted();
    await until(async () => (await after.tasks.get(id))?.tabSession === 'B');
    const moved = (await after.tasks.get(id))!;
    expect(tabs.opened).toEqual([CART]);
    expect(moved.tabId).toBe(100);
    expect(moved.notes?.[0]?.text).toContain(`its tab was gone, so Deputy reopened ${CART} in a new tab`);
    expect((await after.tasks.get(other.id))?.tabId).toBe(9);
  });

  it('does not refuse a new task in a tab whose id an unfinished task had before the restart', async () => {
    const { store } = await waitingBeforeRestart();
    const after = await setup([doneTurn], 'act', { store, session: 'B', tabs: fakeTabs([{ id: 5, url: 'https://news.example/' }]) });
    await expect(after.runner.start({ tabId: 5, text: 'Read the news', flow: 'task' })).resolves.toMatchObject({ tabId: 5, tabSession: 'B' });
  });

  it('resumes a running task on the re-found tab without repeating the action it had started', async () => {
    const { id, record, store } = await waitingBeforeRestart();
    // The approved click had started when the browser went away: it may or may not have happened.
    const steps = record.agent!.steps.map((step) => ({ ...step, calls: step.calls.map((call) => ({ ...call, status: 'started' as const })) }));
    await new TaskStore(store).save({ ...record, status: 'running', approval: null, agent: { ...record.agent!, status: 'running', steps } });
    const after = await setup([doneTurn], 'act', { store, session: 'B', tabs: fakeTabs([{ id: 7, url: CART }]) });
    await after.runner.resumeInterrupted();
    await until(async () => (await after.tasks.get(id))?.status === 'completed');
    const done = (await after.tasks.get(id))!;
    expect(done.tabId).toBe(7);
    expect(done.agent?.steps[0]?.calls[0]?.status).toBe('interrupted');
    expect(after.tab.actions).toEqual([]);
  });

  it('does not act on a reloaded form: what was typed before the restart is gone, so the waiting action is dropped', async () => {
    const { id, store } = await waitingBeforeRestart([
      { name: 'type', args: { ref: 1, text: 'gift note' } },
      { name: 'click', args: { ref: 2 } },
    ]);
    const after = await setup([doneTurn], 'act', { store, session: 'B', tabs: fakeTabs([{ id: 7, url: CART }]) });
    await after.runner.resumeInterrupted();
    await until(async () => (await after.tasks.get(id))?.status === 'completed');
    const done = (await after.tasks.get(id))!;
    const click = done.agent?.steps[1]?.calls[0];
    expect(click?.status).toBe('skipped');
    expect(click?.result?.content).toContain('typed or chosen on it before is gone');
    expect(done.notes?.[0]?.text).toContain('The action that waited for your approval was not taken');
    expect(after.tab.actions).toEqual([]);
  });

  it('says a value seen before the restart was forgotten, rather than typing its placeholder', async () => {
    const { id, record, store } = await waitingBeforeRestart();
    // The page had shown a card number, redacted to {{redacted_card_1}}; its value was only in session storage.
    const steps = record.agent!.steps.map((step) => ({ ...step, observation: { ...step.observation, text: `${step.observation.text}\ncard on file: {{redacted_card_1}}` } }));
    await new TaskStore(store).save({ ...record, agent: { ...record.agent!, steps } });
    const after = await setup(
      [{ name: 'type', args: { ref: 1, text: '{{redacted_card_1}}' } }, { name: 'done', args: { success: false, summary: 'The card number is gone.' } }],
      'act',
      { store, session: 'B', tabs: fakeTabs([{ id: 7, url: CART }]) },
    );
    await after.runner.resumeInterrupted();
    await until(() => after.runner.pendingApprovals === 1);
    expect((await after.tasks.get(id))?.notes?.[0]?.text).toContain('A value Deputy had seen on pages');
    await after.runner.approve(id, record.approval!.id, 'reject');
    await until(async () => (await after.tasks.get(id))?.status === 'failed');
    const typed = (await after.tasks.get(id))?.agent?.steps[1]?.calls[0];
    expect(typed?.result?.ok).toBe(false);
    expect(typed?.result?.content).toContain('forgotten on the restart for safety');
    expect(after.tab.actions.filter((a) => a.kind === 'type')).toEqual([]);
  });

  it('fails with a clear message when the task had not seen its page yet and its address is unknown', async () => {
    const store = memoryStore();
    const tasks = new TaskStore(store);
    await tasks.save({
      id: 't1', tabId: 5, flow: 'task', text: 'go', mode: 'act', site: 'shop.example', status: 'queued', createdAt: 1, updatedAt: 1,
      agent: null, approval: null, question: null, error: null, stopRequested: false, pauseRequested: false, facts: {}, chat: null, tabSession: 'A',
    });
    const after = await setup([doneTurn], 'act', { store, session: 'B' });
    await after.runner.resumeInterrupted();
    const failed = await tasks.get('t1');
    expect(failed?.status).toBe('failed');
    expect(failed?.error?.message).toMatch(/browser restarted before this task had looked at its page.*start the task again/);
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

describe('a follow-up to an ended task', () => {
  it('continues the same task in its tab with what it did so far, redacted, and refuses while it works', async () => {
    const { runner, tasks, tab, provider, store } = await setup([
      { name: 'click', args: { ref: 1 } },
      doneTurn,
      { name: 'click', args: { ref: 1 } },
      { name: 'done', args: { success: true, summary: 'Added another.' } },
    ]);
    const { id } = await runner.start({ tabId: 5, text: 'Pay with 4012.8888.8888.1881', flow: 'task' });
    await until(async () => (await tasks.get(id))?.status === 'completed');
    const continued = await runner.continue(id, 'Now one more, and use card 5555 5555 5555 4444 next time');
    expect(continued).toMatchObject({ id, status: 'queued', agent: { followUps: [{ text: 'Now one more, and use card {{redacted_card_2}} next time', beforeStep: 2 }] } });
    await expect(runner.continue(id, 'And another')).rejects.toMatchObject({ code: 'busy' });
    await until(async () => (await tasks.get(id))?.status === 'completed');
    const saved = await tasks.get(id);
    expect(saved?.agent?.outcome?.summary).toBe('Added another.');
    expect(saved?.agent?.steps).toHaveLength(4);
    expect((await tasks.list({ tabId: 5 })).map((r) => r.id)).toEqual([id]);
    // The follow-up's card got the next placeholder, and the model saw neither number.
    expect(tab.actions.map((a) => a.kind)).toEqual(['click', 'click']);
    const last = JSON.stringify(provider.requests.at(-2));
    expect(last).toContain('Pay with {{redacted_card_1}}');
    expect(last).toContain('Follow-up from the user');
    const everything = JSON.stringify([...store.data.entries()]) + JSON.stringify(provider.requests);
    for (const value of ['4012.8888.8888.1881', '5555 5555 5555 4444']) expect(everything).not.toContain(value);
  });

  it('says what to do when there is nothing to continue', async () => {
    const { runner } = await setup([]);
    await expect(runner.continue('gone', 'go on')).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('approvals and the task text, as the user sees and stores them', () => {
  it('stores only the redacted task: every identifier in it becomes a placeholder the task can still type', async () => {
    const { runner, tasks, provider, store } = await setup([{ name: 'done', args: { success: true, summary: 'Noted.' } }]);
    const text = 'Pay with 4012.8888.8888.1881, IBAN DE89 3704 0044 0532 0130 00, SSN 219099999; my password is hunter2!xyz';
    const { id } = await runner.start({ tabId: 5, text, flow: 'task' });
    await until(async () => (await tasks.get(id))?.status === 'completed');
    const saved = await tasks.get(id);
    expect(saved?.text).toBe('Pay with {{redacted_card_1}}, IBAN {{redacted_iban_1}}, SSN {{redacted_ssn_1}}; my password is {{redacted_password_1}}');
    const everything = JSON.stringify([...store.data.entries()]) + JSON.stringify(provider.requests);
    for (const value of ['4012.8888.8888.1881', '4012888888881881', 'DE89 3704', '219099999', 'hunter2!xyz']) expect(everything).not.toContain(value);
  });

  it('"Approve for site" approves the destination for this task only, never for a risky step', async () => {
    const { runner, tasks, settings } = await setup([
      { name: 'navigate', args: { url: 'https://docs.example/a' } },
      { name: 'navigate', args: { url: 'https://docs.example/b' } },
      { name: 'click', args: { ref: 2 } },
      doneTurn,
    ]);
    const { id } = await runner.start({ tabId: 5, text: 'Read the docs, then order', flow: 'task' });
    await until(async () => (await tasks.get(id))?.status === 'awaiting_approval');
    const first = (await tasks.get(id))?.approval;
    expect(first).toMatchObject({ destination: 'https://docs.example', siteApproval: 'https://docs.example', kind: 'action' });
    await runner.approve(id, first?.id ?? '', 'approve_site');
    // The second page on that site needs no approval; "Place order" does, and only once.
    await until(async () => (await tasks.get(id))?.approval?.classes.includes('money') === true);
    const order = (await tasks.get(id))?.approval;
    expect(order?.siteApproval).toBeNull();
    await expect(runner.approve(id, order?.id ?? '', 'approve_site')).rejects.toMatchObject({ code: 'forbidden' });
    await runner.approve(id, order?.id ?? '', 'reject');
    await until(async () => (await tasks.get(id))?.status === 'completed');
    expect((await tasks.get(id))?.agent?.approvedOrigins.sites).toEqual(['https://docs.example']);
    // Nothing was added to the user's own list of allowed sites.
    expect((await settings.get()).allowedSites).toEqual([]);
  });
});
