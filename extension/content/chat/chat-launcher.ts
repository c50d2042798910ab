import type { ChatProfile } from './chat-profile';
import { composedParent, firstMatch, isShown, type DeepDom } from './deep-query';
import { labelOf } from './generic-chat';

const LAUNCHER_WORDS = /chat|help|support|message|talk to us|questions?/i;

/** A control that floats (fixed or sticky), as chat launchers do; page content that scrolls away is not one. */
function floats(element: Element): boolean {
  const view = element.ownerDocument.defaultView;
  for (let current: Element | null = element; current; current = composedParent(current)) {
    const position = view?.getComputedStyle(current).position;
    if (position === 'fixed' || position === 'sticky') return true;
  }
  return false;
}

/** Links that lead to another page are never launchers: clicking one would leave the chat's page. */
function leavesPage(element: Element): boolean {
  if (element.tagName !== 'A') return false;
  const href = element.getAttribute('href');
  return href !== null && href !== '' && !href.startsWith('#') && !href.startsWith('javascript:');
}

/**
 * The button that opens a widget: the profile's launcher, else a floating button in the bottom-right quarter of the
 * frame whose label speaks of chat, help or support.
 */
export function findLauncher(dom: DeepDom, profile: ChatProfile | undefined): Element | null {
  const fromProfile = firstMatch(dom, profile?.open.launcher ?? [], isShown);
  if (fromProfile) return fromProfile;
  const root = dom.roots[0];
  const view = root && 'defaultView' in root ? root.defaultView : null;
  if (!view) return null;
  const candidates = dom.queryAll('button, [role="button"], a').filter((element) => isShown(element) && !leavesPage(element));
  return (
    candidates.find((element) => {
      if (!LAUNCHER_WORDS.test(labelOf(element)) || !floats(element)) return false;
      const rect = element.getBoundingClientRect();
      return rect.left > view.innerWidth / 2 && rect.top > view.innerHeight / 2;
    }) ?? null
  );
}
