const HELLO = 'deputyFrameHello';
const ASK = 'deputyFrameAsk';

const fieldOf = (data: unknown, field: string): unknown => (typeof data === 'object' && data !== null && field in data ? (data as Record<string, unknown>)[field] : undefined);

/**
 * Names cross-origin child frames so the background can stitch their snapshots into their parent's and place input in
 * them. A parent cannot learn a child frame's id from the iframe element in Chrome, so each frame's content script
 * makes its own random key, reports it with its snapshot, and says it to its parent in a hello; the parent shows the
 * key where the iframe is whose window sent that hello.
 *
 * No page script can change where a frame is placed. A frame's key is its own and nothing it receives changes it (the
 * parent once posted keys to its children, which the top page could post too, handing one frame another's key). The
 * parent tells which iframe said hello by the message's `source`, which the browser sets. A page can read the hellos,
 * and can have a frame of its own claim another frame's key; but the real claim reaches the parent's content script
 * first (it listens from document start, before any child frame exists, and a page learns a key only from that
 * hello), so a key stays with the first window that claimed it, and a later claim from any other window is ignored.
 * The key only places content; it never decides which frame an action goes to (that is the frame id the background
 * recorded with each number).
 */
export class FrameKeys {
  private readonly own: string;
  /** The window that first said each key. */
  private readonly claims = new Map<string, WeakRef<object>>();
  /** Each child window's key (the latest: a frame that navigates starts a new content script with a new key). */
  private readonly keys = new WeakMap<object, string>();
  private readonly frames = new Map<string, WeakRef<Element>>();
  private child = false;

  constructor(makeKey: () => string) {
    this.own = makeKey().slice(0, 64);
  }

  /** This frame's own key (none for a top frame, which no parent places). */
  get ownKey(): string | undefined {
    return this.child ? this.own : undefined;
  }

  /** Takes child frames' hellos, and says hello to this frame's parent (again whenever the parent asks). */
  listen(win: Window): void {
    this.child = win.parent !== win;
    win.addEventListener(
      'message',
      (event: MessageEvent<unknown>) => {
        const source = event.source;
        const hello = fieldOf(event.data, HELLO);
        if (typeof hello === 'string' && hello.length > 0 && hello.length <= 64 && source !== null && source !== win) {
          const first = this.claims.get(hello)?.deref();
          if (first !== undefined && first !== source) return;
          this.claims.set(hello, new WeakRef(source));
          this.keys.set(source, hello);
          return;
        }
        if (fieldOf(event.data, ASK) === true && source === win.parent && win.parent !== win) this.hello(win);
      },
      { capture: true },
    );
    if (win.parent !== win) this.hello(win);
  }

  /** The iframe element whose window said `key`, while it lives and still holds that window. */
  frameOf(key: string): Element | undefined {
    const frame = this.frames.get(key)?.deref();
    const child = (frame as HTMLIFrameElement | undefined)?.contentWindow;
    if (frame?.isConnected && child && this.claims.get(key)?.deref() === child) return frame;
    this.frames.delete(key);
    return undefined;
  }

  /** The key of a child iframe's window, or null until it said hello (it is asked to; the next snapshot has it). */
  keyOf(frame: Element): string | null {
    const child = (frame as HTMLIFrameElement).contentWindow;
    if (!child) return null;
    const key = this.keys.get(child);
    if (key === undefined) {
      child.postMessage({ [ASK]: true }, '*');
      return null;
    }
    this.frames.set(key, new WeakRef(frame));
    return key;
  }

  private hello(win: Window): void {
    win.parent.postMessage({ [HELLO]: this.own }, '*');
  }
}
