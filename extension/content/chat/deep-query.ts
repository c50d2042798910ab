/** Returns an element's shadow root, open or closed (the platform can read closed ones; the page cannot). */
export type ShadowRootOf = (element: Element) => ShadowRoot | null;

/** The DOM of one frame as the chat code sees it: the document and every shadow root inside it, nested ones too. */
export interface DeepDom {
  roots: (Document | ShadowRoot)[];
  elements: number;
  queryAll(selector: string): Element[];
  query(selector: string): Element | null;
}

/**
 * Walks the frame once and remembers every shadow root, so a selector can be tried in each of them. Widgets such as
 * Salesforce's and deep-chat render inside shadow roots that `document.querySelector` never enters.
 */
export function deepDom(doc: Document, shadowRootOf: ShadowRootOf, limit = 50_000): DeepDom {
  const roots: (Document | ShadowRoot)[] = [doc];
  let elements = 0;
  const walk = (root: Document | ShadowRoot): void => {
    const walker = doc.createTreeWalker(root, 1 /* NodeFilter.SHOW_ELEMENT */);
    for (let node = walker.nextNode(); node && elements < limit; node = walker.nextNode()) {
      elements += 1;
      const shadow = shadowRootOf(node as Element);
      if (shadow) {
        roots.push(shadow);
        walk(shadow);
      }
    }
  };
  walk(doc);
  const queryAll = (selector: string): Element[] => {
    const found: Element[] = [];
    for (const root of roots) {
      try {
        found.push(...root.querySelectorAll(selector));
      } catch {
        // A selector this engine cannot parse matches nothing rather than stopping the whole probe.
        return [];
      }
    }
    return found;
  };
  return { roots, elements, queryAll, query: (selector) => queryAll(selector)[0] ?? null };
}

/** Finds the first element that any selector matches, in the order the selectors are given. */
export function firstMatch(dom: DeepDom, selectors: readonly string[], accept: (element: Element) => boolean = () => true): Element | null {
  for (const selector of selectors) {
    const hit = dom.queryAll(selector).find(accept);
    if (hit) return hit;
  }
  return null;
}

/** Elements below `scope`, including those inside shadow roots attached below it. */
export function deepQueryWithin(scope: Element | Document | ShadowRoot, selector: string, shadowRootOf: ShadowRootOf): Element[] {
  const found: Element[] = [];
  const visit = (root: Element | Document | ShadowRoot): void => {
    try {
      found.push(...root.querySelectorAll(selector));
    } catch {
      return;
    }
    for (const element of root.querySelectorAll('*')) {
      const shadow = shadowRootOf(element);
      if (shadow) visit(shadow);
    }
    if (root instanceof Element) {
      const own = shadowRootOf(root);
      if (own) visit(own);
    }
  };
  visit(scope);
  return [...new Set(found)];
}

/** The parent of an element, stepping out of a shadow root to its host. */
export function composedParent(element: Element): Element | null {
  if (element.parentElement) return element.parentElement;
  const root = element.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** `contains` that crosses shadow boundaries: whether `inner` is `outer` or below it in the composed tree. */
export function composedContains(outer: Element, inner: Element): boolean {
  for (let current: Element | null = inner; current; current = composedParent(current)) if (current === outer) return true;
  return false;
}

/** `closest` that crosses shadow boundaries on the way up. */
export function composedClosest(element: Element, selector: string): Element | null {
  for (let current: Element | null = element; current; current = composedParent(current)) {
    try {
      if (current.matches(selector)) return current;
    } catch {
      return null;
    }
  }
  return null;
}

/** Whether the user could see the element: rendered, not hidden, and this frame itself has a size. */
export function isShown(element: Element): boolean {
  const view = element.ownerDocument.defaultView;
  if (view && (view.innerWidth === 0 || view.innerHeight === 0)) return false;
  if (typeof element.checkVisibility === 'function') {
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
  }
  const rect = element.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0;
}

/** Visible text with runs of white space folded, as the user would read it. */
export function readableText(element: Element): string {
  const text = element instanceof HTMLElement ? element.innerText : (element.textContent ?? '');
  return text.replace(/\s+/g, ' ').trim();
}
