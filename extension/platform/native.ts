/** A connection to the native host, wrapping chrome.runtime.connectNative. */
export interface NativePort {
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** `error` is Chrome's reason, e.g. "Specified native messaging host not found.". */
  onDisconnect(listener: (error: string | undefined) => void): void;
  disconnect(): void;
}

export function connectNative(hostName: string): NativePort {
  const port = chrome.runtime.connectNative(hostName);
  return {
    post: (message) => port.postMessage(message),
    onMessage: (listener) => port.onMessage.addListener((message: unknown) => listener(message)),
    onDisconnect: (listener) =>
      port.onDisconnect.addListener(() => {
        // Reading lastError here also keeps Chrome from logging it as unchecked.
        listener(chrome.runtime.lastError?.message);
      }),
    disconnect: () => port.disconnect(),
  };
}
