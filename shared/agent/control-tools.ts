import { z } from 'zod';
import { Plan, formatPlan } from './plan';
import { type AnyTool, defineTool, quote } from './tool';

export const updatePlanTool = defineTool({
  name: 'update_plan',
  description:
    'Record your plan as a checklist of sub-goals, and update it as you go (mark one step in_progress, finished ones completed). Call it before your first action.',
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
  description: 'Ask the user a question when the task is ambiguous or needs information only they have. The task pauses until they answer.',
  input: z.object({ question: z.string().min(1).max(1000).describe('The question, in one or two plain sentences.') }),
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
  description: 'Finish the task: say whether it succeeded and summarise what was done (or what stopped you).',
  input: z.object({
    success: z.boolean().describe('true only if the whole task was completed.'),
    summary: z.string().min(1).max(2000).describe('What was done, for the user, in a few sentences.'),
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
