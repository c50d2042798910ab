/**
 * What the page's own DOM API does not give a content script: closed shadow roots, and a way to name a cross-origin
 * iframe so the background can put that frame's snapshot in its place. The extension passes chrome.dom and frame keys
 * through here; tests and the benchmark pass the open-only defaults.
 */
export interface DomAccess {
  shadowRootOf(el: Element): ShadowRoot | null;
  /** A key that names a cross-origin child frame in this frame's snapshot, or null when it cannot be named. */
  frameKeyOf(frame: Element): string | null;
  /** Whether the page gave the element script listeners for clicks, pointer or keys (see listener-marks.ts). */
  listens?(el: Element): boolean;
  /** Whether `listens` can tell: the page's listeners were searched (a task holds the tab's debugger). */
  listenersKnown?(): boolean;
  /**
   * Whether the page listens on `el` itself while it also holds listened-to elements (an email row that opens on a
   * click and holds star and bin icons): such a container keeps its own number beside theirs.
   */
  delegates?(el: Element): boolean;
  /** Whether such an element is inside `el`. */
  holdsListener?(el: Element): boolean;
}

export const openDomAccess: DomAccess = {
  shadowRootOf: (el) => el.shadowRoot,
  frameKeyOf: () => null,
};

/** The focused element, looking through shadow roots and same-origin frames. */
export function deepActiveElement(doc: Document, access: DomAccess): Element | null {
  let active: Element | null = doc.activeElement;
  for (let depth = 0; active && depth < 32; depth += 1) {
    const root = access.shadowRootOf(active);
    if (root?.activeElement) {
      active = root.activeElement;
      continue;
    }
    if (active.tagName === 'IFRAME' || active.tagName === 'FRAME') {
      const inner = (active as HTMLIFrameElement).contentDocument?.activeElement;
      if (inner && inner !== inner.ownerDocument.body) {
        active = inner;
        continue;
      }
    }
    break;
  }
  return active;
}
