import { browser } from './browser';

/**
 * The only code that touches the runtime API (through webextension-polyfill's `browser.runtime`; ports and one-shot
 * message listeners through `chrome.runtime`, see below). Everything else in the extension gets these narrow functions.
 */
export function extensionOrigin(): string {
  return new URL(browser.runtime.getURL('/')).origin;
}

/** This copy's extension id: the pinned one when loaded unpacked, another when installed from a store. */
export function extensionId(): string {
  return browser.runtime.id;
}

export function extensionVersion(): string {
  const version: unknown = browser.runtime.getManifest().version;
  return typeof version === 'string' ? version : '0.0.0';
}

export function extensionUrl(path: string): string {
  return browser.runtime.getURL(path);
}

export type Sender = chrome.runtime.MessageSender;

/**
 * A sender is privileged only when it is one of this extension's own pages (side panel, popup, options), never a
 * content script: content scripts share our id but run inside pages we do not control.
 */
export function isPrivilegedSender(sender: Sender | undefined): boolean {
  if (!sender || sender.id !== browser.runtime.id) return false;
  return senderOrigin(sender) === extensionOrigin();
}

function senderOrigin(sender: Sender): string | undefined {
  if (typeof sender.origin === 'string') return sender.origin;
  if (typeof sender.url !== 'string') return undefined;
  try {
    return new URL(sender.url).origin;
  } catch {
    return undefined;
  }
}

/** A content script of ours, in some tab and frame. */
export function isContentScriptSender(sender: Sender | undefined): sender is Sender & { tab: chrome.tabs.Tab } {
  return !!sender && sender.id === browser.runtime.id && sender.tab !== undefined && !isPrivilegedSender(sender);
}

export interface RuntimePort {
  readonly name: string;
  readonly sender: Sender | undefined;
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
  disconnect(): void;
}

/** Ports stay on chrome.runtime: the polyfill hands them through unchanged, and their sender carries Chrome's fields (origin). */
export function wrapPort(port: chrome.runtime.Port): RuntimePort {
  return {
    name: port.name,
    sender: port.sender,
    post: (message) => port.postMessage(message),
    onMessage: (listener) => port.onMessage.addListener((message: unknown) => listener(message)),
    onDisconnect: (listener) => port.onDisconnect.addListener(() => listener()),
    disconnect: () => port.disconnect(),
  };
}

export function onPortConnect(listener: (port: RuntimePort) => void): void {
  chrome.runtime.onConnect.addListener((port) => listener(wrapPort(port)));
}

/** Connects an extension page to the background over a named port. */
export function connectToBackground(name: string): RuntimePort {
  return wrapPort(chrome.runtime.connect(browser.runtime.id, { name }));
}

export function onInstalled(listener: () => void): void {
  browser.runtime.onInstalled.addListener(() => listener());
}

export function onStartup(listener: () => void): void {
  browser.runtime.onStartup.addListener(() => listener());
}

/**
 * One-shot messages (content scripts to the background). The reply is sent through `respond`: this stays on
 * chrome.runtime, whose listeners answer through the callback, where the polyfill's expect a promise instead.
 */
export function onRuntimeMessage(
  listener: (message: unknown, sender: Sender, respond: (reply: unknown) => void) => boolean | undefined,
): void {
  chrome.runtime.onMessage.addListener((message: unknown, sender, respond) => listener(message, sender, respond));
}

export function sendRuntimeMessage(message: unknown): Promise<unknown> {
  return browser.runtime.sendMessage(message);
}
