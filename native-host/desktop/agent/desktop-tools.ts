import { z } from 'zod';
import { controlTools } from '../../../shared/agent/control-tools';
import { type AnyTool, type ToolContext, type ToolResult, defineTool, quote } from '../../../shared/agent/tool';
import { AppError } from '../../../shared/errors';
import type { DesktopAction } from '../../../shared/protocol';
import type { DesktopAgentEnvironment } from './desktop-environment';

type DesktopContext = ToolContext<DesktopAgentEnvironment>;

const x = z.number().min(0).describe('Pixels from the left edge of the latest screenshot.');
const y = z.number().min(0).describe('Pixels from the top edge of the latest screenshot.');
const at = (args: { x: number; y: number }): string => `(${Math.round(args.x)}, ${Math.round(args.y)})`;

/**
 * Runs one action. Refusals (a blocked window, text that needs approval, a point outside the image) go back to the
 * model as results it can act on; only a stop by the user ends the task.
 */
async function perform(action: DesktopAction, context: DesktopContext, approvedSensitive = false): Promise<ToolResult> {
  try {
    const result = await context.environment.act(action, { approvedSensitive });
    return { ok: true, content: result.description };
  } catch (error) {
    if (error instanceof AppError && error.code === 'cancelled') throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, content: `The action was not done: ${message}` };
  }
}

const pointTool = (name: 'click' | 'double_click' | 'right_click' | 'move', description: string, past: string) =>
  defineTool({
    name,
    description,
    input: z.object({ x, y }),
    risk: name === 'move' ? 'read' : 'act',
    changesPage: true,
    describe: (args) => `${past} at ${at(args)}`,
    handler: (args, context: DesktopContext) => perform({ kind: name, x: args.x, y: args.y }, context),
  });

export const clickTool = pointTool('click', 'Click the left mouse button at a point of the latest screenshot.', 'Clicked');
export const doubleClickTool = pointTool('double_click', 'Double-click at a point of the latest screenshot (open a file, select a word).', 'Double-clicked');
export const rightClickTool = pointTool('right_click', 'Right-click at a point of the latest screenshot to open its context menu.', 'Right-clicked');
export const moveTool = pointTool('move', 'Move the mouse pointer to a point without clicking (to reveal a tooltip or menu).', 'Moved the pointer');

export const dragTool = defineTool({
  name: 'drag',
  description: 'Press the left button at one point, move to another, and release (move a window, a slider, a file).',
  input: z.object({ from_x: x, from_y: y, to_x: x, to_y: y }),
  risk: 'act',
  changesPage: true,
  describe: (args) => `Dragged from ${at({ x: args.from_x, y: args.from_y })} to ${at({ x: args.to_x, y: args.to_y })}`,
  handler: (args, context: DesktopContext) =>
    perform({ kind: 'drag', from: { x: args.from_x, y: args.from_y }, to: { x: args.to_x, y: args.to_y } }, context),
});

export const scrollTool = defineTool({
  name: 'scroll',
  description: 'Turn the mouse wheel over a point of the screen.',
  input: z.object({
    x,
    y,
    direction: z.enum(['up', 'down', 'left', 'right']).describe('Which way the content should move into view.'),
    amount: z.number().int().min(1).max(30).default(5).describe('Wheel notches; 5 is about half a page.'),
  }),
  risk: 'read',
  changesPage: true,
  describe: (args) => `Scrolled ${args.direction} at ${at(args)}`,
  handler: (args, context: DesktopContext) => perform({ kind: 'scroll', x: args.x, y: args.y, direction: args.direction, amount: args.amount }, context),
});

export const typeTool = defineTool({
  name: 'type',
  description:
    'Type text into the focused window (click the field first). Use {{placeholders}} for the user\'s personal data; Deputy types the real value after the user approves.',
  input: z.object({ text: z.string().min(1).max(5000).describe('The text to type.') }),
  risk: 'act',
  changesPage: true,
  describe: (args) => `Typed ${quote(args.text, 50)}`,
  handler: (args, context: DesktopContext) => {
    const text = context.resolveSecrets(args.text);
    // Placeholders only resolve after the policy gate asked the user about personal data, so that text is approved.
    return perform({ kind: 'type', text }, context, text !== args.text);
  },
});

export const pressTool = defineTool({
  name: 'press',
  description: 'Press a key or a key chord: "enter", "tab", "esc", "ctrl+s", "alt+tab", "ctrl+shift+t".',
  input: z.object({ key: z.string().min(1).max(60).describe('Keys joined by "+", modifiers first.') }),
  risk: 'act',
  changesPage: true,
  describe: (args) => `Pressed ${args.key}`,
  handler: (args, context: DesktopContext) => perform({ kind: 'key', keys: args.key }, context),
});

export const waitTool = defineTool({
  name: 'wait',
  description: 'Wait for the screen to settle (an application starting, a page loading), up to 30 seconds.',
  input: z.object({ seconds: z.number().min(0).max(30).describe('How long to wait.') }),
  risk: 'read',
  changesPage: true,
  describe: (args) => `Waited ${args.seconds} s`,
  handler: (args, context: DesktopContext) => perform({ kind: 'wait', seconds: args.seconds }, context),
});

export const showScreenTool = defineTool({
  name: 'show_screen',
  description:
    'Get the screen\'s image with the next step even though it has not changed (when a step said the screen was unchanged and no image was attached, and you need to look at it again).',
  input: z.object({}),
  risk: 'read',
  changesPage: true,
  describe: () => 'Asked to see the screen again',
  handler: (_args, context: DesktopContext) => {
    context.environment.showNextImage();
    return Promise.resolve({ ok: true, content: 'The next step attaches the screen\'s image.' });
  },
});

export const callUserTool = defineTool({
  name: 'call_user',
  description:
    'Hand over to the user for something only they can do or decide (log in, solve a captcha, choose between options). Say exactly what you need; the task waits for their answer.',
  input: z.object({ request: z.string().min(1).max(1000).describe('What the user should do or answer, in one or two sentences.') }),
  risk: 'read',
  changesPage: true,
  describe: (args) => `Asked the user: ${quote(args.request, 80)}`,
  handler: async (args, context: DesktopContext) => {
    const answer = await context.askUser(args.request);
    return { ok: true, content: `The user answered: ${answer}` };
  },
});

/** The desktop tools in the order the model sees them, with the plan and done tools (call_user replaces ask_user). */
export function desktopTools(): AnyTool<DesktopAgentEnvironment>[] {
  const control = controlTools<DesktopAgentEnvironment>().filter((tool) => tool.name !== 'ask_user');
  return [
    ...control.filter((tool) => tool.name === 'update_plan'),
    clickTool,
    doubleClickTool,
    rightClickTool,
    moveTool,
    dragTool,
    scrollTool,
    typeTool,
    pressTool,
    waitTool,
    showScreenTool,
    callUserTool,
    ...control.filter((tool) => tool.name !== 'update_plan'),
  ] as AnyTool<DesktopAgentEnvironment>[];
}
