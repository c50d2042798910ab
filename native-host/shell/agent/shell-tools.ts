import { z } from 'zod';
import { askUserTool, updatePlanTool } from '../../../shared/agent/control-tools';
import { type AnyTool, type ToolContext, type ToolResult, defineTool, quote } from '../../../shared/agent/tool';
import { wrapUntrusted } from '../../../shared/agent/untrusted';
import { AppError } from '../../../shared/errors';
import type { Delivery } from '../command-output';
import { formatSearch } from '../session-log';
import type { ProcessInfo } from '../shell-service';
import { commandLine, duration, processState } from '../../../shared/shell-text';
import type { ShellAgentEnvironment } from './shell-environment';

type ShellContext = ToolContext<ShellAgentEnvironment>;

const processId = z.string().regex(/^p\d+$/, 'a process id such as p3').describe('The process id, such as p3.');

/**
 * The output as the model reads it: untrusted text from programs, wrapped so it cannot speak as the user. The text
 * around it names the process; the wrapper does not, so the same failure twice reads the same (and is noticed).
 */
function outputBlock(output: Delivery): string {
  if (!output.fresh) return '(no new output)';
  return wrapUntrusted('untrusted_output', { from: 'command' }, output.text.replace(/\n$/, ''));
}

function endedText(process: ProcessInfo): string {
  if (process.status === 'lost') return `The connection was lost while ${process.id} ran (${process.lost ?? 'no reason given'}); it may or may not have finished. The next command reconnects: check the state before running it again.`;
  if (process.status === 'killed') return `${process.id} was killed, with everything it started.`;
  if (process.exitCode !== null) return `Exit code ${process.exitCode}.`;
  return `Ended by ${process.signal ?? 'a signal'}.`;
}

/** Tool failures that are the model's to handle (an unknown id, a lost connection) go back as results. */
async function guarded(work: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.code === 'cancelled') throw error;
    return { ok: false, content: error instanceof Error ? error.message : String(error) };
  }
}

export const runTool = defineTool({
  name: 'run',
  description:
    'Run shell code on the target (bash reads it from its standard input, so write it exactly as in a script: several lines, pipes, quotes and here-documents work). Output within the foreground wait comes back at once; a longer command goes on in the background with an id. Pagers are off and colours are stripped.',
  input: z.object({
    command: z.string().min(1).max(100_000).describe('The shell code to run.'),
    cwd: z.string().min(1).max(4096).optional().describe('The folder to run it in; by default the start folder shown in the state.'),
    pty: z.boolean().default(false).describe('Run it in a terminal: for sudo asking for a password (the user types it, never you) and tools that need a terminal.'),
    background: z.boolean().default(false).describe('Start it in the background at once (a server, a watcher) instead of waiting for it.'),
  }),
  risk: 'act',
  changesPage: false,
  describe: (args) => `Ran ${quote(args.command, 100)}${args.background ? ' in the background' : ''}${args.pty ? ' in a terminal' : ''}`,
  handler: (args, context: ShellContext) =>
    guarded(async () => {
      const environment = context.environment;
      const { process, output } = await environment.service.run(
        {
          command: context.resolveSecrets(args.command),
          ...(args.cwd === undefined ? {} : { cwd: args.cwd }),
          pty: args.pty,
          background: args.background,
          waitMs: environment.waitMs,
        },
        context.signal,
      );
      if (process.status === 'running') {
        const head = args.background
          ? `Started in the background as ${process.id}.`
          : `Still running after ${duration(environment.waitMs)}: it goes on in the background as ${process.id}.`;
        return { ok: true, content: `${head} Use wait_for_output ${process.id} to wait for its output, check ${process.id} for its state, kill ${process.id} to stop it.\n${outputBlock(output)}` };
      }
      return { ok: process.status === 'exited' && process.exitCode === 0, content: `${endedText(process)}\n${outputBlock(output)}` };
    }),
});

export const processesTool = defineTool({
  name: 'processes',
  description: 'List the commands of this session: those running in the background, and how the others ended.',
  input: z.object({}),
  risk: 'read',
  changesPage: false,
  describe: () => 'Listed the processes',
  handler: (_args, context: ShellContext) => {
    const now = Date.now();
    const list = context.environment.service.list();
    if (list.length === 0) return Promise.resolve({ ok: true, content: 'No command was run yet.' });
    return Promise.resolve({
      ok: true,
      content: list.map((p) => `${p.id} ${processState(p, now)}${p.background ? ', background' : ''}${p.unread ? ', new output' : ''}: ${commandLine(p.command)}`).join('\n'),
    });
  },
});

export const checkTool = defineTool({
  name: 'check',
  description: "A process's state and the output it printed since you last read it (each piece of output is given once).",
  input: z.object({ id: processId }),
  risk: 'read',
  changesPage: false,
  describe: (args) => `Checked ${args.id}`,
  handler: (args, context: ShellContext) =>
    guarded(() => {
      const { process, output } = context.environment.service.check(args.id);
      return Promise.resolve({ ok: true, content: `${process.id} ${processState(process, Date.now())}.\n${outputBlock(output)}` });
    }),
});

export const killTool = defineTool({
  name: 'kill',
  description: 'Stop a process and everything it started (its whole process group).',
  input: z.object({ id: processId }),
  risk: 'act',
  changesPage: false,
  describe: (args) => `Killed ${args.id}`,
  handler: (args, context: ShellContext) =>
    guarded(async () => {
      const { process, output } = await context.environment.service.kill(args.id, 'agent');
      return { ok: true, content: `${process.id} ${processState(process, Date.now())}; its process group was ended.\n${outputBlock(output)}` };
    }),
});

export const waitForOutputTool = defineTool({
  name: 'wait_for_output',
  description: 'Wait until a background process prints something new (or a line matching a pattern), ends, or the time runs out; then get the new output.',
  input: z.object({
    id: processId,
    pattern: z.string().min(1).max(500).optional().describe('A regular expression (case-insensitive) the new output must match, such as "listening on|ready".'),
    timeout_seconds: z.number().min(1).max(600).default(30).describe('How long to wait at most.'),
  }),
  risk: 'read',
  changesPage: false,
  describe: (args) => `Waited for output of ${args.id}${args.pattern ? ` matching ${quote(args.pattern, 40)}` : ''}`,
  handler: (args, context: ShellContext) =>
    guarded(async () => {
      let pattern: RegExp | undefined;
      try {
        pattern = args.pattern === undefined ? undefined : new RegExp(args.pattern, 'im');
      } catch (error) {
        return { ok: false, content: `The pattern is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}` };
      }
      const { process, output, reason } = await context.environment.service.waitForOutput(
        args.id,
        { ...(pattern ? { pattern } : {}), timeoutMs: args.timeout_seconds * 1000 },
        context.signal,
      );
      const why =
        reason === 'output'
          ? pattern
            ? `${process.id} printed output matching /${args.pattern ?? ''}/.`
            : `${process.id} printed new output.`
          : reason === 'exited'
            ? `${process.id} ended: ${endedText(process)}`
            : `Nothing ${pattern ? 'matching ' : ''}new within ${args.timeout_seconds} s; ${process.id} is ${processState(process, Date.now())}.`;
      return { ok: reason !== 'timeout', content: `${why}\n${outputBlock(output)}` };
    }),
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create or replace a text file on the target with exactly this content (no quoting needed); its folder is created when missing.',
  input: z.object({
    path: z.string().min(1).max(4096).describe('The file; a relative path is from the start folder shown in the state.'),
    content: z.string().max(1_000_000).describe('The whole content of the file.'),
  }),
  risk: 'act',
  changesPage: false,
  describe: (args) => `Wrote ${args.path} (${Buffer.byteLength(args.content)} bytes)`,
  handler: (args, context: ShellContext) =>
    guarded(async () => {
      const written = await context.environment.service.writeFile(args.path, context.resolveSecrets(args.content));
      return { ok: true, content: `Wrote ${written.bytes} bytes to ${written.path}.` };
    }),
});

export const searchHistoryTool = defineTool({
  name: 'search_history',
  description:
    "Search this session's full log (every command, all of its output, files written, approvals) and get the matching lines with lines around them. Use it to recall details your working memory summarized away.",
  input: z.object({
    query: z.string().min(1).max(500).describe('Text to find (case-insensitive), or a regular expression with regex: true.'),
    regex: z.boolean().default(false).describe('Treat the query as a regular expression.'),
    context_lines: z.number().int().min(0).max(20).default(3).describe('Lines shown before and after each match.'),
    max_results: z.number().int().min(1).max(50).default(10).describe('How many places to show.'),
  }),
  risk: 'read',
  changesPage: false,
  describe: (args) => `Searched the log for ${quote(args.query, 60)}`,
  handler: (args, context: ShellContext) =>
    guarded(async () => {
      if (args.regex) {
        try {
          new RegExp(args.query, 'i');
        } catch (error) {
          return { ok: false, content: `The query is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}` };
        }
      }
      const result = await context.environment.log.search({ query: args.query, regex: args.regex, context: args.context_lines, maxResults: args.max_results });
      return { ok: true, content: wrapUntrusted('untrusted_output', { source: 'session log' }, formatSearch(args.query, result)) };
    }),
});

export const setTimeoutTool = defineTool({
  name: 'set_timeout',
  description: 'Change how long the next commands run in the foreground before they go on in the background (the default is 10 s).',
  input: z.object({ seconds: z.number().min(1).max(600).describe('The new foreground wait, in seconds.') }),
  risk: 'read',
  changesPage: false,
  describe: (args) => `Set the foreground wait to ${args.seconds} s`,
  handler: (args, context: ShellContext) => {
    context.environment.waitMs = Math.round(args.seconds * 1000);
    return Promise.resolve({ ok: true, content: `Commands now run in the foreground for up to ${duration(context.environment.waitMs)} before going to the background.` });
  },
});

export const reportTool = defineTool({
  name: 'report',
  description: 'Finish the task with your report to the user: whether the objective was reached, what you did and found, and anything still running or left to do.',
  input: z.object({
    success: z.boolean().describe('true only if the whole objective was reached.'),
    summary: z.string().min(1).max(8000).describe('The report, for the user.'),
  }),
  risk: 'read',
  changesPage: false,
  describe: (args) => (args.success ? 'Reported the objective done' : 'Reported the objective not reached'),
  handler: (args, context: ShellContext) => {
    context.finish(args.success, args.summary);
    return Promise.resolve({ ok: true, content: 'Report delivered; the task is finished.' });
  },
});

/** The shell tools in the order the model sees them. */
export function shellTools(): AnyTool<ShellAgentEnvironment>[] {
  return [
    updatePlanTool,
    runTool,
    processesTool,
    checkTool,
    waitForOutputTool,
    killTool,
    writeFileTool,
    searchHistoryTool,
    setTimeoutTool,
    askUserTool,
    reportTool,
  ] as AnyTool<ShellAgentEnvironment>[];
}
