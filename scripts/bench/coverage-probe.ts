/**
 * Runs in the page (passed to page.evaluate, so it must not use anything from outside its body). Counts the visible
 * interactive elements, by the definition the snapshot promises, and how many of them carry the attribute `mark`
 * themselves or through an ancestor (a child wholly inside a numbered parent is covered by the parent's number). It
 * also counts marked elements that are hidden. It walks documents, open shadow roots and same-origin iframes.
 */
export function coverageProbe(mark: string): { visible: number; covered: number; hiddenMarked: number; missing: string[] } {
  const selector = [
    'a[href]',
    'area[href]',
    'button',
    'input:not([type=hidden])',
    'select',
    'textarea',
    'summary',
    '[onclick]',
    '[contenteditable]:not([contenteditable=false])',
    '[tabindex]:not([tabindex^="-"])',
    ...['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'option', 'combobox', 'textbox', 'slider', 'searchbox', 'spinbutton', 'treeitem'].map(
      (role) => `[role=${role}]`,
    ),
  ].join(',');
  const roots: Array<Document | ShadowRoot> = [document];
  const all: Element[] = [];
  for (let i = 0; i < roots.length; i += 1) {
    const root = roots[i] as Document | ShadowRoot;
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (el.shadowRoot) roots.push(el.shadowRoot);
      if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
        try {
          const doc = (el as HTMLIFrameElement).contentDocument;
          if (doc) roots.push(doc);
        } catch {
          // Cross-origin: not part of this count.
        }
      }
      all.push(el);
    }
  }
  const parentOf = (el: Element): Element | null => {
    if (el.parentElement) return el.parentElement;
    const root = el.getRootNode();
    if (root instanceof ShadowRoot) return root.host;
    return el.ownerDocument.defaultView?.frameElement ?? null;
  };
  const visibleBox = (el: Element): boolean => {
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return false;
    return el.checkVisibility({ visibilityProperty: true });
  };
  const hiddenByAria = (el: Element): boolean => {
    for (let node: Element | null = el; node; node = parentOf(node)) {
      if (node.getAttribute('aria-hidden') === 'true' || node.hasAttribute('inert')) return true;
    }
    return false;
  };
  let visible = 0;
  let covered = 0;
  let hiddenMarked = 0;
  const missing: string[] = [];
  for (const el of all) {
    if (el.hasAttribute(mark) && (!visibleBox(el) || hiddenByAria(el))) {
      hiddenMarked += 1;
      if (missing.length < 8) missing.push(`hidden but numbered: ${el.outerHTML.slice(0, 160)}`);
    }
    if (!el.matches(selector) || !visibleBox(el) || hiddenByAria(el)) continue;
    visible += 1;
    let ok = false;
    for (let node: Element | null = el; node && !ok; node = parentOf(node)) ok = node.hasAttribute(mark);
    if (ok) covered += 1;
    else if (missing.length < 8) missing.push(el.outerHTML.slice(0, 120));
  }
  return { visible, covered, hiddenMarked, missing };
}
