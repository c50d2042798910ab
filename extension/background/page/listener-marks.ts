/**
 * Finds the elements a page listens to for clicks, pointer or keys through the debugger's view of event listeners
 * (DOMDebugger.getEventListeners), and hands them to
 * the content script (content/perception/listener-marks.ts), whose snapshot then numbers them: a `<span>` that acts as
 * a button, a board's cells, a colour swatch, an SVG shape. Only the top frame is searched.
 *
 * Noise left out: listeners on the window, the document, <html> and <body> (a page's delegation: they would number
 * the whole page), and a listened-to element that holds controls or other listened-to elements (a container that
 * delegates to what it holds is not itself the thing to press), as is one with two or more children that have words of their own (a
 * sortable list, a menu). The search stops at a time limit on a very large page
 * and numbers what it found so far.
 */
export const LISTENER_TYPES = ['click', 'dblclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'keydown', 'keyup', 'keypress', 'touchstart', 'touchend'];

/** How many listened-to elements one search hands over at most (each costs a round trip to resolve). */
export const MAX_LISTENED = 1500;

/** How long the search may take, in milliseconds. */
export const LISTENER_SEARCH_MS = 400;

const GROUP = 'deputy-listeners';
const RESOLVE_BATCH = 250;

/**
 * Runs in the page's main world on the elements found (as arguments): leaves out the page's own root elements and the
 * containers that delegate to what they hold, and hands the rest to the content script.
 */
const HAND_OVER = `function (...found) {
  const set = new Set(found);
  const containers = new Set();
  for (const el of found) {
    for (let up = el.parentElement; up; up = up.parentElement) if (set.has(up)) containers.add(up);
  }
  const CONTROLS = 'a[href], button, input, select, textarea, [role=button], [role=link], [onclick]';
  document.dispatchEvent(new CustomEvent('deputy-listeners-begin', { bubbles: true }));
  let marked = 0;
  for (const el of found) {
    if (!(el instanceof Element) || el === document.documentElement || el === document.body) continue;
    if (containers.has(el)) {
      el.dispatchEvent(new CustomEvent('deputy-listens-container', { bubbles: true, composed: true }));
      continue;
    }
    if (el.querySelector(CONTROLS)) continue;
    // A list that handles its items' events itself (a sortable list, a menu): two or more children with their own
    // words are the things to press, not the list; the snapshot numbers them by their own signs.
    if ([...el.children].filter((child) => (child.textContent || '').trim() !== '').length >= 2) continue;
    el.dispatchEvent(new CustomEvent('deputy-listens', { bubbles: true, composed: true }));
    marked += 1;
  }
  return marked;
}`;

export interface ListenerSearch {
  marked: number;
  listened: number;
  complete: boolean;
}

type Send = (method: string, params: Record<string, unknown>) => Promise<unknown>;

/**
 * Searches the tab's top frame through a held debugger (`send`): DOMDebugger.getEventListeners over the whole
 * document (shadow trees included) gives each listener's node; the nodes of the click, pointer and key listeners are
 * resolved in the page's world and handed over. Null when the page did not answer.
 */
export async function markListeners(send: Send, now: () => number = Date.now): Promise<ListenerSearch | null> {
  const started = now();
  const doc = (await send('Runtime.evaluate', { expression: 'document', objectGroup: GROUP, silent: true })) as { result?: { objectId?: string } };
  const docId = doc.result?.objectId;
  if (!docId) return null;
  try {
    const { listeners = [] } = (await send('DOMDebugger.getEventListeners', { objectId: docId, depth: -1, pierce: true })) as {
      listeners?: { type: string; backendNodeId?: number }[];
    };
    const nodes = [...new Set(listeners.filter((l) => LISTENER_TYPES.includes(l.type) && l.backendNodeId !== undefined).map((l) => l.backendNodeId as number))];
    const objects: { objectId: string }[] = [];
    let complete = nodes.length <= MAX_LISTENED;
    // Resolved many at a time: each is a round trip through the debugger, and one after another they take too long.
    const wanted = nodes.slice(0, MAX_LISTENED);
    for (let at = 0; at < wanted.length; at += RESOLVE_BATCH) {
      // The first batch is always resolved: the hand-over replaces the last search's marks, so a search that ran out
      // of time before resolving anything (the listeners' listing alone can take that long on a busy machine) would
      // leave the page with no listened-to element numbered at all.
      if (at > 0 && now() - started > LISTENER_SEARCH_MS) {
        complete = false;
        break;
      }
      const batch = await Promise.all(
        wanted.slice(at, at + RESOLVE_BATCH).map(
          (backendNodeId) => send('DOM.resolveNode', { backendNodeId, objectGroup: GROUP }).catch(() => null) as Promise<{ object?: { objectId?: string } } | null>,
        ),
      );
      for (const resolved of batch) if (resolved?.object?.objectId) objects.push({ objectId: resolved.object.objectId });
    }
    const handed = (await send('Runtime.callFunctionOn', { objectId: docId, functionDeclaration: HAND_OVER, arguments: objects, returnByValue: true, silent: true })) as {
      result?: { value?: unknown };
    };
    return { marked: typeof handed.result?.value === 'number' ? handed.result.value : 0, listened: nodes.length, complete };
  } finally {
    await send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => undefined);
  }
}
