import { z } from 'zod';

/**
 * Pointer input at a point of the top frame's viewport, in CSS pixels (what a screenshot of the tab shows, divided by
 * its device pixel ratio), for surfaces with no element to number (a canvas, a map, a drawing): a click, a double
 * click, a hover, or a drag from the point to (toX, toY). The same as a page action and as the frame's action.
 */
export const PointAction = z.object({
  kind: z.literal('point'),
  op: z.enum(['click', 'double', 'hover', 'drag']),
  x: z.number().finite().min(0).max(20_000),
  y: z.number().finite().min(0).max(20_000),
  toX: z.number().finite().min(0).max(20_000).optional(),
  toY: z.number().finite().min(0).max(20_000).optional(),
  /** For a drag, the points the pointer passes between its ends (a drawn path), in order. */
  via: z.array(z.object({ x: z.number().finite().min(0).max(20_000), y: z.number().finite().min(0).max(20_000) })).max(64).optional(),
});

/** The element an action targets, with what the background last saw of it, so a stale number can be re-found. */
export const ActTarget = z.object({
  ref: z.number().int().positive(),
  token: z.string(),
  role: z.string(),
  name: z.string(),
  /** The address of the document the number was given in; another page's element is never taken for it. */
  url: z.string(),
});
export type ActTarget = z.infer<typeof ActTarget>;

/**
 * An action on one element (or on the focused element / the page, for press and scroll), as the content script
 * receives it. The element comes apart from the action, as a frame-local reference.
 */
export const ElementAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('click'), double: z.boolean().default(false) }),
  z.object({ kind: z.literal('type'), text: z.string(), clear: z.boolean().default(true), submit: z.boolean().default(false) }),
  z.object({ kind: z.literal('select'), values: z.array(z.string()).min(1) }),
  z.object({ kind: z.literal('check'), checked: z.boolean() }),
  z.object({ kind: z.literal('hover') }),
  z.object({ kind: z.literal('focus') }),
  z.object({ kind: z.literal('press'), key: z.string().min(1).max(40), times: z.number().int().min(1).max(100).default(1) }),
  z.object({
    kind: z.literal('scroll'),
    /** Without a direction, scrolls the element into view. */
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    pages: z.number().positive().max(10).default(1),
  }),
  /** Sets a slider, a date, time, colour or number field (or types into a text field) by value, read back after. */
  z.object({ kind: z.literal('set_value'), value: z.string().max(5000) }),
  /**
   * Drags the element onto another element of the same frame (`to`), or by an offset in pixels. `position` says where
   * on the target it is dropped: its centre, or just inside its start or end (before or after it, in a list).
   */
  z.object({
    kind: z.literal('drag'),
    to: ActTarget.nullable(),
    dx: z.number().finite().min(-10_000).max(10_000).default(0),
    dy: z.number().finite().min(-10_000).max(10_000).default(0),
    position: z.enum(['center', 'before', 'after']).default('center'),
  }),
  PointAction,
  /** Selects text as a person does with the mouse: in the element, or (without one) on the page. */
  z.object({ kind: z.literal('select_text'), text: z.string().min(1).max(2000) }),
  /** Puts files the user attached into a file field, the synthetic way (where the debugger cannot set them). */
  z.object({
    kind: z.literal('set_files'),
    files: z.array(z.object({ name: z.string().min(1).max(255), type: z.string().max(200), base64: z.string() })).min(1).max(20),
  }),
]);
export type ElementAction = z.infer<typeof ElementAction>;
export type ElementActionInput = z.input<typeof ElementAction>;


export const ActResult = z.object({
  /** The token and address of the document that answered, for numbering the elements this result names. */
  token: z.string(),
  url: z.string(),
  ok: z.boolean(),
  /** One sentence: what was done, or why not. Refers to the element as [@] for the background to number. */
  message: z.string(),
  /** Whether the page changed at all (DOM, value, scroll, URL) while the action settled. */
  changed: z.boolean(),
  evidence: z.array(z.string()),
  /**
   * Whether an action that changed nothing the frame could see is worth saying so ("no visible effect"): not for a
   * focus, nor for a box left as it already was. The background decides whether it did change nothing, from what it
   * saw of the tab as well (a navigation, a new tab, a download), and writes the verdict.
   */
  flagsNoEffect: z.boolean().optional(),
  /** How the input reached the page ("trusted input", "synthetic events: ..."), when the action sent any. */
  inputPath: z.string().max(300).optional(),
  /** A navigation the page began during the action (a link, a submit, location.assign, pushState). */
  navigation: z.object({ url: z.string().max(4000), sameDocument: z.boolean() }).optional(),
  /** How long the frame waited, after acting, for its DOM to go quiet (for the trace's timings). */
  settledMs: z.number().nonnegative().optional(),
  /** When the target had been re-rendered: the local number of the element acted on instead. */
  replacedBy: z.number().int().positive().optional(),
  /** Candidates for a stale target that had no unique match: local numbers with role and name. */
  candidates: z.array(z.object({ ref: z.number().int().positive(), role: z.string(), name: z.string() })).optional(),
});
export type ActResult = z.infer<typeof ActResult>;
