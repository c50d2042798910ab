import type { Page } from 'puppeteer-core';
import type { ParamsInputOf, ResultOf, UiMethods } from '../../../shared/protocol';

/**
 * Calls a method on the background's "ui" channel from inside an extension page, exactly as the side panel does:
 * a runtime port named "ui", a request with an id, and the matching response.
 */
export async function uiCall<K extends keyof UiMethods & string>(
  page: Page,
  method: K,
  params: ParamsInputOf<UiMethods, K>,
): Promise<ResultOf<UiMethods, K>> {
  const reply = await page.evaluate(
    (method, params) =>
      new Promise<{ ok: boolean; result?: unknown; error?: { code: string; message: string } }>((resolve) => {
        const port = chrome.runtime.connect(chrome.runtime.id, { name: 'ui' });
        const id = `test-${Math.random().toString(36).slice(2)}`;
        port.onMessage.addListener((message: { kind?: string; id?: string; ok?: boolean; result?: unknown; error?: { code: string; message: string } }) => {
          if (message.kind !== 'response' || message.id !== id) return;
          port.disconnect();
          resolve({ ok: message.ok === true, result: message.result, error: message.error });
        });
        // A worker stopped while the request was on its way never answers it: say so instead of waiting forever.
        port.onDisconnect.addListener(() => resolve({ ok: false, error: { code: 'disconnected', message: 'the background went away before answering' } }));
        port.postMessage({ kind: 'request', id, method, params });
      }),
    method,
    params,
  );
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error?.code}: ${reply.error?.message}`);
  return reply.result as ResultOf<UiMethods, K>;
}
