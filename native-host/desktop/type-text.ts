import type { DesktopDriver } from './desktop-driver';
import type { KeyName } from './key-chord';

/** Longer text is pasted: typing it key by key is slow and a single dropped key corrupts it. */
export const PASTE_ABOVE_CHARS = 40;

/** How long the target application gets to read the clipboard before the user's own content is put back. */
export const PASTE_SETTLE_MS = 250;

/**
 * Text with characters outside printable ASCII (accents, other scripts, emoji) cannot be typed reliably as key presses
 * on an arbitrary keyboard layout, so it goes through the clipboard, as does long text.
 */
export function typingMethod(text: string): 'keys' | 'paste' {
  return text.length > PASTE_ABOVE_CHARS || /[^\x20-\x7e\n\t]/.test(text) ? 'paste' : 'keys';
}

export interface TypeTextDeps {
  driver: DesktopDriver;
  platform: NodeJS.Platform;
  signal: AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Enters text into the focused window. Key by key, it checks for a stop between short runs so the stop hotkey cuts a
 * long text off at once. By paste, it puts the text on the clipboard, presses the paste chord, and restores what the
 * user had on the clipboard, whatever happens in between.
 */
export async function typeText(text: string, deps: TypeTextDeps): Promise<'keys' | 'paste'> {
  const method = typingMethod(text);
  if (method === 'keys') {
    for (let start = 0; start < text.length; start += 8) {
      deps.signal.throwIfAborted();
      await deps.driver.typeText(text.slice(start, start + 8));
    }
    return method;
  }
  const saved = await deps.driver.readClipboard();
  const paste: KeyName[] = deps.platform === 'darwin' ? ['LeftSuper', 'V'] : ['LeftControl', 'V'];
  try {
    await deps.driver.writeClipboard(text);
    deps.signal.throwIfAborted();
    await deps.driver.pressChord(paste);
    // Not cancellable: the application must be given the time to read the clipboard before it is restored.
    await deps.sleep(PASTE_SETTLE_MS);
  } finally {
    await deps.driver.writeClipboard(saved);
  }
  return method;
}
