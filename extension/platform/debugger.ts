/**
 * The only code that touches chrome.debugger: attaching to a tab, sending DevTools protocol commands to it, and its
 * events. The rest of the extension gets these narrow functions (see background/input/debugger-session.ts).
 */
export interface DebuggerPorts {
  attach(tabId: number): Promise<void>;
  detach(tabId: number): Promise<void>;
  /** `sessionId` names a child target (a frame in another process, a worker) attached under the tab with flatten. */
  send(tabId: number, method: string, params?: Record<string, unknown>, sessionId?: string): Promise<unknown>;
  /** Tabs some debugger is attached to (ours or another's). */
  attachedTabs(): Promise<number[]>;
  onEvent(listener: (tabId: number, method: string, params: Record<string, unknown>, sessionId?: string) => void): void;
  onDetach(listener: (tabId: number, reason: string) => void): void;
}

/** The protocol version Deputy speaks; any Chrome since 2017 answers to it. */
const PROTOCOL_VERSION = '1.3';

export const chromeDebugger: DebuggerPorts = {
  attach: (tabId) => chrome.debugger.attach({ tabId }, PROTOCOL_VERSION),
  detach: (tabId) => chrome.debugger.detach({ tabId }),
  send: (tabId, method, params, sessionId) => chrome.debugger.sendCommand(sessionId === undefined ? { tabId } : { tabId, sessionId }, method, params),
  attachedTabs: async () => (await chrome.debugger.getTargets()).flatMap((target) => (target.attached && target.tabId !== undefined ? [target.tabId] : [])),
  onEvent: (listener) =>
    chrome.debugger.onEvent.addListener((source, method, params) => {
      if (source.tabId !== undefined) listener(source.tabId, method, params ?? {}, source.sessionId);
    }),
  onDetach: (listener) =>
    chrome.debugger.onDetach.addListener((source, reason) => {
      if (source.tabId !== undefined) listener(source.tabId, reason);
    }),
};

/** Whether this browser offers chrome.debugger at all (a policy or a browser without it leaves it undefined). */
export function hasDebugger(): boolean {
  return typeof chrome !== 'undefined' && typeof chrome.debugger?.attach === 'function';
}
