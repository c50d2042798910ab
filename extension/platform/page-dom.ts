/**
 * What content scripts may ask the browser about the page that the page itself cannot: closed shadow roots and the
 * extension frame id of a child frame.
 */
export function openOrClosedShadowRoot(element: Element): ShadowRoot | null {
  if (!(element instanceof HTMLElement)) return null;
  if (typeof chrome.dom?.openOrClosedShadowRoot !== 'function') return element.shadowRoot;
  const root: unknown = chrome.dom.openOrClosedShadowRoot(element);
  return root instanceof ShadowRoot ? root : null;
}

interface RuntimeWithFrameId {
  getFrameId?: (target: Element | Window) => number;
}

/**
 * The frame id (as chrome.tabs and chrome.scripting know it) of the frame an iframe element holds, or null when the
 * frame has not loaded or the browser is older than Chrome 106. chrome-types does not declare runtime.getFrameId yet.
 */
export function frameIdOf(frame: HTMLIFrameElement | HTMLFrameElement): number | null {
  const runtime = chrome.runtime as unknown as RuntimeWithFrameId;
  if (typeof runtime.getFrameId !== 'function') return null;
  try {
    const id = runtime.getFrameId(frame);
    return id >= 0 ? id : null;
  } catch {
    return null;
  }
}
