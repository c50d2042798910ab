import { z } from 'zod';
import { type AnyTool, defineTool } from './tool';
import type { WebEnvironment } from './web-environment';
import { perform, type WebContext } from './web-perform';

/**
 * Pointer input at a position, for what has no number in the snapshot: a canvas, a map, a drawing, a chart. The
 * position is read off the page's screenshot (a vision model is sent one with each step when the task allows it).
 * The policy gate judges these as it judges a click on the element under the point (the link it follows, the form it
 * submits, the site of the frame it lands in).
 */

const coordinate = (what: string) =>
  z
    .number()
    .min(0)
    .max(20_000)
    .describe(`${what}, in screenshot pixels.`);

/** Tools that act at a position rather than on a numbered element. */
export const POINT_TOOLS: ReadonlySet<string> = new Set(['click_at', 'hover_at', 'drag_at']);

const at = (x: number, y: number): string => `(${Math.round(x)}, ${Math.round(y)})`;

export const clickAtTool = defineTool({
  name: 'click_at',
  description:
    'Click at a position read off the screenshot, for what has no ref (a canvas, a shape).',
  input: z.object({
    x: coordinate('x'),
    y: coordinate('y'),
    double: z.boolean().default(false).describe('Double-click.'),
  }),
  risk: 'act',
  changesPage: true,
  describe: (args) => `${args.double ? 'Double-clicked' : 'Clicked'} at ${at(args.x, args.y)}`,
  handler: (args, context: WebContext) => perform({ kind: 'point', op: args.double ? 'double' : 'click', x: args.x, y: args.y }, context),
});

export const hoverAtTool = defineTool({
  name: 'hover_at',
  description: 'Move the mouse to a position read off the screenshot.',
  input: z.object({ x: coordinate('x'), y: coordinate('y') }),
  risk: 'act',
  changesPage: false,
  describe: (args) => `Moved the mouse to ${at(args.x, args.y)}`,
  handler: (args, context: WebContext) => perform({ kind: 'point', op: 'hover', x: args.x, y: args.y }, context),
});

export const dragAtTool = defineTool({
  name: 'drag_at',
  description:
    'Drag with the button held from one position to another, read off the screenshot.',
  input: z.object({
    x: coordinate('Start x'),
    y: coordinate('Start y'),
    to_x: coordinate('End x'),
    to_y: coordinate('End y'),
    via: z
      .array(z.object({ x: coordinate('x'), y: coordinate('y') }))
      .max(64)
      .optional()
      .describe('Points passed on the way, in order, to draw a path (a circle: points round it).'),
  }),
  risk: 'act',
  changesPage: true,
  describe: (args) => `Dragged from ${at(args.x, args.y)}${args.via?.length ? ` through ${args.via.length} points` : ''} to ${at(args.to_x, args.to_y)}`,
  handler: (args, context: WebContext) =>
    perform({ kind: 'point', op: 'drag', x: args.x, y: args.y, toX: args.to_x, toY: args.to_y, ...(args.via?.length ? { via: args.via } : {}) }, context),
});

export const screenshotTool = defineTool({
  name: 'screenshot',
  description:
    'Get a screenshot with the next page view: colours, shapes, positions for click_at.',
  input: z.object({}),
  risk: 'read',
  changesPage: false,
  describe: () => 'Asked for a screenshot of the page',
  handler: (_args, context: WebContext) =>
    Promise.resolve(
      context.requestScreenshot?.()
        ? { ok: true, content: 'A screenshot of the visible page comes with the next page view. Positions in it are what click_at, hover_at and drag_at take.' }
        : { ok: false, content: 'This model is not sent images, so no screenshot can be shown: work from the snapshot, or tell the user the task needs a model that reads images.' },
    ),
});

export const pointTools: AnyTool<WebEnvironment>[] = [clickAtTool, hoverAtTool, dragAtTool, screenshotTool];
