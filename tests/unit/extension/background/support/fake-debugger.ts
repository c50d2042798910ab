import type { DebuggerPorts } from '../../../../../extension/platform/debugger';

/** chrome.debugger stand-in: records attaches and commands, refuses what the test says, and fires events and detaches. */
export function fakeDebugger(options: { refuse?: (tabId: number) => string | undefined } = {}) {
  const attached = new Set<number>();
  const commands: { tabId: number; method: string; params?: Record<string, unknown> }[] = [];
  const events: ((tabId: number, method: string, params: Record<string, unknown>) => void)[] = [];
  const detaches: ((tabId: number, reason: string) => void)[] = [];
  const ports: DebuggerPorts = {
    attach: (tabId) => {
      const refusal = options.refuse?.(tabId);
      if (refusal) return Promise.reject(new Error(refusal));
      if (attached.has(tabId)) return Promise.reject(new Error(`Another debugger is already attached to the tab with id: ${tabId}.`));
      attached.add(tabId);
      return Promise.resolve();
    },
    detach: (tabId) => {
      attached.delete(tabId);
      return Promise.resolve();
    },
    send: (tabId, method, params) => {
      if (!attached.has(tabId)) return Promise.reject(new Error(`Debugger is not attached to the tab with id: ${tabId}.`));
      commands.push({ tabId, method, ...(params ? { params } : {}) });
      return Promise.resolve({});
    },
    attachedTabs: () => Promise.resolve([...attached]),
    onEvent: (listener) => void events.push(listener),
    onDetach: (listener) => void detaches.push(listener),
  };
  return {
    ports,
    attached,
    commands,
    fire: (tabId: number, method: string, params: Record<string, unknown> = {}) => events.forEach((listener) => listener(tabId, method, params)),
    /** The browser detaches (the user cancelled the bar, or the tab closed). */
    detach: (tabId: number, reason: string) => {
      attached.delete(tabId);
      detaches.forEach((listener) => listener(tabId, reason));
    },
  };
}
