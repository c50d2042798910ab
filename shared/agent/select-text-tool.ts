import { z } from 'zod';
import { defineTool, describeRef, quote } from './tool';
import { perform, ref, type WebContext } from './web-perform';

/**
 * Selecting text as a person does with the mouse (to copy it, to format it in an editor, when a page asks for a
 * highlight). The selection is read back: the step fails with what is selected when it is not the text asked for.
 */
export const selectTextTool = defineTool({
  name: 'select_text',
  description: 'Select text as with the mouse, to format, copy or highlight it.',
  input: z.object({
    text: z.string().min(1).max(2000).describe('As the page shows it.'),
    ref: ref.optional().describe('The element holding it.'),
  }),
  risk: 'act',
  changesPage: false,
  describe: (args, page) => `Selected ${quote(args.text, 40)}${args.ref === undefined ? '' : ` in ${describeRef(args.ref, page)}`}`,
  handler: (args, context: WebContext) => perform({ kind: 'select_text', text: args.text, ...(args.ref === undefined ? {} : { ref: args.ref }) }, context),
});
