import type { DomAccess } from '../perception/dom-access';
import type { InputDriver } from './input-types';
import { type Aim, aimAt } from './pointer-events';

/** How long a hover effect may take to settle before the press (an image swapped in on :hover loads first). */
const ARRIVAL_CAP_MS = 400;
const FRAMES_STILL = 2;

const boxOf = (el: Element): string => {
  const r = el.getBoundingClientRect();
  return `${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.width)},${Math.round(r.height)}`;
};
const hasArea = (el: Element): boolean => {
  const r = el.getBoundingClientRect();
  return r.width >= 1 && r.height >= 1;
};

/** The page's animations and transitions that are running or about to (a :hover transition is pending at first). */
function animationsOf(doc: Document): Animation[] {
  if (typeof doc.getAnimations !== 'function') return [];
  return doc.getAnimations().filter((animation) => animation.playState === 'running' || animation.pending);
}

const nextFrame = (win: Window): Promise<void> =>
  new Promise((resolve) => {
    // A hidden tab runs no animation frames: a timer stands in so the wait still ends.
    const timer = setTimeout(resolve, 50);
    win.requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The pointer arrives before it presses, as a person's does: it is moved onto the element first and the press waits
 * while the hover changes the element's box (a :hover rule that swaps its image or grows it), then aims again, so the
 * press lands on the element as it now is rather than where it was (a control whose hover image is still loading has
 * no width for a moment: a press at once lands on what is behind it). Only with trusted input: script events set no
 * CSS :hover. The first aim holds when nothing moved or the element cannot be aimed at again.
 */
export async function arriveAt(el: Element, aim: Aim & { ok: true; target: Element }, access: DomAccess, driver: InputDriver): Promise<Aim & { ok: true; target: Element }> {
  if (!driver.trusted()) return aim;
  const win = el.ownerDocument.defaultView;
  if (!win) return aim;
  const first = boxOf(el);
  const animations = new Set(animationsOf(el.ownerDocument));
  await driver.hover(aim.target, { x: aim.x, y: aim.y });
  // The move is answered once the page has handled it: its :hover rules apply and its mouseover and mouseenter handlers
  // have run, and reading the box lays the page out. A hover that changed nothing there and started no transition or
  // animation is over, and the press follows at once; any other is waited for frame by frame below.
  if (boxOf(el) === first && hasArea(el) && !animationsOf(el.ownerDocument).some((animation) => !animations.has(animation))) return aim;
  let last = first;
  let changed = false;
  const began = Date.now();
  for (let still = 0; still < FRAMES_STILL && Date.now() - began < ARRIVAL_CAP_MS; ) {
    await nextFrame(win);
    const now = boxOf(el);
    // A box with no area yet (its image still loading) is not where the press can land: it is waited for too.
    still = now === last && hasArea(el) ? still + 1 : 0;
    if (now !== first) changed = true;
    last = now;
  }
  if (!changed) return aim;
  const again = aimAt(el, access);
  return again.ok && again.target ? again : aim;
}
