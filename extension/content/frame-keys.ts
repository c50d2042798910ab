const MESSAGE_FIELD = 'deputyFrameKey';

/**
 * Names cross-origin child frames so the background can stitch their snapshots into their parent's. A parent cannot
 * learn a child frame's id from the iframe element in Chrome, so it posts the child a random key, shows the key where
 * the iframe is, and the child reports the key it was given with its own snapshot. The key only places content; it
 * never decides which frame an action goes to (that is the frame id the background recorded with each number).
 */
export class FrameKeys {
  private readonly keys = new WeakMap<Element, string>();
  private readonly frames = new Map<string, WeakRef<Element>>();
  private given: string | undefined;

  constructor(private readonly makeKey: () => string) {}

  /** The key this frame's parent gave it, if any arrived yet. */
  get ownKey(): string | undefined {
    return this.given;
  }

  /** Listens for the key from this frame's parent; messages from anywhere else are ignored. */
  listen(win: Window): void {
    win.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (event.source !== win.parent || win.parent === win) return;
      const data = event.data;
      if (typeof data === 'object' && data !== null && MESSAGE_FIELD in data) {
        const key = (data as Record<string, unknown>)[MESSAGE_FIELD];
        if (typeof key === 'string' && key.length <= 64) this.given = key;
      }
    });
  }

  /** The iframe element this frame gave `key` to, while it lives. */
  frameOf(key: string): Element | undefined {
    const frame = this.frames.get(key)?.deref();
    if (frame && !frame.isConnected) this.frames.delete(key);
    return frame?.isConnected ? frame : undefined;
  }

  /** The key for a child iframe, posted to it again each time in case it navigated and lost it. */
  keyOf(frame: Element): string | null {
    const child = (frame as HTMLIFrameElement).contentWindow;
    if (!child) return null;
    let key = this.keys.get(frame);
    if (!key) {
      key = this.makeKey();
      this.keys.set(frame, key);
      this.frames.set(key, new WeakRef(frame));
    }
    child.postMessage({ [MESSAGE_FIELD]: key }, '*');
    return key;
  }
}
