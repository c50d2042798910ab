/** Watching stops by itself after this long, so a chat nobody waits on costs nothing. */
const WATCH_LIMIT_MS = 10 * 60_000;

const WATCHED_ATTRIBUTES = ['class', 'style', 'hidden', 'aria-hidden', 'aria-busy'];

export interface TypingWatchDeps {
  /** Is a typing indicator shown right now? */
  typing: () => boolean;
  /** Where to listen: the document, plus the shadow root a widget draws into, if any. */
  targets: () => Node[];
  setTimer: (run: () => void, ms: number) => () => void;
}

/**
 * Remembers whether the other side showed a typing indicator since our last action. Support widgets often show it
 * for a few tens of milliseconds between bursts, shorter than any poll, and sometimes before anyone starts waiting:
 * a mutation observer sees every change as it happens.
 */
export class TypingWatch {
  private observer: MutationObserver | null = null;
  private cancelTimer: (() => void) | null = null;
  private seenSinceStart = false;

  /** Starts over: call right before acting in the chat (sending, choosing, submitting a form). */
  start(deps: TypingWatchDeps): void {
    this.stop();
    this.seenSinceStart = false;
    const check = (): void => {
      if (!deps.typing()) return;
      this.seenSinceStart = true;
      this.stop();
    };
    this.observer = new MutationObserver(check);
    for (const target of deps.targets()) {
      this.observer.observe(target, { childList: true, subtree: true, attributes: true, attributeFilter: WATCHED_ATTRIBUTES });
    }
    this.cancelTimer = deps.setTimer(() => this.stop(), WATCH_LIMIT_MS);
  }

  /** True when a typing indicator showed at any moment since `start`. */
  get seen(): boolean {
    return this.seenSinceStart;
  }

  stop(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.cancelTimer?.();
    this.cancelTimer = null;
  }
}
