/** Where a run of snapshot lines sits on the screen, in CSS pixels of the top frame. */
export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Pixels by which edges may disagree and still count as one line, or as touching. */
const TOLERANCE = 4;
/** Past this many steps back, a block that belongs further up stays where the page put it: sorting stays linear. */
const MAX_WALK_BACK = 256;

export function unionBox(a: Box | null, b: Box | null): Box | null {
  if (!a) return b;
  if (!b) return a;
  return {
    top: Math.min(a.top, b.top),
    left: Math.min(a.left, b.left),
    bottom: Math.max(a.bottom, b.bottom),
    right: Math.max(a.right, b.right),
  };
}

/**
 * Whether two boxes share a visual line: their tops nearly agree, or they overlap vertically by at least half of the
 * shorter one (a button beside a taller card, a column beside a longer column).
 */
export function sameLine(a: Box, b: Box): boolean {
  if (Math.abs(a.top - b.top) <= TOLERANCE) return true;
  const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return overlap > 0 && overlap * 2 >= Math.min(a.bottom - a.top, b.bottom - b.top);
}

/**
 * Whether `b` is read before `a` although the page put it after: it lies wholly to the left on the same line, or
 * wholly above. Boxes that overlap otherwise (a paragraph and a link wrapped inside its lines, a layer over content)
 * give no evidence, and their page order stands.
 */
export function readBefore(b: Box, a: Box): boolean {
  if (sameLine(a, b)) return b.right <= a.left + TOLERANCE;
  return b.bottom <= a.top + TOLERANCE;
}

/**
 * The reading order of sibling blocks given in page order: top to bottom, and left to right on one line. It is a
 * stable insertion: each block moves back only past blocks it is clearly read before, so page order decides
 * everything the geometry does not, and a page already in reading order costs one comparison per block. Blocks
 * without a box (display: contents text) stay right after the block before them. Returns null when nothing moves.
 */
export function readingOrder(boxes: ReadonlyArray<Box | null>): number[] | null {
  const n = boxes.length;
  let inOrder = true;
  let reversed = n > 1;
  let previous: Box | null = null;
  for (const box of boxes) {
    if (box && previous) {
      if (readBefore(box, previous)) inOrder = false;
      else reversed = false;
    } else if (!box) {
      reversed = false;
    }
    if (box) previous = box;
  }
  if (inOrder) return null;
  // A column-reverse or row-reverse list is common (chat logs) and would be the slowest case for insertion.
  if (reversed) return boxes.map((_, i) => n - 1 - i);

  // Units: a block with a box and the boxless blocks that follow it, which move with it.
  const units: number[][] = [];
  for (let i = 0; i < n; i += 1) {
    const last = units[units.length - 1];
    if (!boxes[i] && last) last.push(i);
    else units.push([i]);
  }
  const order: number[][] = [];
  for (const unit of units) {
    const box = boxes[unit[0] as number];
    let at = order.length;
    if (box) {
      for (let steps = 0; at > 0 && steps < MAX_WALK_BACK; steps += 1) {
        const before = boxes[(order[at - 1] as number[])[0] as number];
        if (!before || !readBefore(box, before)) break;
        at -= 1;
      }
    }
    order.splice(at, 0, unit);
  }
  return order.flat();
}
