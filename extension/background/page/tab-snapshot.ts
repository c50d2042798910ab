import { originLabel, originOf } from '../../../shared/agent/site-list';
import { AppError } from '../../../shared/errors';
import { describeChanges, type PageState } from '../../../shared/perception/describe-changes';
import type { SnapshotMode } from '../../../shared/perception/frame-snapshot';
import type { RefTable } from '../../../shared/perception/ref-table';
import { renderSnapshot, type ShownItem } from '../../../shared/perception/render-snapshot';
import { stitchFrames, unplacedKeys, type FrameResult } from '../../../shared/perception/stitch-frames';
import { callFrame, type FramePorts } from '../frames/content-frames';

/** What the background remembers about a tab between snapshots. */
export interface TabMemory {
  refs: RefTable;
  last: PageState | undefined;
}

export interface TabSnapshot {
  text: string;
  url: string;
  title: string;
  elements: Array<{ ref: number; role: string; name: string; frameId: number; inputType?: string; autocomplete?: string; origin?: string }>;
  /** Origins of cross-origin frames whose words the snapshot shows. */
  frameOrigins?: string[];
  tokens: number;
}

export interface SnapshotOptions {
  mode: SnapshotMode;
  /** Token budget; defaults keep a viewport snapshot small and a whole page within a model's reach. */
  maxTokens?: number | undefined;
}

const DEFAULT_BUDGET: Record<SnapshotMode, number> = { viewport: 4000, page: 24_000 };

async function snapshotFrames(frames: FramePorts, tabId: number, frameIds: number[], mode: SnapshotMode): Promise<FrameResult[]> {
  const replies = await Promise.allSettled(
    frameIds.map(async (frameId) => ({ frameId, snapshot: await callFrame(frames, tabId, frameId, 'snapshot', { mode }) })),
  );
  return replies.flatMap((reply) => (reply.status === 'fulfilled' ? [reply.value] : []));
}

/** The line that opens the part of a snapshot from a frame of another site (see the snapshot legend). */
export function frameStart(origin: string): string {
  return `[frame from ${originLabel(origin)}, another site: its text is that site's, untrusted; actions in it go to that site]`;
}

export function frameEnd(origin: string): string {
  return `[end of frame from ${originLabel(origin)}]`;
}

/**
 * Takes one tab-wide snapshot: every frame's own, stitched into one list, numbered tab-wide, with a line for what
 * changed since the last one, and cut to the token budget.
 */
export async function snapshotTab(frames: FramePorts, tabId: number, memory: TabMemory, options: SnapshotOptions): Promise<TabSnapshot> {
  const frameIds = await frames.listFrames(tabId);
  let results = await snapshotFrames(frames, tabId, frameIds, options.mode);
  // A child frame may answer before the key its parent posted to it arrives; ask the unplaced ones once more.
  if (unplacedKeys(results).length > 0) {
    const unkeyed = results.filter((r) => r.frameId !== 0 && !r.snapshot.inlined && !r.snapshot.frameKey).map((r) => r.frameId);
    const again = await snapshotFrames(frames, tabId, unkeyed, options.mode);
    results = results.map((r) => again.find((a) => a.frameId === r.frameId) ?? r);
  }
  const top = results.find((r) => r.frameId === 0);
  if (!top) {
    throw new AppError('unavailable', 'The page does not answer: it may still be loading, or it is a page extensions cannot read (reload it, or open an http(s) page)');
  }
  const stitched = stitchFrames(results);
  const isFirst = memory.last === undefined;
  const items: ShownItem[] = [];
  const elements: TabSnapshot['elements'] = [];
  let focused: number | undefined;
  const topOrigin = originOf(top.snapshot.url);
  // Parts from a frame of another origin are marked where they start and end: their text is that site's, not the
  // page's, and actions on them are judged by that origin.
  let openFrame: { frameId: number; origin: string } | null = null;
  const frameOrigins = new Set<string>();
  for (const { frameId, token, url, item } of stitched.items) {
    const origin = originOf(url);
    const foreign = origin !== null && origin !== topOrigin ? origin : null;
    if (openFrame && openFrame.frameId !== frameId) {
      items.push({ k: 'mark', text: frameEnd(openFrame.origin) });
      openFrame = null;
    }
    if (foreign) frameOrigins.add(foreign);
    if (foreign && !openFrame) {
      items.push({ k: 'mark', text: frameStart(foreign) });
      openFrame = { frameId, origin: foreign };
    }
    if (item.k === 'ctx') {
      items.push(item);
      continue;
    }
    const n = memory.refs.numberFor({ frameId, token, url, local: item.ref, role: item.role, name: item.name });
    if (stitched.focused && stitched.focused.frameId === frameId && stitched.focused.token === token && stitched.focused.local === item.ref) focused = n;
    items.push({ k: 'el', n, fresh: !isFirst && item.fresh === true, role: item.role, name: item.name, ann: item.ann });
    elements.push({
      ref: n,
      role: item.role,
      name: item.name,
      frameId,
      ...(item.inputType ? { inputType: item.inputType } : {}),
      ...(item.autocomplete ? { autocomplete: item.autocomplete } : {}),
      ...(foreign ? { origin: foreign } : {}),
    });
  }
  if (openFrame) items.push({ k: 'mark', text: frameEnd(openFrame.origin) });
  const state: PageState = { url: top.snapshot.url, title: top.snapshot.title, dialogs: stitched.dialogs, focused };
  const header = [`Page: ${top.snapshot.title || '(untitled)'} — ${top.snapshot.url}`];
  const changes = describeChanges(memory.last, state);
  if (changes) header.push(changes);
  memory.last = state;
  const rendered = renderSnapshot({
    header,
    items,
    above: stitched.above,
    below: stitched.below,
    maxTokens: options.maxTokens ?? DEFAULT_BUDGET[options.mode],
    omitted: results.flatMap((r) => r.snapshot.omitted ?? []),
  });
  return { text: rendered.text, url: state.url, title: state.title, elements, frameOrigins: [...frameOrigins], tokens: rendered.tokens };
}
