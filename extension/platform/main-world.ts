/**
 * Code that must run in the page's own JavaScript world: page globals (a vendor's `Intercom`, `zE`, `$crisp`) are
 * invisible from the content script's isolated world. The functions passed to executeScript are serialized, so each
 * is self-contained and takes plain data only.
 */
export interface FrameGlobals {
  frameId: number;
  found: string[];
}

export interface PageCallResult {
  called: boolean;
  error: string | null;
}

function presentGlobals(wanted: string[]): string[] {
  return wanted.filter((path) => {
    let value: unknown = globalThis;
    for (const key of path.split('.')) {
      if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
      try {
        value = (value as Record<string, unknown>)[key];
      } catch {
        return false;
      }
    }
    return value !== undefined && value !== null;
  });
}

function callByPath(keys: string[], callArgs: unknown[]): PageCallResult {
  let owner: unknown = undefined;
  let value: unknown = globalThis;
  for (const key of keys) {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
      return { called: false, error: `${keys.join('.')} is not defined in the page` };
    }
    owner = value;
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value !== 'function') return { called: false, error: `${keys.join('.')} is not a function in the page` };
  try {
    (value as (...rest: unknown[]) => unknown).apply(owner, callArgs);
    return { called: true, error: null };
  } catch (error) {
    return { called: false, error: String(error) };
  }
}

// chrome-types declares `func` as taking no arguments although `args` are passed to it; the casts below only restate
// the documented signature.
export type InjectedFunc = () => void;

/** Which of `paths` (dotted, e.g. `$zoho.salesiq`) exist as non-null values in each frame of the tab. */
export async function readPageGlobals(tabId: number, paths: string[], timeoutMs = 3000): Promise<FrameGlobals[]> {
  // Injected at once, not at document_idle: one frame that never finishes loading would otherwise hold every answer.
  const reading = chrome.scripting
    .executeScript({
      target: { tabId, allFrames: true },
      world: 'MAIN',
      args: [paths],
      func: presentGlobals as unknown as InjectedFunc,
      injectImmediately: true,
    })
    .then((results) => results.map((result) => ({ frameId: result.frameId, found: Array.isArray(result.result) ? (result.result as string[]) : [] })));
  const giveUp = new Promise<FrameGlobals[]>((resolve) => setTimeout(() => resolve([]), timeoutMs));
  return Promise.race([reading, giveUp]);
}

/**
 * Calls a page function named by a path from globalThis, with plain-data arguments and its parent object as `this`
 * (so `drift.api.openChat()` keeps its receiver). Nothing is evaluated from strings.
 */
export async function callPageFunction(tabId: number, frameId: number, path: string[], args: unknown[]): Promise<PageCallResult> {
  const [first] = await chrome.scripting.executeScript({
    target: { tabId, frameIds: [frameId] },
    world: 'MAIN',
    args: [path, args],
    func: callByPath as unknown as InjectedFunc,
    injectImmediately: true,
  });
  const result = first?.result as PageCallResult | undefined;
  return result ?? { called: false, error: 'The frame did not run the call' };
}
