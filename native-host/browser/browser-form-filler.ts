import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { FormFillResult, Response, type FormFill } from '../../shared/protocol';
import type { FormFiller } from '../loop/trigger-form';
import { TriggerError } from '../loop/trigger-error';
import { launchWithExtension, type ExtensionBrowser, type LaunchOptions } from './launch-browser';

/** The extension page the request is made from: it talks to the background over the same "ui" port as the side panel. */
const CONTROL_PAGE = 'extension/sidepanel/index.html';
/** Starting the browser and loading the page, on top of the time the page may take to confirm the form. */
const MARGIN_MS = 120_000;

/**
 * One request on the background's "ui" channel, made inside an extension page. Sent as source text with the request
 * as JSON, so nothing of this module's compiled code has to exist in the page.
 */
export function uiCallSource(method: string, params: unknown): string {
  return `new Promise((resolve) => {
    const port = chrome.runtime.connect(chrome.runtime.id, { name: 'ui' });
    const id = 'cli-form-' + Math.random().toString(36).slice(2);
    port.onMessage.addListener((message) => {
      if (message && message.kind === 'response' && message.id === id) { port.disconnect(); resolve(message); }
    });
    port.onDisconnect.addListener(() => resolve({ kind: 'response', id, ok: false, error: { code: 'disconnected', message: 'The extension restarted while filling the form' } }));
    port.postMessage({ kind: 'request', id, method: ${JSON.stringify(method)}, params: ${JSON.stringify(params)} });
  })`;
}

/**
 * Fills a web form for `deputy loop` with no browser of the user's running: Chromium is started with the built
 * extension (as `npm run task` does), the extension fills the form in a tab of its own exactly as it does for the side
 * panel's loops, and the browser is closed again. A browser per trigger: nothing stays running during the long wait
 * for the output, and a browser that crashed in one iteration cannot break the next.
 */
export function browserFormFiller(options: { extensionDir: string; launch?: LaunchOptions }): FormFiller {
  return async (request: FormFill, signal) => {
    if (!existsSync(join(options.extensionDir, 'manifest.json'))) {
      throw new TriggerError('unavailable', `Filling a web form needs Deputy's extension, which is not built in ${options.extensionDir}: run npm run build`, false, true);
    }
    let ext: ExtensionBrowser;
    try {
      ext = await launchWithExtension({ ...options.launch, extensionDir: options.extensionDir, protocolTimeoutMs: request.timeoutSeconds * 1000 + MARGIN_MS });
    } catch (error) {
      throw new TriggerError('unavailable', `No browser to fill the form in could be started: ${error instanceof Error ? error.message : String(error)}`, false, true);
    }
    const stop = (): void => void ext.close();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      let page;
      try {
        await ext.worker();
        page = await ext.openExtensionPage(CONTROL_PAGE);
      } catch (error) {
        throw new TriggerError('unavailable', `Deputy's extension did not start in the browser: ${error instanceof Error ? error.message : String(error)}`, false);
      }
      const reply = Response.safeParse(await page.evaluate(uiCallSource('form.fill', request)));
      if (!reply.success) throw new AppError('bad_reply', 'The extension gave no readable answer to form.fill');
      if (!reply.data.ok) throw AppError.fromShape(reply.data.error);
      return FormFillResult.parse(reply.data.result);
    } catch (error) {
      if (signal?.aborted) throw new AppError('cancelled', 'Stopped while the form was being filled');
      throw error;
    } finally {
      signal?.removeEventListener('abort', stop);
      await ext.close();
    }
  };
}
