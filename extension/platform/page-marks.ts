import type { InjectedFunc } from './main-world';

/**
 * Every mark Deputy draws on a page, and how it takes them back. An element an approval card is about carries
 * `data-deputy-highlight` and an orange outline, with its own outline kept in `data-deputy-outline-was` so it can be
 * given back exactly; the controlled tab's frame is a `deputy-tab-marker` element (see tab-marker.ts).
 */
export const HIGHLIGHT_ATTR = 'data-deputy-highlight';
export const OUTLINE_WAS_ATTR = 'data-deputy-outline-was';
const MARKER_TAG = 'deputy-tab-marker';

/**
 * What to do with the marks in each frame of a tab: the frame as asked, and the highlights taken back, except when the
 * frame is shown again after a capture. That runs beside the next action and any approval card (withoutPageMarks), so
 * a highlight on the page by then is a card's that came after the capture, and stays.
 */
type FrameMode = 'remove' | 'hide' | 'show' | 'keep';

/**
 * Runs in the page (serialized: self-contained, plain data only). When it hid something, it answers once the page has
 * drawn that (two rendered frames), so a capture that follows does not catch the old frame; true when it did.
 */
async function applyMarks(highlightAttr: string, wasAttr: string, tag: string, frame: FrameMode): Promise<boolean> {
  let changed = false;
  const highlights = frame === 'show' ? [] : Array.from(document.querySelectorAll(`[${highlightAttr}]`));
  for (const el of highlights) {
    changed = true;
    if (el instanceof HTMLElement || el instanceof SVGElement) el.style.outline = el.getAttribute(wasAttr) ?? '';
    el.removeAttribute(highlightAttr);
    el.removeAttribute(wasAttr);
    el.removeAttribute('data-deputy-stamp');
    if (el.getAttribute('style') === '') el.removeAttribute('style');
  }
  if (frame !== 'keep') {
    for (const marker of Array.from(document.querySelectorAll(tag))) {
      if (!(marker instanceof HTMLElement)) continue;
      changed = true;
      if (frame === 'remove') marker.remove();
      else marker.style.display = frame === 'hide' ? 'none' : 'block';
    }
  }
  if (!changed || frame !== 'hide') return changed;
  // A page that draws no frames (hidden, or its window covered) is not waited on longer than the browser's usual
  // frame delay: it is not what a capture shows.
  await new Promise<void>((resolve) => {
    let frames = 0;
    const onFrame = (): void => {
      frames += 1;
      if (frames >= 2) resolve();
      else requestAnimationFrame(onFrame);
    };
    requestAnimationFrame(onFrame);
    setTimeout(resolve, 100);
  });
  return true;
}

/** A page frozen under a JavaScript dialog runs no script until the dialog is answered: never wait on it longer. */
const SCRIPT_CAP_MS = 1500;

/** True when some frame of the tab had a mark of Deputy's to change (and, hiding, has drawn the change). */
async function run(tabId: number, frame: FrameMode): Promise<boolean> {
  const applied = chrome.scripting
    .executeScript({
      target: { tabId, allFrames: true },
      func: applyMarks as unknown as InjectedFunc,
      args: [HIGHLIGHT_ATTR, OUTLINE_WAS_ATTR, MARKER_TAG, frame],
      injectImmediately: true,
    })
    .then(
      (results) => results.some((r) => r.result === true),
      // A page that cannot be scripted (a browser page, a closed tab) has no marks of ours.
      () => false,
    );
  return Promise.race([applied, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), SCRIPT_CAP_MS))]);
}

/** Takes back the highlights of approval cards in every frame of the tab; `all` takes the controlled-tab frame too. */
export function clearPageMarks(tabId: number, all: boolean): Promise<boolean> {
  return run(tabId, all ? 'remove' : 'keep');
}

/** Tabs whose marks are being shown again after a capture, until they are. */
const showing = new Map<number, Promise<void>>();

/**
 * Runs `capture` with no mark of Deputy's on the page: the highlights are taken back (their card is answered by the
 * time the next step looks) and the frame is hidden, then shown again, so no screenshot, kept or sent to a model,
 * shows what Deputy drew rather than the page.
 */
export async function withoutPageMarks<T>(tabId: number, capture: () => Promise<T>): Promise<T> {
  // The frame shown again after the last capture is back before it is hidden for this one.
  await showing.get(tabId);
  // Each frame answers once the change is drawn; a page with no mark of Deputy's answers at once, and is left as it is.
  const hidden = await run(tabId, 'hide');
  try {
    return await capture();
  } finally {
    // The screenshot is in once captured: the step does not wait for the frame to come back (a settle and the
    // verdict leave Deputy's marks out of what changed on the page: content/actions/watch-settle.ts).
    if (hidden) {
      const shown = run(tabId, 'show').then(() => {
        if (showing.get(tabId) === shown) showing.delete(tabId);
      });
      showing.set(tabId, shown);
    }
  }
}
