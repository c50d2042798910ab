import { callFrame, type FramePorts } from '../frames/content-frames';
import type { Point } from './trusted-input';

/**
 * Where a cross-site child frame's viewport sits in the tab's: each parent, asked by the child's name, says
 * where that iframe shows its content, and the offsets add up to the top frame. Null when a frame on the way is hidden
 * or gone (input sent there would land elsewhere).
 */
export async function placeFrame(
  frames: FramePorts,
  parentOf: (tabId: number, frameId: number) => Promise<number | undefined>,
  tabId: number,
  frameId: number,
  frameKey: string | undefined,
): Promise<Point | null> {
  let x = 0;
  let y = 0;
  let frame = frameId;
  let key = frameKey;
  for (let depth = 0; frame !== 0; depth += 1) {
    if (key === undefined || depth > 16) return null;
    const parent = await parentOf(tabId, frame);
    if (parent === undefined || parent < 0) return null;
    const box = await callFrame(frames, tabId, parent, 'frameBox', { key }).catch(() => null);
    if (!box) return null;
    x += box.x;
    y += box.y;
    key = box.ownKey;
    frame = parent;
  }
  return { x, y };
}
