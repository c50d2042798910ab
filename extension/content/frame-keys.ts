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
 * and can have a frame of its own say another frame's key, even before the parent's content script listens (it loads
 * after the page's own scripts may have run, and a frame can say hello first), so a key alone proves nothing. Each
 * claim is therefore bound to the origin the browser stamps on the hello (`event.origin`), and a frame's name is its
 * origin with its key: a frame of the page (or of the attacker's site) that repeats the bank frame's key names
 * `https://attacker key`, which no frame reports, never `https://bank key`. Only a window of the bank's own origin can
 * say that, and the page cannot run script there. Within one origin, a name stays with the first window that said it.
 * The name only places content; it never decides which frame an action goes to (that is the frame id the background
 * recorded with each number).
 */
export class FrameKeys {
  private readonly own: string;
  /** This frame's origin as the browser serializes it (the `event.origin` its parent sees on its hello). */
  private origin = '';
  /** The window that first said each name (a claim's origin and key). */
  private readonly claims = new Map<string, WeakRef<object>>();
  /** Each child window's name (the latest: a frame that navigates starts a new content script with a new key). */
  private readonly names = new WeakMap<object, string>();
  private readonly frames = new Map<string, WeakRef<Element>>();
  private child = false;

  constructor(makeKey: () => string) {
    this.own = makeKey().slice(0, 64);
  }

  /** This frame's own name, its origin and key (none for a top frame, which no parent places). */
  get ownKey(): string | undefined {
    return this.child ? nameOf(this.origin, this.own) : undefined;
  }

  /** Takes child frames' hellos, and says hello to this frame's parent (again whenever the parent asks). */
  listen(win: Window): void {
    this.child = win.parent !== win;
    this.origin = win.origin;
    win.addEventListener(
      'message',
      (event: MessageEvent<unknown>) => {
        const source = event.source;
        const hello = fieldOf(event.data, HELLO);
        if (typeof hello === 'string' && hello.length > 0 && hello.length <= 64 && source !== null && source !== win) {
          const name = nameOf(event.origin, hello);
          const first = this.claims.get(name)?.deref();
          if (first !== undefined && first !== source) return;
          this.claims.set(name, new WeakRef(source));
          this.names.set(source, name);
          return;
        }
        if (fieldOf(event.data, ASK) === true && source === win.parent && win.parent !== win) this.hello(win);
      },
      { capture: true },
    );
    if (win.parent !== win) this.hello(win);
  }

  /** The iframe element whose window said `name`, while it lives and still holds that window. */
  frameOf(name: string): Element | undefined {
    const frame = this.frames.get(name)?.deref();
    const child = (frame as HTMLIFrameElement | undefined)?.contentWindow;
    if (frame?.isConnected && child && this.claims.get(name)?.deref() === child) return frame;
    this.frames.delete(name);
    return undefined;
  }

  /** The name of a child iframe's window, or null until it said hello (it is asked to; the next snapshot has it). */
  keyOf(frame: Element): string | null {
    const child = (frame as HTMLIFrameElement).contentWindow;
    if (!child) return null;
    const name = this.names.get(child);
    if (name === undefined) {
      child.postMessage({ [ASK]: true }, '*');
      return null;
    }
    this.frames.set(name, new WeakRef(frame));
    return name;
  }

  private hello(win: Window): void {
    win.parent.postMessage({ [HELLO]: this.own }, '*');
  }
}

/** A frame's name: its origin (an opaque one is "null") and its key. */
const nameOf = (origin: string, key: string): string => `${origin} ${key}`;
