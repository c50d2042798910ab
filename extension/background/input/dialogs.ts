import { z } from 'zod';
import { ObservedDialog } from '../../../shared/agent/environment';
import type { Store } from '../../platform/storage';
import type { DebuggerSessions } from './debugger-session';
import { TabWaiters } from './tab-waiters';

export type OpenDialog = ObservedDialog & { openedAt: number };

const STORE_KEY = 'open-dialogs';
const Saved = z.record(z.string(), ObservedDialog.extend({ openedAt: z.number() }));

export interface DialogWatchDeps {
  sessions: DebuggerSessions;
  /** Session storage: a dialog outlives a restart of the worker (the page stays frozen under it). */
  store: Store;
  now: () => number;
}

function dialogType(value: unknown): OpenDialog['type'] {
  return value === 'confirm' || value === 'prompt' || value === 'beforeunload' ? value : 'alert';
}

/**
 * The JavaScript dialogs (alert, confirm, prompt, beforeunload) open in tabs that tasks hold, as the debugger reports
 * them. A page under such a dialog is frozen: nothing on it runs or answers until the dialog is answered, so the task
 * shows the dialog to the model instead of the page, and the dialog tool answers it. The action that opened it is kept,
 * so its result (what the page did once the dialog closed) reaches the model with the answer.
 */
export class DialogWatch {
  private readonly open = new Map<number, OpenDialog>();
  private readonly waiters = new TabWaiters<OpenDialog>();
  private readonly interrupted = new Map<number, Promise<unknown>>();
  private readonly loaded: Promise<void>;

  constructor(private readonly deps: DialogWatchDeps) {
    this.loaded = deps.store.get(STORE_KEY, Saved).then(
      (saved) => {
        for (const [tab, dialog] of Object.entries(saved ?? {})) if (!this.open.has(Number(tab))) this.open.set(Number(tab), dialog);
      },
      () => undefined,
    );
    deps.sessions.on('Page.javascriptDialogOpening', (tabId, params) => {
      const dialog: OpenDialog = {
        type: dialogType(params.type),
        message: typeof params.message === 'string' ? params.message.slice(0, 2000) : '',
        defaultPrompt: typeof params.defaultPrompt === 'string' ? params.defaultPrompt.slice(0, 500) : '',
        url: typeof params.url === 'string' ? params.url : '',
        openedAt: deps.now(),
      };
      this.open.set(tabId, dialog);
      void this.save();
      this.waiters.settle(tabId, dialog);
    });
    const closed = (tabId: number): void => {
      if (!this.open.delete(tabId)) return;
      void this.save();
    };
    deps.sessions.on('Page.javascriptDialogClosed', (tabId) => closed(tabId));
    // The browser answers an open dialog itself when its debugger goes (and a closed tab has none left).
    deps.sessions.on('detached', (tabId) => closed(tabId));
  }

  /** The dialog open on the tab, if any (after a worker restart too). */
  async current(tabId: number): Promise<OpenDialog | undefined> {
    await this.loaded;
    return this.open.get(tabId);
  }

  /** Settles when a dialog opens on the tab; cancel() stops waiting. */
  whenOpened(tabId: number): { opened: Promise<OpenDialog>; cancel(): void } {
    const { value, cancel } = this.waiters.next(tabId);
    return { opened: value, cancel };
  }

  /** Records the element whose action opened the dialog, for the policy gate and the model. */
  setCause(tabId: number, cause: NonNullable<OpenDialog['causedBy']>): void {
    const dialog = this.open.get(tabId);
    if (!dialog) return;
    dialog.causedBy = cause;
    void this.save();
  }

  /** Keeps the result of the action the dialog interrupted, to report it once the dialog is answered. */
  holdInterrupted(tabId: number, result: Promise<unknown>): void {
    this.interrupted.set(tabId, result);
  }

  takeInterrupted(tabId: number): Promise<unknown> | undefined {
    const result = this.interrupted.get(tabId);
    this.interrupted.delete(tabId);
    return result;
  }

  /** Accepts or dismisses the tab's dialog (a prompt accepted with `text` gets that answer). */
  async answer(tabId: number, accept: boolean, text?: string): Promise<void> {
    await this.deps.sessions.send(tabId, 'Page.handleJavaScriptDialog', { accept, ...(text === undefined ? {} : { promptText: text }) });
    this.open.delete(tabId);
    await this.save();
  }

  private save(): Promise<void> {
    return this.deps.store.set(STORE_KEY, Object.fromEntries([...this.open].map(([tabId, dialog]) => [String(tabId), dialog])));
  }
}
