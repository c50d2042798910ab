import { z } from 'zod';
import { defineChannel } from './channel';

const Coordinate = z.number().finite().min(-100_000).max(100_000);
const Point = z.object({ x: Coordinate, y: Coordinate });

export const Chord = z.object({
  key: z.string().min(1).max(40),
  ctrl: z.boolean(),
  shift: z.boolean(),
  alt: z.boolean(),
  meta: z.boolean(),
});
export type Chord = z.infer<typeof Chord>;

/**
 * One piece of trusted input a content script asks the background to send, in its own frame's viewport coordinates:
 * the content script knows where the element is; only the background can reach the debugger.
 */
export const InputOp = z.discriminatedUnion('op', [
  z.object({ op: z.literal('click'), at: Point, count: z.number().int().min(1).max(3) }),
  z.object({ op: z.literal('move'), at: Point }),
  z.object({ op: z.literal('wheel'), at: Point, dx: Coordinate, dy: Coordinate }),
  z.object({ op: z.literal('press'), chord: Chord, times: z.number().int().min(1).max(500).default(1) }),
  z.object({ op: z.literal('type'), text: z.string().max(100_000) }),
  /** `via`: the points a drawn path passes between its ends (a circle, a signature), in order. */
  z.object({ op: z.literal('drag'), from: Point, to: Point, via: z.array(Point).max(64).optional() }),
]);
export type InputOp = z.infer<typeof InputOp>;
export type InputOpInput = z.input<typeof InputOp>;

/**
 * Content script -> background: trusted input during an action. Each request carries the lease the background gave
 * that one action, so a page cannot make the content script send input at any other time, nor to another tab.
 */
export const InputChannel = defineChannel(
  'input',
  {
    input: {
      params: z.object({
        lease: z.string().min(8).max(64),
        /** This frame's name (its origin and its key, as its parent knows it), which places a cross-site frame within the tab. */
        frameKey: z.string().max(400).optional(),
        input: InputOp,
      }),
      /** `trusted: false` when the debugger could not be used after all (it was detached): the reason says why. */
      result: z.object({
        trusted: z.boolean(),
        reason: z.string().optional(),
        /** For typed text: whether it went in as one insertion or key by key, and why (see typing-mode.ts). */
        typing: z.string().max(300).optional(),
      }),
    },
  },
  {},
);
export type InputChannel = typeof InputChannel;
