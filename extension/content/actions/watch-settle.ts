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
  /**
   * Once the page has changed, how long it must stay unchanged to count as settled. Left out (the rule everywhere):
   * until it has rendered QUIET_FRAMES frames with no change and no animation the action started still running.
   */
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
  /**
   * A state the action is answered by (a field's suggestions showing): not settled before it holds, up to its own cap,
   * whatever changes or does not change before; once it holds (or its cap is over) the page settles by the rules above.
   */
  until?: { holds(): boolean; capMs: number };
}

/** The time one frame takes to render; a page's reaction to an event lands within it when it is synchronous. */
export const FRAME_MS = 20;
/**
 * Once the page has changed, it is quiet after rendering this many frames with no further change: a framework's
 * follow-up render (a microtask, a timer of 0, the next animation frame) lands within them. The wait is counted in the
 * page's own frames, so a busy machine that renders slowly is given the longer time it needs, and an idle one ends
 * early; where frames do not come (a hidden tab) they are counted as FRAME_MS each.
 */
const QUIET_FRAMES = 3;
/** Where a visible page renders no frames: how long without a change is quiet all the same (QUIET_FRAMES at 10 fps). */
const NO_FRAMES_QUIET_MS = 300;
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

/** The element Deputy draws around the page of the tab a task controls (platform/tab-marker.ts). */
const MARKER_TAG = 'DEPUTY-TAB-MARKER';

/** A change Deputy made to the page itself: its tab marker added, removed, hidden or shown, or a highlight's attributes. */
export function isDeputyMark(record: Pick<MutationRecord, 'type' | 'target' | 'attributeName' | 'addedNodes' | 'removedNodes'>): boolean {
  const isMarker = (node: Node): boolean => node.nodeName === MARKER_TAG;
  if (record.type === 'attributes') return isMarker(record.target) || (record.attributeName?.startsWith('data-deputy-') ?? false);
  if (record.type !== 'childList') return false;
  const nodes = [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)];
  return nodes.length > 0 && nodes.every(isMarker);
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
  /** Frames the page has rendered since its last change (counted while settling). */
  let framesSinceChange = 0;
  // Animations and transitions that start from now on are the action's (a menu sliding open): waited for while they run.
  const now = doc.timeline?.currentTime;
  const startedAt = typeof now === 'number' ? now : null;
  const added: Node[] = [];
  const removed: string[] = [];
  const observer = new MutationObserver((all) => {
    // Deputy's own marks (the controlled tab's frame, drawn again after each load and hidden for each screenshot; an
    // approval card's highlight) are not the page changing: a settle never waits on them, nor reports them.
    const records = all.filter((record) => !isDeputyMark(record));
    if (records.length === 0) return;
    mutations += records.length;
    lastChange = Date.now();
    framesSinceChange = 0;
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
      const frames = options.graceFrames;
      const graceMs = Math.min(frames !== undefined ? frames * FRAME_MS : (options.graceMs ?? FRAME_MS), options.capMs);
      let framesSeen = 0;
      let settling = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let check = (): void => undefined;
      // The page's rendered frames, counted while this settle lasts: for the grace and for the quiet after a change.
      // Each frame looks again at once, so a page that went quiet is settled on the frame that shows it.
      const framesCome = typeof requestAnimationFrame === 'function' && doc.visibilityState !== 'hidden';
      if (framesCome) {
        const onFrame = (): void => {
          if (!settling) return;
          framesSeen += 1;
          framesSinceChange += 1;
          requestAnimationFrame(onFrame);
          check();
        };
        requestAnimationFrame(onFrame);
      }
      framesSinceChange = 0;
      const changedQuietly = (now: number): boolean => {
        if (options.quietMs !== undefined) return now - lastChange >= options.quietMs;
        // A visible page may still render no frame (its window covered): no change for as long as that many frames
        // would take on a slow machine is quiet too.
        const framesQuiet = framesCome ? framesSinceChange >= QUIET_FRAMES || now - lastChange >= NO_FRAMES_QUIET_MS : now - lastChange >= QUIET_FRAMES * FRAME_MS;
        return framesQuiet && !animating(doc, startedAt);
      };
      return new Promise((resolve) => {
        check = (): void => {
          if (!settling) return;
          const now = Date.now();
          const graceOver = now - started >= graceMs || (frames !== undefined && framesSeen >= frames);
          // Mutation records are delivered at the end of the task that made them, so a change made in the frame after
          // the action is already counted here.
          const waiting = options.until !== undefined && now - started < options.until.capMs && !options.until.holds();
          const quiet = !waiting && (mutations === 0 ? graceOver : changedQuietly(now));
          clearTimeout(timer);
          if (quiet || now - started >= options.capMs) {
            settling = false;
            observer.disconnect();
            resolve({ mutations, timedOut: !quiet, waitedMs: now - started, added: shownTexts(added), removed: removed.slice(0, SHOWN) });
            return;
          }
          timer = setTimeout(check, mutations === 0 && !waiting ? Math.min(POLL_MS, graceMs) : POLL_MS);
        };
        if (graceMs === 0 && mutations === 0) check();
        else timer = setTimeout(check, Math.min(POLL_MS, graceMs));
      });
    },
  };
}

/**
 * Whether an animation or transition that began since `since` (on the document's timeline) is still running and will
 * end: a menu sliding open, a panel fading in. Endless ones (a spinner) never end, so they are not waited for; the
 * request a spinner stands for is waited for by the background, which sees it.
 */
function animating(doc: Document, since: number | null): boolean {
  if (typeof doc.getAnimations !== 'function') return false;
  return doc.getAnimations().some((animation) => {
    if (animation.playState !== 'running') return false;
    const begun = animation.startTime;
    if (since !== null && typeof begun === 'number' && begun < since) return false;
    const end = animation.effect?.getComputedTiming().endTime;
    return typeof end === 'number' && Number.isFinite(end);
  });
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
