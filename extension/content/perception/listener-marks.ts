/**
 * Elements the page gave script listeners for clicks, pointer or keys (a `<span>` that acts as a button, a board's
 * cells, an SVG shape), as the background found them through the debugger's view of event listeners
 * (background/page/listener-marks.ts). That search runs in the page's own world, where the listeners are; it hands
 * each element over by dispatching a `deputy-listens` event on it, which this (isolated) world catches first, at the
 * window, and keeps from the page. Each search begins with `deputy-listeners-begin`, which forgets the last one.
 *
 * A page can send these events itself; all it gains is a number for one of its own elements, which any visible
 * element with a pointer cursor gets too.
 */
export const LISTENS_EVENT = 'deputy-listens';
export const BEGIN_EVENT = 'deputy-listeners-begin';
/** Handed over for a listened-to element that holds other listened-to elements (not numbered for that alone). */
export const CONTAINER_EVENT = 'deputy-listens-container';

export class ListenerMarks {
  private marked = new Set<Element>();
  private containers = new Set<Element>();
  private searched = false;

  /** Starts catching the hand-over in this window. */
  listen(win: Window): void {
    win.addEventListener(
      BEGIN_EVENT,
      (event) => {
        event.stopImmediatePropagation();
        this.marked = new Set();
        this.containers = new Set();
        this.searched = true;
      },
      { capture: true },
    );
    win.addEventListener(
      LISTENS_EVENT,
      (event) => {
        event.stopImmediatePropagation();
        // composedPath's first entry is the element itself, also inside an open shadow root.
        const target = event.composedPath()[0];
        if (target instanceof Element) this.marked.add(target);
      },
      { capture: true },
    );
    win.addEventListener(
      CONTAINER_EVENT,
      (event) => {
        event.stopImmediatePropagation();
        const target = event.composedPath()[0];
        if (target instanceof Element) this.containers.add(target);
      },
      { capture: true },
    );
  }

  /** Whether this document was searched at all: before that, no element is known to listen or not to. */
  known(): boolean {
    return this.searched;
  }

  delegates(el: Element): boolean {
    return this.containers.has(el);
  }

  has(el: Element): boolean {
    return this.marked.has(el);
  }

  /** Whether a marked element is inside `el` (an SVG drawing is read into only then). */
  holdsAny(el: Element): boolean {
    for (const marked of this.marked) if (marked !== el && el.contains(marked)) return true;
    return false;
  }
}
