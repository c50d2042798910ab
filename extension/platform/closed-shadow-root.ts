/**
 * A shadow root, open or closed, for the snapshot walk. Closed roots only open to an extension's content script
 * (chrome.dom.openOrClosedShadowRoot); that call crosses into the extension bindings, which costs too much to make for
 * each of a large page's ten thousand elements, so it is made only for custom elements, the hosts of closed roots in
 * practice (attachShadow on a built-in element such as a div is allowed but rare).
 */
export function closedShadowRootOf(el: Element): ShadowRoot | null {
  const open = el.shadowRoot;
  if (open) return open;
  if (!el.tagName.includes('-') || !(el instanceof HTMLElement) || typeof chrome.dom?.openOrClosedShadowRoot !== 'function') return null;
  try {
    const root: unknown = chrome.dom.openOrClosedShadowRoot(el);
    return root instanceof ShadowRoot ? root : null;
  } catch {
    return null;
  }
}
