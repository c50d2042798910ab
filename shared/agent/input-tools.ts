import { z } from 'zod';
import { type AnyTool, defineTool, describeRef, quote } from './tool';
import type { WebEnvironment } from './web-environment';
import { perform, ref, type WebContext } from './web-perform';

export const dragTool = defineTool({
  name: 'drag',
  description:
    'Drag an element onto another (to_ref), or by dx, dy pixels.',
  input: z.object({
    ref,
    to_ref: ref.optional().describe('Where to drop it.'),
    dx: z.number().min(-5000).max(5000).default(0).describe('Pixels right (negative: left).'),
    dy: z.number().min(-5000).max(5000).default(0).describe('Pixels down (negative: up).'),
    position: z.enum(['center', 'before', 'after']).default('center').describe('Before or after to_ref, in a list.'),
  }),
  risk: 'act',
  changesPage: true,
  describe: (args, page) =>
    args.to_ref === undefined
      ? `Dragged ${describeRef(args.ref, page)} by ${args.dx}, ${args.dy} px`
      : `Dragged ${describeRef(args.ref, page)} ${args.position === 'center' ? 'onto' : `${args.position}`} ${describeRef(args.to_ref, page)}`,
  handler: (args, context: WebContext) =>
    perform({ kind: 'drag', ref: args.ref, ...(args.to_ref === undefined ? {} : { toRef: args.to_ref }), dx: args.dx, dy: args.dy, position: args.position }, context),
});

export const setValueTool = defineTool({
  name: 'set_value',
  description:
    'Set a slider, or a date, time, month, week, colour or number field, to a value as people write it ("10/16/2012", "10:15 PM", "#ff8800", "42"). A value the field refuses fails the step.',
  input: z.object({ ref, value: z.string().min(1).max(500).describe('The value.') }),
  risk: 'act',
  changesPage: false,
  describe: (args, page) => `Set ${describeRef(args.ref, page)} to ${quote(args.value, 40)}`,
  handler: (args, context: WebContext) => perform({ kind: 'set_value', ref: args.ref, value: context.resolveSecrets(args.value) }, context),
});

export const uploadTool = defineTool({
  name: 'upload',
  description:
    'Upload files the user attached to this task, by name, into a file field or the button that opens its file picker. No other file can be uploaded.',
  input: z.object({
    ref,
    files: z.array(z.string().min(1).max(255)).min(1).max(20).describe('Names of attached files.'),
  }),
  risk: 'act',
  changesPage: false,
  describe: (args, page) => `Uploaded ${args.files.map((f) => quote(f, 40)).join(', ')} to ${describeRef(args.ref, page)}`,
  handler: (args, context: WebContext) => perform({ kind: 'upload', ref: args.ref, files: args.files }, context),
});

export const dialogTool = defineTool({
  name: 'dialog',
  description:
    'Answer the JavaScript dialog over the page; a prompt is accepted with text.',
  input: z.object({
    action: z.enum(['accept', 'dismiss']).describe('accept (OK, Leave) or dismiss (Cancel, Stay).'),
    text: z.string().max(2000).optional().describe('A prompt\'s answer.'),
  }),
  risk: 'act',
  changesPage: true,
  describe: (args, page) => {
    const shown = page.dialog ? ` the ${page.dialog.type === 'beforeunload' ? '"leave this page?"' : page.dialog.type} ${quote(page.dialog.message, 50)}` : ' the dialog';
    if (args.action === 'dismiss') return `Dismissed${shown}`;
    return args.text === undefined ? `Accepted${shown}` : `Answered${shown} with ${quote(args.text, 30)}`;
  },
  handler: (args, context: WebContext) =>
    perform({ kind: 'dialog', action: args.action, ...(args.text === undefined ? {} : { text: context.resolveSecrets(args.text) }) }, context),
});

export const downloadTool = defineTool({
  name: 'download',
  description:
    'Keep or discard a download of this task; keeping a program waits for the user.',
  input: z.object({
    id: z.string().min(1).max(20).describe('The download id, e.g. "d2".'),
    action: z.enum(['keep', 'discard']).describe('keep or discard.'),
  }),
  risk: 'act',
  changesPage: false,
  describe: (args, page) => {
    const download = page.downloads?.find((d) => d.id === args.id);
    return `${args.action === 'keep' ? 'Kept' : 'Discarded'} the download ${download ? `${quote(download.name, 40)} (${args.id})` : args.id}`;
  },
  handler: (args, context: WebContext) => perform({ kind: 'download', id: args.id, action: args.action }, context),
});

/** The tools for input beyond clicks and keys: drags, values, files, dialogs and downloads. */
export const inputTools: AnyTool<WebEnvironment>[] = [dragTool, setValueTool, uploadTool, dialogTool, downloadTool];
