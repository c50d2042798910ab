import type { Page } from 'puppeteer-core';
import { TaskRecord, type ParamsInputOf, type ResultOf, type UiMethods } from '../../shared/protocol';

/**
 * The page side of the bridge: one "ui" port (opened again if the worker restarts), requests matched to responses by
 * id, and task events handed to Node through the exposed deputyTaskEvent function.
 */
const PAGE_BRIDGE = `(() => {
  const pending = new Map();
  let port;
  let sequence = 0;
  const connect = () => {
    const next = chrome.runtime.connect(chrome.runtime.id, { name: 'ui' });
    next.onMessage.addListener((message) => {
      if (message.kind === 'response' && message.id) {
        const entry = pending.get(message.id);
        pending.delete(message.id);
        if (entry) entry(message);
      } else if (message.kind === 'event' && message.event === 'task.updated') {
        globalThis.deputyTaskEvent(message.data);
      }
    });
    next.onDisconnect.addListener(() => {
      port = undefined;
      for (const entry of pending.values()) entry({ kind: 'response', ok: false, error: { code: 'disconnected', message: 'The background restarted' } });
      pending.clear();
      setTimeout(() => { port = port || connect(); }, 100);
    });
    return next;
  };
  port = connect();
  globalThis.deputyCall = (method, params) => new Promise((resolve) => {
    sequence += 1;
    const id = 'task-cli-' + sequence;
    pending.set(id, resolve);
    port = port || connect();
    port.postMessage({ kind: 'request', id, method, params });
  });
})()`;

/**
 * Drives the background from one of the extension's own pages (the side panel page, opened in a tab), over the same
 * "ui" port the side panel uses: requests with ids, and the task events streamed back into Node.
 */
export class ControlPage {
  private readonly listeners = new Set<(record: TaskRecord) => void>();

  private constructor(readonly page: Page) {}

  static async open(page: Page): Promise<ControlPage> {
    const control = new ControlPage(page);
    await page.exposeFunction('deputyTaskEvent', (data: unknown) => {
      const parsed = TaskRecord.safeParse(data);
      if (parsed.success) for (const listener of control.listeners) listener(parsed.data);
    });
    // Sent as source text: a function would be rewritten by the TypeScript loader (name helpers) that the page lacks.
    await page.evaluate(PAGE_BRIDGE);
    return control;
  }

  onTask(listener: (record: TaskRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async call<K extends keyof UiMethods & string>(method: K, params: ParamsInputOf<UiMethods, K>): Promise<ResultOf<UiMethods, K>> {
    const reply = await this.page.evaluate(
      (m, p) => (globalThis as unknown as { deputyCall: (method: string, params: unknown) => Promise<unknown> }).deputyCall(m, p),
      method,
      params,
    );
    const response = reply as { ok?: boolean; result?: unknown; error?: { code: string; message: string } };
    if (!response.ok) throw new Error(`${response.error?.message ?? 'no answer'} (${response.error?.code ?? 'unknown'})`);
    return response.result as ResultOf<UiMethods, K>;
  }
}
