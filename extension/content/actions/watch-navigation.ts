/** A navigation the page began while an action ran: where to, and whether it stays in this document (a pushState). */
export interface NavigationSeen {
  url: string;
  sameDocument: boolean;
}

/** The part of the Navigation API this watch reads (TypeScript's DOM library does not declare it yet). */
interface NavigateEventLike extends Event {
  destination: { url: string; sameDocument: boolean };
}

/**
 * Notes the navigations the page begins during an action, through the Navigation API's `navigate` event: a link, a
 * form submit, `location.assign`, `history.pushState`. The event fires when the navigation begins, before the new
 * page commits, so the background can tell that an action which left the DOM as it was is on its way elsewhere and
 * wait for the navigation rather than report "no visible effect". Where the browser has no Navigation API the watch
 * sees nothing and the background's own view of the tab (webNavigation) decides alone.
 */
export function watchNavigation(win: Window): { seen(): NavigationSeen | undefined; stop(): void } {
  const navigation = (win as Window & { navigation?: EventTarget }).navigation;
  let first: NavigationSeen | undefined;
  let crossDocument: NavigationSeen | undefined;
  const listener = (event: Event): void => {
    const destination = (event as NavigateEventLike).destination;
    if (!destination || typeof destination.url !== 'string') return;
    const seen = { url: destination.url, sameDocument: destination.sameDocument === true };
    first ??= seen;
    if (!seen.sameDocument) crossDocument ??= seen;
  };
  navigation?.addEventListener('navigate', listener);
  return {
    // A page that leaves is what matters most: a pushState before a form post is the lesser news.
    seen: () => crossDocument ?? first,
    stop: () => navigation?.removeEventListener('navigate', listener),
  };
}
