import { z } from 'zod';
import type { BlockedEgress } from './egress';
import type { ActionOutcome, AgentEnvironment } from './environment';

const Ref = z.number().int().nonnegative();

/**
 * Every action the web tools ask of a tab, as data. The content script (click, type, select, check, hover, press,
 * scroll, set_value, drag by ref) and the background (navigate, back, forward, reload, tabs, uploads, dialogs,
 * downloads) carry them out and verify them. `type`
 * and `select` carry real values: placeholders were already resolved from the vault, so this never goes to a model.
 */
export const WebAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('click'), ref: Ref, double: z.boolean().default(false) }),
  z.object({ kind: z.literal('type'), ref: Ref, text: z.string(), clear: z.boolean(), submit: z.boolean() }),
  z.object({ kind: z.literal('select'), ref: Ref, values: z.array(z.string()).min(1) }),
  z.object({ kind: z.literal('check'), ref: Ref, checked: z.boolean() }),
  z.object({ kind: z.literal('hover'), ref: Ref }),
  z.object({ kind: z.literal('press'), key: z.string(), ref: Ref.optional(), times: z.number().int().min(1).max(100).default(1) }),
  z.object({ kind: z.literal('set_value'), ref: Ref, value: z.string() }),
  z.object({
    kind: z.literal('drag'),
    ref: Ref,
    toRef: Ref.optional(),
    dx: z.number().default(0),
    dy: z.number().default(0),
    position: z.enum(['center', 'before', 'after']).default('center'),
  }),
  z.object({
    kind: z.literal('point'),
    op: z.enum(['click', 'double', 'hover', 'drag']),
    x: z.number(),
    y: z.number(),
    toX: z.number().optional(),
    toY: z.number().optional(),
    via: z.array(z.object({ x: z.number(), y: z.number() })).max(64).optional(),
  }),
  z.object({ kind: z.literal('select_text'), text: z.string().min(1), ref: Ref.optional() }),
  z.object({ kind: z.literal('upload'), ref: Ref, files: z.array(z.string()).min(1) }),
  z.object({ kind: z.literal('dialog'), action: z.enum(['accept', 'dismiss']), text: z.string().optional() }),
  z.object({ kind: z.literal('download'), id: z.string(), action: z.enum(['keep', 'discard']) }),
  z.object({
    kind: z.literal('scroll'),
    /** Left out with a ref: the element is brought into view. */
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    ref: Ref.optional(),
    pages: z.number().positive(),
  }),
  z.object({ kind: z.literal('navigate'), url: z.string() }),
  z.object({ kind: z.literal('back') }),
  z.object({ kind: z.literal('forward') }),
  z.object({ kind: z.literal('reload') }),
  z.object({ kind: z.literal('find'), text: z.string() }),
  z.object({ kind: z.literal('wait'), seconds: z.number().nonnegative().optional(), text: z.string().optional() }),
  z.object({ kind: z.literal('tab_new'), url: z.string().optional() }),
  z.object({ kind: z.literal('tab_switch'), tabId: z.number().int() }),
  z.object({ kind: z.literal('tab_close'), tabId: z.number().int() }),
  z.object({ kind: z.literal('tab_list') }),
]);
export type WebAction = z.infer<typeof WebAction>;

/**
 * A browser tab as the agent drives it. The background implements it over the content channel: observe() takes a
 * snapshot with refs; act() performs one action, waits for the page to settle, and verifies it by comparing
 * snapshots. Failures (a stale ref, a navigation timeout) come back as `{ ok: false, message }`, not as exceptions.
 */
export interface WebEnvironment extends AgentEnvironment {
  act(action: WebAction, options: { signal?: AbortSignal }): Promise<ActionOutcome>;
  /**
   * Settles a request the egress guard held during an action: approved, it is sent again (a page load opened again, a
   * form post sent again with its fields); refused, the tab is put back where it was (a new tab the page opened for it
   * is closed).
   */
  resolveBlocked?(blocked: BlockedEgress, approved: boolean, options: { signal?: AbortSignal }): Promise<ActionOutcome>;
}
