import { z } from 'zod';
import type { McpCallResult, McpToolDescriptor } from '../protocol/mcp-protocol';
import type { RiskClass } from './risk-class';
import { type AnyTool, defineTool, quote } from './tool';
import { wrapUntrusted } from './untrusted';

/** How a tool from elsewhere is run: its arguments in, an MCP-shaped result out. */
export type ExternalCall = (args: Record<string, unknown>, signal: AbortSignal | undefined) => Promise<McpCallResult>;

/**
 * The risk of an MCP server's tool for the policy gate: what it says it only reads counts as a read, what it says it
 * destroys cannot be undone, and anything else acts (the MCP default, destructive unless told otherwise, would make every
 * tool ask; "act" follows the task's mode instead).
 */
export function riskOfMcpTool(tool: Pick<McpToolDescriptor, 'annotations'>): RiskClass {
  if (tool.annotations?.readOnlyHint === true) return 'read';
  if (tool.annotations?.destructiveHint === true) return 'irreversible';
  return 'act';
}

/** A tool name the models accept and Deputy's tools allow: lowercase, digits and underscores, at most 64, unique. */
export function toolName(parts: string[], taken: ReadonlySet<string>): string {
  const base = parts
    .join('_')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  let name = (/^[a-z]/.test(base) ? base : `t_${base}`).slice(0, 64);
  for (let n = 2; taken.has(name); n += 1) name = `${name.slice(0, 60)}_${n}`;
  return name;
}

/** The tool's JSON Schema as zod, so bad arguments are refused with a message before anything is sent. */
function inputOf(schema: Record<string, unknown>): z.ZodObject {
  try {
    const parsed = z.fromJSONSchema(schema);
    if (parsed instanceof z.ZodObject) return parsed;
  } catch {
    // A schema zod cannot read is checked by the server alone.
  }
  return z.looseObject({});
}

/** What a model reads of an outside tool's result: its text parts, marked as untrusted output. */
export function resultText(result: McpCallResult, from: string): string {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : `(an image, ${part.mimeType}, not shown)`)).join('\n');
  return wrapUntrusted('untrusted_output', { from }, text === '' ? '(no output)' : text);
}

/**
 * Declares a tool that runs elsewhere (an MCP server's tool, or a page tool a shell task borrows from the browser) as
 * one of Deputy's own, so it goes through the same validation, policy gate, approvals and redaction as any other call.
 */
export function externalTool<E>(spec: {
  name: string;
  descriptor: Pick<McpToolDescriptor, 'description' | 'inputSchema'>;
  risk: RiskClass;
  /** The past-tense step text: `Called docs tool search`. */
  describe: (args: Record<string, unknown>) => string;
  /** Names the source in the untrusted wrapper. */
  from: string;
  call: ExternalCall;
}): AnyTool<E> {
  const { $schema: _ignored, ...parameters } = spec.descriptor.inputSchema;
  return defineTool({
    name: spec.name,
    description: spec.descriptor.description.slice(0, 4000),
    input: inputOf(parameters),
    parameters: { type: 'object', ...parameters },
    risk: spec.risk,
    changesPage: false,
    describe: (args) => spec.describe(args),
    handler: async (args, context) => {
      const result = await spec.call(args, context.signal);
      return { ok: !result.isError, content: resultText(result, spec.from) };
    },
  });
}

/** Step text for a call of an MCP server's tool, with its arguments shortened. */
export function describeServerCall(server: string, tool: string, args: Record<string, unknown>): string {
  const shown = JSON.stringify(args);
  return `Called ${server} tool ${tool}${shown === '{}' ? '' : ` with ${quote(shown, 80)}`}`;
}

/**
 * The tools of the user's MCP servers as Deputy's own, named `mcp_<server>_<tool>` (shortened to 64 characters, made
 * unique), each through the policy gate at the risk its annotations give.
 */
export function serverTools<E>(
  listed: { server: string; tool: McpToolDescriptor }[],
  call: (server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal | undefined) => Promise<McpCallResult>,
  taken: Iterable<string> = [],
): AnyTool<E>[] {
  const names = new Set(taken);
  return listed.map(({ server, tool }) => {
    const name = toolName(['mcp', server, tool.name], names);
    names.add(name);
    return externalTool<E>({
      name,
      descriptor: { ...tool, description: `${tool.description || tool.name} (a tool of the user's MCP server "${server}")` },
      risk: riskOfMcpTool(tool),
      describe: (args) => describeServerCall(server, tool.name, args),
      from: `mcp server ${server}`,
      call: (args, signal) => call(server, tool.name, args, signal),
    });
  });
}
