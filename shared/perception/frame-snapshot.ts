import { z } from 'zod';

/**
 * What one frame's content script reports about its page. Numbers are local to the frame's document; the background
 * maps them to the tab-wide numbers the model sees. Field names are short because a large page sends thousands of
 * items per snapshot.
 */
export const ElementItem = z.object({
  k: z.literal('el'),
  /** The frame-local reference, stable for the element's lifetime. */
  ref: z.number().int().positive(),
  role: z.string(),
  name: z.string(),
  /** Annotations already written out: `value="..."`, `checked`, `covered`, `/path`. */
  ann: z.array(z.string()),
  /** First seen since this frame's previous snapshot. */
  fresh: z.boolean().optional(),
  /** For form fields: the input type and autocomplete hint, which tell the policy gate what a field holds. */
  inputType: z.string().optional(),
  autocomplete: z.string().optional(),
});
export type ElementItem = z.infer<typeof ElementItem>;

/** A line without a number: a heading, landmark, dialog, label or short text. `prio` 1 is cut first. */
export const ContextItem = z.object({
  k: z.literal('ctx'),
  text: z.string(),
  prio: z.union([z.literal(1), z.literal(2)]),
});
export type ContextItem = z.infer<typeof ContextItem>;

/** Where a cross-origin frame's own snapshot goes; the background replaces it with that frame's items. */
export const FrameItem = z.object({ k: z.literal('frame'), key: z.string() });
export type FrameItem = z.infer<typeof FrameItem>;

export const SnapshotItem = z.discriminatedUnion('k', [ElementItem, ContextItem, FrameItem]);
export type SnapshotItem = z.infer<typeof SnapshotItem>;

export const SnapshotMode = z.enum(['viewport', 'page']);
export type SnapshotMode = z.infer<typeof SnapshotMode>;

export const FrameSnapshot = z.object({
  /** Identifies this document's content script instance: refs from another instance are never reused. */
  token: z.string(),
  url: z.string(),
  title: z.string(),
  /** True when a same-origin parent already shows this frame inline. */
  inlined: z.boolean(),
  /** The key this frame's parent gave it, matching a `frame` item in the parent's snapshot. */
  frameKey: z.string().optional(),
  items: z.array(SnapshotItem),
  /** Interactive elements left out of a viewport snapshot because they lie above or below the view. */
  above: z.number().int().nonnegative(),
  below: z.number().int().nonnegative(),
  focusedRef: z.number().int().positive().optional(),
  /** Names of open dialogs, for the change line. */
  dialogs: z.array(z.string()),
  /** Set when the walk ran out of time before the end of the page (a search on a huge page). */
  partial: z.boolean().optional(),
  /** What the walk left out and why (out of time, nested too deep), one sentence each, shown to the model. */
  omitted: z.array(z.string()).optional(),
});
export type FrameSnapshot = z.infer<typeof FrameSnapshot>;
