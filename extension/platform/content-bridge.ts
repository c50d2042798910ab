/**
 * The content script's one bridge to the background: requests arrive through chrome.runtime.onMessage and are
 * accepted only from the extension itself (the background sends with no tab), never from a page or another frame.
 */
export function onBackgroundRequest(handler: (message: unknown) => Promise<unknown> | undefined): void {
  chrome.runtime.onMessage.addListener((message: unknown, sender, respond) => {
    if (sender.id !== chrome.runtime.id || sender.tab !== undefined) return false;
    const reply = handler(message);
    if (!reply) return false;
    void reply.then(respond);
    return true;
  });
}

/** Sends one request from the content script to the background and returns its reply (the input relay). */
export function askBackground(message: unknown): Promise<unknown> {
  return chrome.runtime.sendMessage(message) as Promise<unknown>;
}
