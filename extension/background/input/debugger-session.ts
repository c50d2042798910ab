import { z } from 'zod';
import type { Logger } from '../../../shared/logger';
import type { DebuggerPorts } from '../../platform/debugger';
import type { Store } from '../../platform/storage';

/** How a step's input reaches the page: trusted (through the debugger) or synthetic DOM events, with the reason. */
export type InputPath = { trusted: true } | { trusted: false; reason: string };

/** `sessionId` is set for an event of a child target (a frame in another process, a worker) attached with flatten. */
export type DebuggerEventListener = (tabId: number, params: Record<string, unknown>, sessionId?: string) => void;

export interface DebuggerSessionDeps {
  /** chrome.debugger, or null where the browser offers none (a policy removed it, another browser). */
  ports: DebuggerPorts | null;
  /** Whether the user allows trusted input (Settings); read at each attach. */
  enabled: () => Promise<boolean>;
  /** Session storage: which tabs this extension holds for which task, so a restarted worker can let go of leftovers. */
  store: Store;
  log: Logger;
}

const OWNERS_KEY = 'debugger-owners';
const Owners = z.record(z.string(), z.string());

/** What each attach turns on: dialogs, downloads and file pickers reported to us, and the page kept focused. */
const SETUP: [method: string, params?: Record<string, unknown>][] = [
  ['Page.enable'],
  // A file picker opened by the agent's click is reported instead of shown: the upload tool answers it, and no native
  // dialog ever waits in front of the user's screen.
  ['Page.setInterceptFileChooserDialog', { enabled: true }],
  // The page believes it has the focus while the task works in it, as it would under a user's hands: clipboard
  // writes and focus-dependent widgets need it, and the user may be looking at another window meanwhile.
  ['Emulation.setFocusEmulationEnabled', { enabled: true }],
];

/** How long one setup command may take before the tab is taken to be one the debugger cannot drive. */
const COMMAND_TIMEOUT_MS = 5000;

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_resolve, reject) => setTimeout(() => reject(new Error(message)), ms))]);
}

interface Held {
  owner: string;
  ready: Promise<InputPath>;
  attached: boolean;
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (/another debugger is already attached/i.test(text)) return 'another debugger is attached to this tab (DevTools or another extension)';
  if (/cannot access|cannot attach|chrome:\/\/|chrome-extension:\/\//i.test(text)) return `the browser does not let extensions debug this page (${text})`;
  return `the debugger could not attach (${text})`;
}

/**
 * The debugger attachments of running tasks: attached to a task's tab for the task (the browser shows its "Deputy
 * started debugging this browser" bar meanwhile) and detached when it ends, whatever the ending. An attachment made by
 * an earlier worker is adopted, and one whose task is gone is let go when the worker starts. Where the debugger cannot
 * attach (another debugger, a policy, trusted input turned off, or the user cancelled the bar) the reason is kept, and
 * actions fall back to synthetic events and say why.
 */
export class DebuggerSessions {
  private readonly held = new Map<number, Held>();
  /** Tasks whose user cancelled the debugging bar: never attached again, so their choice holds for the task. */
  private readonly refused = new Map<string, string>();
  private readonly listeners = new Map<string, Set<DebuggerEventListener>>();
  /** Attachments an earlier worker made, by tab, with their task: adopted by that task, or let go when it has ended. */
  private readonly earlier: Promise<Map<number, string>>;

  constructor(private readonly deps: DebuggerSessionDeps) {
    this.earlier = deps.store.get(OWNERS_KEY, Owners).then(
      (saved) => new Map(Object.entries(saved ?? {}).map(([tab, owner]) => [Number(tab), owner])),
      () => new Map(),
    );
    deps.ports?.onEvent((tabId, method, params, sessionId) => {
      if (!this.held.has(tabId)) return;
      for (const listener of this.listeners.get(method) ?? []) {
        try {
          listener(tabId, params, sessionId);
        } catch (error) {
          deps.log.warn('debugger event listener failed', { method, error: String(error) });
        }
      }
    });
    deps.ports?.onDetach((tabId, reason) => {
      const held = this.held.get(tabId);
      if (!held) return;
      this.held.delete(tabId);
      void this.saveOwners();
      if (reason === 'canceled_by_user') {
        this.refused.set(held.owner, 'you cancelled the browser\'s "started debugging" bar, so Deputy does not debug this task\'s tabs again');
      }
      deps.log.info('debugger detached', { tabId, reason });
      for (const listener of this.listeners.get('detached') ?? []) listener(tabId, { reason });
    });
  }

  /** Listens to one DevTools event of every held tab (or `detached`, when a tab is let go by the browser). */
  on(method: string, listener: DebuggerEventListener): () => void {
    let set = this.listeners.get(method);
    if (!set) {
      set = new Set();
      this.listeners.set(method, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** The task holding the tab's attachment, if any. */
  ownerOf(tabId: number): string | undefined {
    return this.held.get(tabId)?.owner;
  }

  /** Whether any task holds a tab now (only then can a download or a dialog be a task's). */
  holding(): boolean {
    return this.held.size > 0;
  }

  /** Whether trusted input can be sent to the tab right now. */
  isAttached(tabId: number): boolean {
    return this.held.get(tabId)?.attached === true;
  }

  /** Attaches to the tab for the task (once; later calls share the first), or says why it cannot. */
  acquire(owner: string, tabId: number): Promise<InputPath> {
    const held = this.held.get(tabId);
    if (held && held.owner === owner) return held.ready;
    if (held) return Promise.resolve({ trusted: false, reason: 'another Deputy task holds the debugger of this tab' });
    const refused = this.refused.get(owner);
    if (refused) return Promise.resolve({ trusted: false, reason: refused });
    const entry: Held = { owner, attached: false, ready: Promise.resolve({ trusted: false, reason: 'attaching' }) };
    entry.ready = this.attach(tabId, entry);
    this.held.set(tabId, entry);
    return entry.ready;
  }

  private async attach(tabId: number, entry: Held): Promise<InputPath> {
    const ports = this.deps.ports;
    const refuse = (reason: string): InputPath => {
      if (this.held.get(tabId) === entry) this.held.delete(tabId);
      return { trusted: false, reason };
    };
    if (!ports) return refuse('this browser does not offer the debugger to extensions');
    if (!(await this.deps.enabled())) return refuse('trusted input is turned off in Settings');
    let adopted = false;
    try {
      await ports.attach(tabId);
    } catch (error) {
      // An attachment this extension made before the worker restarted is still there, and still ours: commands go
      // through. Anyone else's refuses them.
      if (!/already attached/i.test(String(error)) || !(await this.answers(tabId))) return refuse(reasonOf(error));
      adopted = true;
      this.deps.log.info('debugger attachment adopted', { tabId });
    }
    // An adopted attachment keeps what was turned on for it; turning it on again would wait on a page that a dialog
    // may be holding.
    if (!adopted) {
      try {
        for (const [method, params] of SETUP) await withTimeout(ports.send(tabId, method, params), COMMAND_TIMEOUT_MS, `${method} got no answer`);
      } catch (error) {
        await ports.detach(tabId).catch(() => undefined);
        return refuse(reasonOf(error));
      }
    }
    entry.attached = true;
    (await this.earlier).delete(tabId);
    await this.saveOwners();
    this.deps.log.info('debugger attached', { tabId });
    return { trusted: true };
  }

  private async answers(tabId: number): Promise<boolean> {
    try {
      // Answered by the browser itself, so a page frozen under a dialog cannot hold the question.
      await withTimeout(this.deps.ports?.send(tabId, 'Page.getNavigationHistory') ?? Promise.reject(new Error('no debugger')), COMMAND_TIMEOUT_MS, 'no answer');
      return true;
    } catch {
      return false;
    }
  }

  /** Sends a DevTools command to a held tab; rejects when the tab is not held or the command fails. */
  send(tabId: number, method: string, params?: Record<string, unknown>, sessionId?: string): Promise<unknown> {
    const ports = this.deps.ports;
    if (!ports || !this.isAttached(tabId)) return Promise.reject(new Error(`the debugger is not attached to tab ${tabId}`));
    return ports.send(tabId, method, params, sessionId);
  }

  /** Detaches every tab the task holds; called when the task ends, however it ends. */
  async release(owner: string): Promise<void> {
    this.refused.delete(owner);
    const earlier = await this.earlier;
    const tabs = [...this.held].filter(([, held]) => held.owner === owner).map(([tabId]) => tabId);
    tabs.push(...[...earlier].filter(([, by]) => by === owner).map(([tabId]) => tabId));
    if (tabs.length === 0) return;
    for (const tabId of tabs) {
      this.held.delete(tabId);
      earlier.delete(tabId);
      await this.deps.ports?.detach(tabId).catch(() => undefined);
    }
    await this.saveOwners();
    this.deps.log.info('debugger released', { tabs: tabs.length });
  }

  /**
   * Lets go of attachments an earlier worker made for tasks that are no longer active (a task that ended while the
   * worker was stopped); those of active tasks stay, and their tasks adopt them.
   */
  async sweep(isActive: (owner: string) => Promise<boolean>): Promise<number> {
    const earlier = await this.earlier;
    let released = 0;
    for (const [tabId, owner] of [...earlier]) {
      if (this.held.has(tabId) || (await isActive(owner))) continue;
      earlier.delete(tabId);
      await this.deps.ports?.detach(tabId).catch(() => undefined);
      released += 1;
    }
    await this.saveOwners();
    return released;
  }

  private async saveOwners(): Promise<void> {
    const owners: Record<string, string> = {};
    for (const [tabId, owner] of await this.earlier) owners[String(tabId)] = owner;
    for (const [tabId, held] of this.held) if (held.attached) owners[String(tabId)] = held.owner;
    await this.deps.store.set(OWNERS_KEY, owners);
  }
}

/** How a step names its input path to the model: "trusted input" or "synthetic events: <why>". */
export function describePath(path: InputPath): string {
  return path.trusted ? 'trusted input' : `synthetic events: ${path.reason}`;
}
