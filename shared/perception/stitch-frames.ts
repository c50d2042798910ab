import type { FrameSnapshot, SnapshotItem } from './frame-snapshot';

export interface FrameResult {
  frameId: number;
  snapshot: FrameSnapshot;
}

export interface StitchedItem {
  frameId: number;
  token: string;
  url: string;
  item: Exclude<SnapshotItem, { k: 'frame' }>;
}

export interface Stitched {
  items: StitchedItem[];
  above: number;
  below: number;
  dialogs: string[];
  focused: { frameId: number; token: string; local: number } | undefined;
  /** Placeholders whose frame gave no snapshot (not loaded, no content script, or not reachable). */
  missing: number;
}

/**
 * Joins the frames of a tab into one list: the top frame's items, with each cross-origin frame's items put where its
 * iframe is. A frame is found by its name (its origin and random key), which its parent showed where the iframe is.
 * Frames shown inline by a same-origin parent, and frames no parent placed (hidden or outside the view), are left out.
 */
export function stitchFrames(results: FrameResult[]): Stitched {
  const byId = new Map(results.map((r) => [r.frameId, r]));
  const byKey = new Map<string, FrameResult>();
  for (const result of results) if (result.snapshot.frameKey) byKey.set(result.snapshot.frameKey, result);
  const out: Stitched = { items: [], above: 0, below: 0, dialogs: [], focused: undefined, missing: 0 };
  const seen = new Set<number>();

  const add = (result: FrameResult, depth: number): void => {
    if (seen.has(result.frameId) || depth > 8) return;
    seen.add(result.frameId);
    const { snapshot, frameId } = result;
    out.above += snapshot.above;
    out.below += snapshot.below;
    out.dialogs.push(...snapshot.dialogs);
    if (snapshot.focusedRef !== undefined && (!out.focused || frameId !== 0)) {
      out.focused = { frameId, token: snapshot.token, local: snapshot.focusedRef };
    }
    for (const item of snapshot.items) {
      if (item.k !== 'frame') {
        out.items.push({ frameId, token: snapshot.token, url: snapshot.url, item });
        continue;
      }
      const child = byKey.get(item.key);
      if (child && !child.snapshot.inlined) add(child, depth + 1);
      else out.missing += 1;
    }
  };

  const top = byId.get(0);
  if (top) add(top, 0);
  return out;
}

/** Placeholders in the results that name no frame yet: the child may not have received its key when asked. */
export function unplacedKeys(results: FrameResult[]): string[] {
  const known = new Set(results.flatMap((r) => (r.snapshot.frameKey ? [r.snapshot.frameKey] : [])));
  return results.flatMap((r) => r.snapshot.items.flatMap((item) => (item.k === 'frame' && !known.has(item.key) ? [item.key] : [])));
}
