import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { currentView } from '../../../tests/fixtures/fake-provider/prompt-view';
import type { RecordedRequest } from '../../../tests/fixtures/fake-provider/scripted-reply';
import type { DirectoryServer } from '../../bench/serve-directory';
import { launchWithExtension, type ExtensionBrowser } from '../../lib/launch-browser';
import { episodeResult, serveMiniwob, startEpisode, taskUrl } from '../../lib/miniwob-harness';
import { ModelBridge, type ModelRequest } from './model-bridge';
import { Unsolvable, type SolverKit } from './solver-kit';

/**
 * Drives MiniWoB++ pages through Deputy as a model drives it, with a scripted solution in the model's place: the
 * built extension in Chromium runs a real task on the page (its agent loop, snapshot, tools, trusted input through the
 * debugger, verification), and asks its "model" (a local OpenAI-compatible server, model-bridge.ts) what to do next.
 * The solution reads only the messages it is sent; the harness reads the page's reward from its own globals.
 */

export interface PageView {
  /** The page as the model reads it this step (snapshot, last step's verification). */
  text: string;
  /** The image Deputy sent the model with this view (a JPEG), only when the solution asked for sight. */
  screenshot?: Buffer;
}

export interface ActOutcome {
  ok: boolean;
  message: string;
}

interface UiReply {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}

/** What the agent is told: the page states the task, as MiniWoB++ poses it. */
const TASK_TEXT = 'Do the task that this page states in its instruction at the top, on this page.';
const FINISHED = new Set(['completed', 'failed', 'stopped', 'handed_to_user']);

export class ExpressibleDriver {
  private constructor(
    readonly ext: ExtensionBrowser,
    readonly server: DirectoryServer,
    readonly bridge: ModelBridge,
    private readonly panel: Page,
    private readonly profile: string,
  ) {}

  static async start(dir: string, options: { headless?: boolean } = {}): Promise<ExpressibleDriver> {
    const server = await serveMiniwob(dir);
    const bridge = await ModelBridge.start();
    const profile = await mkdtemp(join(tmpdir(), 'deputy-expressible-'));
    const ext = await launchWithExtension({ userDataDir: profile, hostRules: 'MAP *.test 127.0.0.1', headless: options.headless ?? true });
    await ext.worker();
    const panel = await ext.openExtensionPage('extension/sidepanel/index.html');
    const driver = new ExpressibleDriver(ext, server, bridge, panel, profile);
    await driver.ui('settings.set', {
      provider: {
        preset: 'custom',
        baseUrl: `http://models.test:${bridge.port}/v1`,
        model: 'scripted',
        stream: false,
        openaiApi: 'chat',
        toolCalling: 'native',
        // A model that reads images: it gets a screenshot only when it asks for one (the screenshot tool), as
        // step screenshots stay off; the sight solutions read that one.
        vision: true,
        timeoutMs: 120_000,
        maxRetries: 0,
      },
      defaultMode: 'act',
      stepBudget: 80,
    });
    return driver;
  }

  async close(): Promise<void> {
    await this.ext.close().catch(() => undefined);
    await this.bridge.close().catch(() => undefined);
    await this.server.close().catch(() => undefined);
    await rm(this.profile, { recursive: true, force: true }).catch(() => undefined);
  }

  async ui(method: string, params: Record<string, unknown>): Promise<unknown> {
    const reply = await this.panel.evaluate(
      (method, params) =>
        new Promise<UiReply>((resolve) => {
          const port = chrome.runtime.connect(chrome.runtime.id, { name: 'ui' });
          const id = `expr-${Math.random().toString(36).slice(2)}`;
          port.onMessage.addListener((message: UiReply & { kind?: string; id?: string }) => {
            if (message.kind !== 'response' || message.id !== id) return;
            port.disconnect();
            resolve({ ok: message.ok === true, result: message.result, ...(message.error ? { error: message.error } : {}) });
          });
          port.onDisconnect.addListener(() => resolve({ ok: false, error: { code: 'disconnected', message: 'the background went away' } }));
          port.postMessage({ kind: 'request', id, method, params });
        }),
      method,
      params,
    );
    if (!reply.ok) throw new Error(`${method} failed: ${reply.error?.code}: ${reply.error?.message}`);
    return reply.result;
  }

  /** Opens a task page in a new tab in front and starts a seeded episode. */
  async open(task: string, seed: string): Promise<Episode> {
    const page = await this.ext.browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    const url = taskUrl(this.server, task, 'miniwob.test');
    await page.goto(url, { waitUntil: 'load' });
    await page.bringToFront();
    const tabId = await this.panel.evaluate(async (href) => (await chrome.tabs.query({})).find((tab) => tab.url === href)?.id ?? -1, page.url());
    if (tabId < 0) throw new Error(`No tab shows ${url}`);
    await startEpisode(page, { seed });
    return new Episode(this, page, tabId);
  }
}

/** The image attached to the request's latest page view (the chat wire format's data URL), if any. */
function imageOf(request: ModelRequest): Buffer | undefined {
  for (const message of [...request.messages].reverse()) {
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type?: string; image_url?: { url?: string } }[]) {
      const url = part.type === 'image_url' ? part.image_url?.url : undefined;
      const data = url ? /^data:image\/\w+;base64,(.*)$/.exec(url)?.[1] : undefined;
      if (data) return Buffer.from(data, 'base64');
    }
    return undefined;
  }
  return undefined;
}

function lastToolResult(request: ModelRequest): string {
  const tool = request.messages.filter((m) => m.role === 'tool').at(-1);
  return typeof tool?.content === 'string' ? tool.content : '';
}

export class Episode {
  private taskId: string | null = null;
  private ended: string | null = null;

  constructor(
    private readonly driver: ExpressibleDriver,
    readonly page: Page,
    readonly tabId: number,
  ) {}

  /** Starts Deputy's task on the page and returns the kit a solution works with, from the first request's view. */
  async begin(): Promise<SolverKit & { finish(success: boolean, summary: string): Promise<void> }> {
    const bridge = this.driver.bridge;
    const started = (await this.driver.ui('task.start', { tabId: this.tabId, text: TASK_TEXT, mode: 'act', flow: 'task', files: [] })) as { id: string };
    this.taskId = started.id;
    void this.watch();
    const viewOf = (request: ModelRequest): string => currentView({ json: request, path: '/v1/chat/completions' } as RecordedRequest);
    let request = await bridge.next();
    let text = viewOf(request);
    const ended = (): string | null => this.ended;
    const untilEnded = () => this.untilEnded();
    const call = async (action: Record<string, unknown>): Promise<ActOutcome> => {
      if (ended()) throw new Unsolvable(`the task ended (${ended()}) before the solution did`);
      const { kind, toRef, ...rest } = action;
      bridge.reply({ name: String(kind), arguments: { ...rest, ...(toRef === undefined ? {} : { to_ref: toRef }) } });
      request = await bridge.next();
      text = viewOf(request);
      const result = lastToolResult(request);
      return { ok: !result.startsWith('Error:'), message: result };
    };
    return {
      get text() {
        return text;
      },
      async look(sight = false) {
        if (!sight) return { text };
        // Asked as a model asks: the screenshot tool, then the image that comes with the next page view.
        await call({ kind: 'screenshot' });
        const screenshot = imageOf(request);
        if (!screenshot) throw new Unsolvable('Deputy sent no screenshot with the page view it was asked for');
        return { text, screenshot };
      },
      async act(action) {
        const outcome = await call(action);
        if (!outcome.ok) throw new Unsolvable(`${String(action.kind)} failed: ${outcome.message.replace(/^Error: /, '')}`);
        return outcome;
      },
      tryAct: call,
      async finish(success, summary) {
        if (ended()) return;
        bridge.reply({ name: 'done', arguments: { success, summary } });
        await untilEnded();
      },
    };
  }

  /** Follows the task: approves what it asks (nobody sits at an evaluation), and notes when it ended. */
  private async watch(): Promise<void> {
    while (!this.ended && this.taskId) {
      const record = (await this.driver.ui('task.get', { taskId: this.taskId }).catch(() => null)) as { status: string; approval?: { id: string } } | null;
      if (record && FINISHED.has(record.status)) {
        this.ended = record.status;
        this.driver.bridge.abandon(`the task ended (${record.status})`);
        return;
      }
      if (record?.approval) await this.driver.ui('task.approve', { taskId: this.taskId, approvalId: record.approval.id, decision: 'approve' }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private async untilEnded(): Promise<void> {
    for (let i = 0; i < 100 && !this.ended; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** Stops the task if it still runs (a solution that gave up or timed out). */
  async stop(): Promise<void> {
    if (this.taskId && !this.ended) await this.driver.ui('task.stop', { taskId: this.taskId }).catch(() => undefined);
    this.driver.bridge.abandon('stopped');
    await this.untilEnded();
  }

  result() {
    return episodeResult(this.page);
  }

  async close(): Promise<void> {
    await this.page.close().catch(() => undefined);
  }
}
