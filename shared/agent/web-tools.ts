import { z } from 'zod';
import { type AnyTool, defineTool, describeRef, quote } from './tool';
import { controlTools } from './control-tools';
import { inputTools } from './input-tools';
import { pointTools } from './point-tools';
import { selectTextTool } from './select-text-tool';
import type { WebEnvironment } from './web-environment';
import { perform, ref, type WebContext } from './web-perform';

export const clickTool = defineTool({
  name: 'click',
  description: 'Click an element.',
  input: z.object({ ref, double: z.boolean().default(false).describe('Double-click.') }),
  risk: 'act',
  changesPage: true,
  describe: (args, page) => `${args.double ? 'Double-clicked' : 'Clicked'} ${describeRef(args.ref, page)}`,
  handler: (args, context: WebContext) => perform({ kind: 'click', ref: args.ref, double: args.double }, context),
});

export const typeTool = defineTool({
  name: 'type',
  description: 'Type text into a field.',
  input: z.object({
    ref,
    text: z.string().max(5000).describe('The text; personal data as its {{placeholder}} token.'),
    clear: z.boolean().default(true).describe('Clear the field first.'),
    submit: z.boolean().default(false).describe('Press Enter after (usually submits).'),
  }),
  risk: 'act',
  changesPage: (args) => args.submit,
  describe: (args, page) => `Typed ${quote(args.text, 40)} into ${describeRef(args.ref, page)}${args.submit ? ' and pressed Enter' : ''}`,
  handler: (args, context: WebContext) =>
    perform({ kind: 'type', ref: args.ref, text: context.resolveSecrets(args.text), clear: args.clear, submit: args.submit }, context),
});

export const selectTool = defineTool({
  name: 'select',
  description: 'Choose options of a select or listbox.',
  input: z.object({
    ref,
    values: z.array(z.string()).min(1).describe('Option labels or values.'),
  }),
  risk: 'act',
  changesPage: false,
  describe: (args, page) => `Selected ${args.values.map((v) => quote(v, 30)).join(', ')} in ${describeRef(args.ref, page)}`,
  handler: (args, context: WebContext) =>
    perform({ kind: 'select', ref: args.ref, values: args.values.map((v) => context.resolveSecrets(v)) }, context),
});

export const checkTool = defineTool({
  name: 'check',
  description: 'Check or uncheck a checkbox, radio button or switch.',
  input: z.object({ ref, checked: z.boolean().default(true).describe('false to uncheck.') }),
  risk: 'act',
  changesPage: false,
  describe: (args, page) => `${args.checked ? 'Checked' : 'Unchecked'} ${describeRef(args.ref, page)}`,
  handler: (args, context: WebContext) => perform({ kind: 'check', ref: args.ref, checked: args.checked }, context),
});

export const hoverTool = defineTool({
  name: 'hover',
  description: 'Move the mouse over an element (to open a menu).',
  input: z.object({ ref }),
  risk: 'act',
  changesPage: false,
  describe: (args, page) => `Hovered over ${describeRef(args.ref, page)}`,
  handler: (args, context: WebContext) => perform({ kind: 'hover', ref: args.ref }, context),
});

export const pressTool = defineTool({
  name: 'press',
  description:
    'Press a key or combination (Enter, Escape, Tab, ArrowDown, Control+A), on an element or the page.',
  input: z.object({
    key: z.string().min(1).max(40).describe('As KeyboardEvent.key; modifiers joined by +.'),
    ref: ref.optional(),
    times: z.number().int().min(1).max(100).default(1).describe('How many times.'),
  }),
  risk: 'act',
  changesPage: true,
  describe: (args, page) => `Pressed ${args.key}${args.times > 1 ? ` ${args.times} times` : ''}${args.ref === undefined ? '' : ` on ${describeRef(args.ref, page)}`}`,
  handler: (args, context: WebContext) => perform({ kind: 'press', key: args.key, ref: args.ref, times: args.times }, context),
});

export const scrollTool = defineTool({
  name: 'scroll',
  description:
    'Scroll the page. With a ref and no direction: bring it into view (also in a box that scrolls on its own); with both: scroll its box.',
  input: z.object({
    direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('Which way (down if left out without a ref).'),
    ref: ref.optional().describe('An element to bring into view, or whose box to scroll.'),
    pages: z.number().positive().max(10).default(1).describe('How far, in screen heights.'),
  }),
  risk: 'read',
  changesPage: false,
  describe: (args, page) =>
    args.ref === undefined
      ? `Scrolled ${args.direction ?? 'down'}`
      : args.direction === undefined
        ? `Scrolled ${describeRef(args.ref, page)} into view`
        : `Scrolled ${args.direction} in ${describeRef(args.ref, page)}`,
  handler: (args, context: WebContext) => {
    // Without a ref there is nothing to bring into view: the page scrolls, down unless told otherwise.
    const direction = args.direction ?? (args.ref === undefined ? 'down' : undefined);
    return perform({ kind: 'scroll', ...(direction ? { direction } : {}), ref: args.ref, pages: args.pages }, context);
  },
});

export const navigateTool = defineTool({
  name: 'navigate',
  description: 'Open an http(s) address in this tab.',
  input: z.object({ url: z.url({ protocol: /^https?$/ }).describe('The full address.') }),
  risk: 'navigate',
  changesPage: true,
  describe: (args) => `Opened ${args.url}`,
  handler: (args, context: WebContext) => perform({ kind: 'navigate', url: args.url }, context),
});

export const backTool = defineTool({
  name: 'back',
  description: 'Go back a page in this tab.',
  input: z.object({}),
  risk: 'navigate',
  changesPage: true,
  describe: () => 'Went back',
  handler: (_args, context: WebContext) => perform({ kind: 'back' }, context),
});

export const findTool = defineTool({
  name: 'find',
  description: 'Search the whole page, also parts not in the snapshot, for text.',
  input: z.object({ text: z.string().min(1).max(200).describe('The text, case-insensitive.') }),
  risk: 'read',
  changesPage: false,
  describe: (args) => `Searched the page for ${quote(args.text, 40)}`,
  handler: (args, context: WebContext) => perform({ kind: 'find', text: args.text }, context),
});

export const waitTool = defineTool({
  name: 'wait',
  description: 'Wait for text to appear, or some seconds (at most 30).',
  input: z.object({
    seconds: z.number().min(0).max(30).optional().describe('Seconds to wait.'),
    text: z.string().max(200).optional().describe('Text to wait for.'),
  }),
  risk: 'read',
  changesPage: false,
  describe: (args) => (args.text === undefined ? `Waited ${args.seconds ?? 1} s` : `Waited for ${quote(args.text, 40)}`),
  handler: (args, context: WebContext) => perform({ kind: 'wait', seconds: args.seconds, text: args.text }, context),
});

export const tabsTool = defineTool({
  name: 'tabs',
  description: 'Open a new tab, switch to or close a tab, or list the tabs.',
  input: z.object({
    action: z.enum(['new', 'switch', 'close', 'list']).describe('What to do.'),
    tabId: z.number().int().optional().describe('For switch and close.'),
    url: z.string().optional().describe('For new: the address.'),
  }),
  risk: 'navigate',
  changesPage: true,
  describe: (args) =>
    args.action === 'new'
      ? `Opened a new tab${args.url ? ` at ${args.url}` : ''}`
      : args.action === 'list'
        ? 'Listed the open tabs'
        : `${args.action === 'switch' ? 'Switched to' : 'Closed'} tab ${args.tabId ?? '?'}`,
  handler: async (args, context: WebContext) => {
    if (args.action === 'new') return perform({ kind: 'tab_new', url: args.url }, context);
    if (args.action === 'list') return perform({ kind: 'tab_list' }, context);
    if (args.tabId === undefined) return { ok: false, content: `tabs ${args.action} needs a tabId from the tab list.` };
    return perform(args.action === 'switch' ? { kind: 'tab_switch', tabId: args.tabId } : { kind: 'tab_close', tabId: args.tabId }, context);
  },
});

/**
 * Offered when pages after an action are sent as what changed (the diff page view): the next message is the whole
 * page. It touches nothing, so its result says only what comes next.
 */
export const fullPageTool = defineTool({
  name: 'full_page',
  description: 'Show the whole page next, not what changed.',
  input: z.object({}),
  risk: 'read',
  changesPage: false,
  describe: () => 'Asked for the whole page',
  handler: () => Promise.resolve({ ok: true, content: 'The next message shows the whole current page.' }),
});

/** The web tools, in the order the model sees them. */
export const webTools: AnyTool<WebEnvironment>[] = [
  clickTool,
  typeTool,
  selectTool,
  checkTool,
  hoverTool,
  pressTool,
  scrollTool,
  ...inputTools,
  selectTextTool,
  ...pointTools,
  navigateTool,
  backTool,
  findTool,
  waitTool,
  tabsTool,
];

/**
 * Every tool a web task can offer the model: the web tools, full_page and the plan, question and done tools. A task
 * offers those its facts call for (see taskTools); the gate's tests walk all of them.
 */
export function webAgentTools(): AnyTool<WebEnvironment>[] {
  return [...webTools, fullPageTool, ...controlTools<WebEnvironment>()];
}
