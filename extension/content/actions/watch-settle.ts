export interface SettleReport {
  /** DOM mutations seen from the start of the watch until the page went quiet. */
  mutations: number;
  /** True when the page was still changing when the cap ran out. */
  timedOut: boolean;
  /** How long the settle took, from the call of settle(). */
  waitedMs: number;
  /** The text of a few pieces of content that appeared and are shown, and of a few that went away. */
  added: string[];
  removed: string[];
}

export interface SettleOptions {
  /** The longest wait. */
  capMs: number;
  /** Once the page has changed, how long it must stay unchanged to count as settled. */
  quietMs?: number;
  /**
   * How long to wait for a first change when none has come yet. Nothing changing within one frame is the common
   * case (a value typed, a box checked) and settles at once; a field that says it shows suggestions gets longer.
   */
  graceMs?: number;
  /**
   * Instead of a grace in milliseconds: the first change is waited for until the page has rendered this many frames
   * (an answer's handler runs and is painted within them), or as long in frame times where frames do not come (a hidden
   * tab). Ends by the page's own events, with no fixed tail.
   */
  graceFrames?: number;
}

/** The time one frame takes to render; a page's reaction to an event lands within it when it is synchronous. */
export const FRAME_MS = 20;
const QUIET_MS = 150;
const POLL_MS = 20;
/** Nodes remembered per action, and how many of them the evidence names. */
const KEPT = 40;
const SHOWN = 3;

function textOf(node: Node): string {
  if (node.nodeType !== 1 && node.nodeType !== 3) return '';
  if (node.nodeType === 1 && ['SCRIPT', 'STYLE', 'TEMPLATE', 'LINK', 'META'].includes((node as Element).tagName)) return '';
  const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** The texts of added nodes that are still there and shown, outermost first, each once. */
function shownTexts(nodes: Node[]): string[] {
  const out: string[] = [];
  const kept: Node[] = [];
  for (const node of nodes) {
    if (!node.isConnected || kept.some((outer) => outer.contains(node))) continue;
    const el = node.nodeType === 1 ? (node as Element) : node.parentElement;
    if (!el || !el.checkVisibility()) continue;
    const text = textOf(node);
    if (!text || out.includes(text)) continue;
    kept.push(node);
    out.push(text);
    if (out.length >= SHOWN) break;
  }
  return out;
}

/**
 * Starts counting DOM mutations (before an action, so none is missed), and afterwards waits until the page is quiet:
 * when nothing changes within the grace period it settles at once, with no fixed minimum; once something changes it
 * waits until nothing has changed for `quietMs`, up to `capMs`. The evidence read back then reflects what the action
 * did rather than a half-rendered page.
 */
export function watchSettle(doc: Document): { settle(options: SettleOptions): Promise<SettleReport>; stop(): void } {
  let mutations = 0;
  let lastChange = 0;
  const added: Node[] = [];
  const removed: string[] = [];
  const observer = new MutationObserver((records) => {
    mutations += records.length;
    lastChange = Date.now();
    for (const record of records) {
      if (record.type !== 'childList') continue;
      for (const node of record.addedNodes) if (added.length < KEPT) added.push(node);
      for (const node of record.removedNodes) {
        const text = textOf(node);
        if (text && removed.length < KEPT && !removed.includes(text)) removed.push(text);
      }
    }
  });
  observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  return {
    stop: () => observer.disconnect(),
    settle(options) {
      const started = Date.now();
      const quietMs = options.quietMs ?? QUIET_MS;
      const frames = options.graceFrames;
      const graceMs = Math.min(frames !== undefined ? frames * FRAME_MS : (options.graceMs ?? FRAME_MS), options.capMs);
      let framesSeen = 0;
      if (frames !== undefined && typeof requestAnimationFrame === 'function') {
        const onFrame = (): void => {
          framesSeen += 1;
          if (framesSeen < frames) requestAnimationFrame(onFrame);
        };
        requestAnimationFrame(onFrame);
      }
      return new Promise((resolve) => {
        const check = (): void => {
          const now = Date.now();
          const graceOver = now - started >= graceMs || (frames !== undefined && framesSeen >= frames);
          // Mutation records are delivered at the end of the task that made them, so a change made in the frame after
          // the action is already counted here.
          const quiet = mutations === 0 ? graceOver : now - lastChange >= quietMs;
          if (quiet || now - started >= options.capMs) {
            observer.disconnect();
            resolve({ mutations, timedOut: !quiet, waitedMs: now - started, added: shownTexts(added), removed: removed.slice(0, SHOWN) });
            return;
          }
          setTimeout(check, mutations === 0 ? Math.min(POLL_MS, graceMs) : POLL_MS);
        };
        if (graceMs === 0 && mutations === 0) check();
        else setTimeout(check, Math.min(POLL_MS, graceMs));
      });
    },
  };
}

/** What came into view around an element without any change to the page's nodes (a menu a CSS :hover rule shows). */
export interface ShownWatch {
  revealed(): string[];
}

/**
 * Notes which elements near `el` (under its grandparent) are shown, so the evidence can name those that appear after
 * an action that changes only styles: a hover opens such menus, and no mutation says so.
 */
export function watchShown(el: Element): ShownWatch {
  const scope = el.parentElement?.parentElement ?? el.parentElement ?? el;
  const all = (): Element[] => Array.from(scope.querySelectorAll('*')).slice(0, 500);
  const before = new Set(all().filter((node) => node.checkVisibility()));
  return {
    revealed() {
      const appeared = all().filter((node) => !before.has(node) && node.checkVisibility());
      return shownTexts(appeared.filter((node) => !appeared.some((outer) => outer !== node && outer.contains(node))));
    },
  };
}
