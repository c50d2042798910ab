import { useEffect, useRef } from 'preact/hooks';

/** How close to the bottom still counts as "at the bottom", in pixels. */
const SLACK = 80;
/** Room left above an anchor followed to, in pixels. */
const ANCHOR_MARGIN = 12;

/**
 * Keeps what the task just did in view as it streams in: after each change (`key`) the page scrolls to its end, or
 * to the card waiting for the user when there is one, unless the user has scrolled up to read, until they come back
 * to the bottom. A new task (`taskId`) follows again. Off (`enabled` false) where a past task is read, not followed.
 * The page's size is watched too: a card that grows after it was scrolled to, or the docked input appearing under
 * it, would otherwise leave its buttons out of view. With an `anchor` (an ended task's answer) the end is followed only
 * as far as keeps the anchor's top in view, and never back up: the offers under the answer (Save as routine) come out
 * from under the docked input as far as they fit, and a card the user brought into view stays there.
 */
export function useFollowScroll(enabled: boolean, taskId: string, key: string, waiting: () => Element | null, anchor: () => Element | null = () => null): void {
  const following = useRef(true);
  const lastY = useRef(0);
  const follow = useRef<() => void>(() => undefined);
  follow.current = () => {
    if (!enabled || !following.current) return;
    const card = waiting();
    if (card) card.scrollIntoView({ block: 'nearest' });
    else {
      const root = document.scrollingElement ?? document.documentElement;
      const keep = anchor();
      const end = root.scrollHeight;
      const top = keep ? Math.max(window.scrollY, Math.min(end, keep.getBoundingClientRect().top + window.scrollY - ANCHOR_MARGIN)) : end;
      window.scrollTo({ top });
    }
    lastY.current = window.scrollY;
  };
  useEffect(() => {
    following.current = true;
    const onScroll = (): void => {
      const root = document.scrollingElement ?? document.documentElement;
      const atBottom = window.innerHeight + window.scrollY >= root.scrollHeight - SLACK;
      if (window.scrollY < lastY.current && !atBottom) following.current = false;
      else if (atBottom) following.current = true;
      lastY.current = window.scrollY;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    const resized = new ResizeObserver(() => follow.current());
    resized.observe(document.body);
    return () => {
      window.removeEventListener('scroll', onScroll);
      resized.disconnect();
    };
  }, [taskId]);
  useEffect(() => follow.current(), [key]);
}
