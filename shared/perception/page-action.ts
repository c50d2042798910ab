import { z } from 'zod';
import { PointAction } from './element-action';

const Ref = z.number().int().nonnegative().describe('The number in brackets before the element in the snapshot.');

/**
 * Every action the page agent takes on a tab, by tab-wide element number. It accepts everything the web tools send
 * (shared/agent WebAction) plus `focus` and scrolling an element into view (a scroll with a ref and no direction).
 */
export const PageAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('click'), ref: Ref, double: z.boolean().default(false) }),
  z.object({ kind: z.literal('type'), ref: Ref, text: z.string(), clear: z.boolean().default(true), submit: z.boolean().default(false) }),
  z.object({ kind: z.literal('select'), ref: Ref, values: z.array(z.string()).min(1) }),
  z.object({ kind: z.literal('check'), ref: Ref, checked: z.boolean().default(true) }),
  z.object({ kind: z.literal('hover'), ref: Ref }),
  z.object({ kind: z.literal('focus'), ref: Ref }),
  z.object({ kind: z.literal('press'), key: z.string().min(1).max(40), ref: Ref.optional(), times: z.number().int().min(1).max(100).default(1) }),
  z.object({ kind: z.literal('set_value'), ref: Ref, value: z.string().max(5000) }),
  z.object({
    kind: z.literal('drag'),
    ref: Ref,
    /** The element to drop it on; without it, the drag goes by dx, dy. */
    toRef: Ref.optional(),
    dx: z.number().finite().min(-10_000).max(10_000).default(0),
    dy: z.number().finite().min(-10_000).max(10_000).default(0),
    position: z.enum(['center', 'before', 'after']).default('center'),
  }),
  /** Pointer input at a point of the viewport (canvas and other surfaces without elements). */
  PointAction,
  z.object({ kind: z.literal('select_text'), text: z.string().min(1).max(2000), ref: Ref.optional() }),
  /** Files the task's user attached, by name (never a path): the background looks them up. */
  z.object({ kind: z.literal('upload'), ref: Ref, files: z.array(z.string().min(1).max(255)).min(1).max(20) }),
  z.object({ kind: z.literal('dialog'), action: z.enum(['accept', 'dismiss']), text: z.string().max(5000).optional() }),
  z.object({ kind: z.literal('download'), id: z.string().min(1).max(20), action: z.enum(['keep', 'discard']) }),
  z.object({
    kind: z.literal('scroll'),
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    ref: Ref.optional(),
    pages: z.number().positive().max(10).default(1),
  }),
  z.object({ kind: z.literal('navigate'), url: z.string() }),
  z.object({ kind: z.literal('back') }),
  z.object({ kind: z.literal('forward') }),
  z.object({ kind: z.literal('reload') }),
  z.object({
    kind: z.literal('find'),
    text: z.string().min(1).max(200),
    /** How long the search may read the page; the agent's own default when absent. */
    budgetMs: z.number().int().positive().max(30_000).optional(),
  }),
  z.object({ kind: z.literal('wait'), seconds: z.number().nonnegative().max(30).optional(), text: z.string().max(200).optional() }),
  z.object({ kind: z.literal('tab_new'), url: z.string().optional() }),
  z.object({ kind: z.literal('tab_switch'), tabId: z.number().int() }),
  z.object({ kind: z.literal('tab_close'), tabId: z.number().int() }),
  z.object({ kind: z.literal('tab_list') }),
]);
export type PageAction = z.infer<typeof PageAction>;
export type PageActionInput = z.input<typeof PageAction>;

/** What an action reports, the same shape as the agent core's ActionOutcome. */
export interface PageOutcome {
  ok: boolean;
  message: string;
  changed: boolean;
  evidence: string[];
  /** Set when the action moved the agent to another tab (a new or switched tab). */
  tabId?: number;
  /** Where the action's time went, by part, in ms (see ActionOutcome.timings). */
  timings?: Record<string, number>;
  /**
   * How many tabs or windows the page opened while the action ran, as the browser reported them; absent where the
   * browser's view was not watched. The egress check waits for a new window's first request only when there is one.
   */
  openedTabs?: number;
}
