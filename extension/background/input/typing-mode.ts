/** Sends one DevTools command to the tab (as trusted-input.ts does). */
type Send = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

/** Key events whose listeners mean a page reads typing key by key (a mask, a counter, search as you type). */
const KEY_EVENTS = new Set(['keydown', 'keypress', 'keyup']);
const GROUP = 'deputy-typing-mode';

/**
 * The focused element, through open shadow roots and same-origin frames, with every node above it and its window: the
 * places a key listener for it can sit (on the field, delegated to an ancestor or the document, or on the window).
 * Null when the focus is in a frame of another origin, which this page cannot look into.
 */
const CHAIN = `(() => {
  let el = document.activeElement;
  for (let depth = 0; el && depth < 20; depth += 1) {
    if (el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue; }
    if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
      let inner = null;
      try { inner = el.contentDocument; } catch (e) { inner = null; }
      if (!inner) return null;
      el = inner.activeElement;
      continue;
    }
    break;
  }
  if (!el) return null;
  const chain = [];
  for (let node = el; node; node = node.parentNode || node.host || null) chain.push(node);
  chain.push(el.ownerDocument.defaultView);
  return chain;
})()`;

/** How text goes into the focused field: as one inserted text, or key by key, and why. */
export interface TypingMode {
  keys: boolean;
  /** For the step: "as one inserted text", or "key by key: <why>". */
  note: string;
}

/**
 * Decides how to type into the focused field by asking the page's debugger which key listeners the page has on it,
 * its ancestors, its document and its window (what DevTools shows as event listeners). With none, the text goes in
 * as one insertion (the page still gets beforeinput and input, as from an input method); with any, or when the page
 * cannot be looked into, key by key as a person types.
 */
export async function typingMode(send: Send): Promise<TypingMode> {
  try {
    const evaluated = (await send('Runtime.evaluate', { expression: CHAIN, objectGroup: GROUP })) as { result?: { objectId?: string; subtype?: string } };
    const chain = evaluated.result?.objectId;
    if (!chain) return { keys: true, note: 'key by key: the field is in a frame of another site, whose key handlers cannot be checked' };
    const props = (await send('Runtime.getProperties', { objectId: chain, ownProperties: true })) as { result?: { name: string; value?: { objectId?: string; description?: string } }[] };
    const nodes = (props.result ?? []).filter((p) => /^\d+$/.test(p.name) && p.value?.objectId);
    for (const node of nodes) {
      const found = (await send('DOMDebugger.getEventListeners', { objectId: node.value?.objectId })) as { listeners?: { type: string }[] };
      const key = found.listeners?.find((l) => KEY_EVENTS.has(l.type));
      if (key) return { keys: true, note: `key by key: the page listens for ${key.type} on ${node.value?.description ?? 'the field'}` };
    }
    return { keys: false, note: 'as one inserted text: the page has no key handlers on the field' };
  } catch (error) {
    return { keys: true, note: `key by key: the page's key handlers could not be checked (${String(error).slice(0, 120)})` };
  } finally {
    await send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => undefined);
  }
}
