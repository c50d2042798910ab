import type { ContextItem, FrameSnapshot, SnapshotItem } from '../../../shared/perception/frame-snapshot';
import { cutText } from './text-cut';

/** How many lines' worth of text one piece (a paragraph, an instruction) may show before it is shortened. */
export const PIECE_LINES = 4;
import type { RefRegistry } from './ref-registry';
import { rowText } from './row-text';

/** A control found by the walk; `dropped` when a control inside it took its place or it is not shown. */
export interface Pending {
  el: Element;
  role: string;
  name: string;
  ann: string[];
  weakByCursor: boolean;
  dropped: boolean;
}

/**
 * A run of text as the walk finds it. `joinBefore` and `joinAfter` say that nothing separates it from the text before
 * or after it on the page: no whitespace and no block boundary, as in `Enter "<b>Nathalie</b>"`. Text is joined
 * without a space only where both sides say so, so the snapshot reads as the page does.
 */
export interface TextEntry {
  text: string;
  prio: 1 | 2;
  joinBefore?: boolean;
  joinAfter?: boolean;
  /** The first text of a block (a paragraph, a cell, a list item): it does not continue the text before it. */
  blockStart?: boolean;
  /** Where the element that holds the text is drawn (page pixels), when it has a box. */
  box?: { top: number; bottom: number };
}

/** The rows of the page a line of text takes, from the top of its highest piece to the bottom of its lowest. */
type Rows = { top: number; bottom: number };

/** One line as the walk finds it: a control, a context line, or a cross-origin frame's placeholder. */
export type Entry = Pending | TextEntry | { key: string };

export interface Collected {
  snapshot: Omit<FrameSnapshot, 'token' | 'inlined'>;
  /** The numbered elements shown, in order, for callers that act on them or measure them. */
  elements: Element[];
}

/**
 * Turns the walk's lines, already in reading order, into the frame's snapshot: numbers are given here (so elements
 * first seen are numbered as they are read), and runs of short text that end up side by side are joined.
 */
export function finishSnapshot(
  entries: Entry[],
  registry: RefRegistry,
  maxText: number,
  meta: { url: string; title: string; above: number; below: number; dialogs: string[]; focused: Element | null },
): Collected {
  const items: SnapshotItem[] = [];
  const elements: Element[] = [];
  const previous = registry.lastRef;
  let lastJoinAfter = false;
  /** The text line a block's next inline piece continues (undefined once something else came in between). */
  let open: ContextItem | undefined;
  /** Where each text line is drawn, for telling side-by-side lines from stacked ones (joinShortLines). */
  const rows = new Map<ContextItem, Rows>();
  for (const entry of entries) {
    if ('el' in entry) {
      if (entry.dropped) continue;
      const ref = registry.refOf(entry.el);
      const item: SnapshotItem = { k: 'el', ref, role: entry.role, name: entry.name, ann: entry.ann };
      if (ref > previous) item.fresh = true;
      if (entry.el.tagName === 'INPUT') item.inputType = (entry.el as HTMLInputElement).type;
      const autocomplete = entry.el.getAttribute('autocomplete');
      if (autocomplete) item.autocomplete = autocomplete;
      items.push(item);
      elements.push(entry.el);
      open = undefined;
    } else if ('text' in entry) {
      // The pieces of one block's text (split by inline elements) read on, spaced as on the page; a line that has
      // reached the line length goes on in the next. A piece is shortened only past several lines, at a sentence's
      // end, saying how much is left out (find reads it whole).
      const piece = cutText(entry.text, maxText * PIECE_LINES);
      if (open && entry.prio === 1 && entry.blockStart !== true && open.text.length < maxText) {
        open.text += `${lastJoinAfter && entry.joinBefore === true ? '' : ' '}${piece}`;
        const had = rows.get(open);
        if (had && entry.box) rows.set(open, { top: Math.min(had.top, entry.box.top), bottom: Math.max(had.bottom, entry.box.bottom) });
        else rows.delete(open);
      } else {
        open = { k: 'ctx', text: piece, prio: entry.prio };
        items.push(open);
        if (entry.box) rows.set(open, entry.box);
        if (entry.prio !== 1) open = undefined;
      }
      lastJoinAfter = entry.joinAfter === true;
    } else {
      items.push({ k: 'frame', key: entry.key });
      open = undefined;
    }
  }
  joinShortLines(items, maxText, rows);
  rememberAll(items, elements, registry);
  const focusedRef = meta.focused && elements.includes(meta.focused) ? registry.peek(meta.focused) : undefined;
  return {
    snapshot: {
      url: meta.url,
      title: meta.title,
      items,
      above: meta.above,
      below: meta.below,
      dialogs: meta.dialogs,
      ...(focusedRef !== undefined ? { focusedRef } : {}),
    },
    elements,
  };
}

/**
 * Lines of short text that end up next to each other in reading order (a label and its value in two cells) read as
 * one line when together they still fit. A line is never cut to make room for its neighbour. Lines a person sees as
 * separate blocks, one drawn below the other (three short paragraphs), stay separate: only lines drawn side by side
 * (rows that overlap) are joined, or lines whose place is not known.
 */
function joinShortLines(items: SnapshotItem[], maxText: number, rows: Map<ContextItem, Rows>): void {
  let write = 0;
  for (let read = 0; read < items.length; read += 1) {
    const item = items[read] as SnapshotItem;
    const last = write > 0 ? items[write - 1] : undefined;
    if (item.k === 'ctx' && item.prio === 1 && last?.k === 'ctx' && last.prio === 1 && last.text.length + 1 + item.text.length <= maxText && sideBySide(rows.get(last), rows.get(item))) {
      last.text = `${last.text} ${item.text}`;
      const a = rows.get(last);
      const b = rows.get(item);
      if (a && b) rows.set(last, { top: Math.min(a.top, b.top), bottom: Math.max(a.bottom, b.bottom) });
      else rows.delete(last);
      continue;
    }
    items[write] = item;
    write += 1;
  }
  items.length = write;
}

/** Whether two lines are drawn on the same rows of the page (or where either is drawn is not known). */
function sideBySide(a: Rows | undefined, b: Rows | undefined): boolean {
  if (!a || !b) return true;
  return Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0;
}

/** Records what each numbered element looked like and where it was, for re-finding it after a re-render. */
function rememberAll(items: SnapshotItem[], elements: Element[], registry: RefRegistry): void {
  let ordinal = 0;
  for (const item of items) {
    if (item.k !== 'el') continue;
    const el = elements[ordinal];
    const context = el ? rowText(el, item.name) : '';
    registry.remember({ ref: item.ref, role: item.role, name: item.name, context, ordinal });
    ordinal += 1;
  }
}
