import { z } from 'zod';
import { Plan, formatPlan } from './plan';
import { type AnyTool, defineTool, quote } from './tool';

export const updatePlanTool = defineTool({
  name: 'update_plan',
  description:
    'Record your plan as a checklist of sub-goals before your first action, and keep it current as you go.',
  input: Plan,
  risk: 'read',
  changesPage: false,
  describe: (args) => `Updated the plan (${args.steps.filter((s) => s.status === 'completed').length}/${args.steps.length} done)`,
  handler: (args, context) => {
    context.setPlan(args);
    return Promise.resolve({ ok: true, content: `Plan recorded:\n${formatPlan(args)}` });
  },
});

export const askUserTool = defineTool({
  name: 'ask_user',
  description: 'Ask the user when the task is ambiguous or needs what only they know; the task waits for the answer.',
  input: z.object({ question: z.string().min(1).max(1000).describe('The question, in plain words.') }),
  risk: 'read',
  changesPage: false,
  describe: (args) => `Asked the user ${quote(args.question, 80)}`,
  handler: async (args, context) => {
    const answer = await context.askUser(args.question);
    if (answer === null) {
      return { ok: false, content: 'Nobody can answer questions during this task. Decide with what you know, or call done and explain what is missing.' };
    }
    return { ok: true, content: `The user answered: ${answer}` };
  },
});

export const doneTool = defineTool({
  name: 'done',
  description: 'End the task, finished or not, with an honest summary.',
  input: z.object({
    success: z.boolean().describe('true only if the whole task was done.'),
    summary: z.string().min(1).max(2000).describe('What was done, or what stopped you, for the user.'),
  }),
  risk: 'read',
  changesPage: false,
  describe: (args) => (args.success ? 'Finished the task' : 'Gave up on the task'),
  handler: (args, context) => {
    context.finish(args.success, args.summary);
    return Promise.resolve({ ok: true, content: 'Task finished.' });
  },
});

/** Tools every environment gets: the plan, questions to the user, and the end of the task. */
export function controlTools<E>(): AnyTool<E>[] {
  return [updatePlanTool, askUserTool, doneTool] as AnyTool<E>[];
}
