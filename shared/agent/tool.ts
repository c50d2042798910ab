import { z } from 'zod';
import type { TaskOutcome } from './agent-state';
import type { ApprovalAnswer } from './approval';
import type { BlockedEgress } from './egress';
import type { ObservedChat, ObservedDialog, ObservedDownload, ObservedElement } from './environment';
import type { Plan } from './plan';
import type { RiskClass } from './risk-class';

/** What a tool's step text may look up: the element behind a ref on the page the model acted on. */
export interface PageLookup {
  element(ref: number): ObservedElement | undefined;
  url: string;
  /** The support chat as the model saw it, when the step observed one. */
  chat?: ObservedChat;
  /** The JavaScript dialog open over the page, when the step observed one. */
  dialog?: ObservedDialog;
  /** The task's downloads as the step observed them. */
  downloads?: ObservedDownload[];
  /** The origins of cross-origin frames whose words the model was shown with this page. */
  frameOrigins?: string[];
  /** The origins of cross-origin frames whose words the model was shown at earlier steps of the task (still in its context). */
  earlierFrameOrigins?: string[];
  /** The tabs this task works in (it started in or opened); switching to or closing any other one asks. */
  ownTabs?: number[];
}

/** What a tool handler reports. Failures are results too: they go back to the model, never up as exceptions. */
export interface ToolResult {
  ok: boolean;
  /** The tool result the model reads next (already free of secrets). */
  content: string;
  /** Whether the page changed, as verified by the environment; absent for tools that do not touch the page. */
  changed?: boolean;
  evidence?: string[];
  /** Where the call's time went, by part, in ms (for the trace only; never stored with the call or shown). */
  timings?: Record<string, number>;
}

/** What the loop lends a handler for one call: the environment and the few loop services a tool may use. */
export interface ToolContext<E> {
  environment: E;
  signal?: AbortSignal;
  /** Replaces `{{name}}` placeholders with the user's real values; only handlers that type into the page use it. */
  resolveSecrets(text: string): string;
  setPlan(plan: Plan): void;
  /** The user's answer, or null when nobody can answer during this run (a headless run without a terminal). */
  askUser(question: string): Promise<string | null>;
  finish(success: boolean, summary: string, extra?: Pick<TaskOutcome, 'label' | 'handedToUser'>): void;
  /**
   * Asks for a screenshot of the page with the next page view, for a model that reads images; false when this model
   * cannot be sent one.
   */
  requestScreenshot?(): boolean;
  /** Asks the user about a request the egress guard held during this call; approved, its origin is allowed. */
  approveEgress?(blocked: BlockedEgress): Promise<ApprovalAnswer>;
}

export interface ToolDeclaration<S extends z.ZodObject = z.ZodObject, E = unknown> {
  name: string;
  description: string;
  input: S;
  risk: RiskClass;
  /**
   * Whether the page may be different afterwards (a click, a submit), so later calls in the same reply are not run
   * blind on element numbers of a page that is gone. Filling one field of a form leaves the others where they were.
   */
  changesPage: boolean | ((args: z.infer<S>) => boolean);
  /**
   * For tools that say something to another person (a support chat): the exact text that would go out, placeholders
   * unresolved. The policy gate checks it for personal data and commitments.
   */
  outgoingMessage?: (args: z.infer<S>, page: PageLookup) => string;
  /** The step text users read, in the past tense: `Clicked [14] button "Add to cart"`. */
  describe(args: z.infer<S>, page: PageLookup): string;
  handler(args: z.infer<S>, context: ToolContext<E>): Promise<ToolResult>;
  /**
   * The JSON Schema models are given, when the tool comes from elsewhere with its own (an MCP server's tool); by
   * default it is derived from `input`.
   */
  parameters?: Record<string, unknown>;
}

/** Any declaration, with its argument type erased so tools of different shapes share one list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool<E = unknown> = ToolDeclaration<any, E>;

/** Declares a tool once; the same object feeds the provider schema, validation, step text and the policy gate. */
export function defineTool<S extends z.ZodObject, E>(declaration: ToolDeclaration<S, E>): ToolDeclaration<S, E> {
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(declaration.name)) {
    throw new Error(`Tool name "${declaration.name}" must be lowercase letters, digits and underscores.`);
  }
  return declaration;
}

/** The tool as providers declare it: name, description and JSON Schema of its arguments. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * zod writes the safe-integer range onto every integer; it says nothing to a model, costs tokens in every request,
 * and some compatible servers reject schemas with unusual bounds, so it goes.
 */
function dropIntegerNoise(node: unknown): void {
  if (Array.isArray(node)) node.forEach(dropIntegerNoise);
  else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    for (const key of ['minimum', 'maximum']) if (SAFE_INTEGER_BOUNDS.has(record[key] as number)) delete record[key];
    Object.values(record).forEach(dropIntegerNoise);
  }
}

/**
 * The caps on a string's length and an array's items (5,000 characters to type, 20 plan steps) are a defence against
 * runaway input, far from any call made in earnest; every request carried them with every tool. They still hold:
 * parseToolArguments checks the declaration and names the field and its limit when a call goes past one.
 */
const LENGTH_CAPS = ['minLength', 'maxLength', 'minItems', 'maxItems'];

function dropLengthCaps(node: unknown): void {
  if (Array.isArray(node)) node.forEach(dropLengthCaps);
  else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    for (const key of LENGTH_CAPS) if (typeof record[key] === 'number') delete record[key];
    // A property may itself be named like a cap; only the schema keywords go, never a field.
    Object.entries(record).forEach(([key, value]) => (key === 'properties' ? Object.values(value as object).forEach(dropLengthCaps) : dropLengthCaps(value)));
  }
}

/** JSON Schema of the tool's input as the model writes it: fields with defaults are optional. */
export function toToolSchema(tool: AnyTool<never>): ToolSchema {
  if (tool.parameters) return { name: tool.name, description: tool.description, parameters: tool.parameters };
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  dropIntegerNoise(schema);
  dropLengthCaps(schema);
  return { name: tool.name, description: tool.description, parameters: schema };
}

export type ParsedArguments =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; message: string };

/**
 * Parses the raw argument text a model sent. Every failure becomes a sentence the model can act on, naming the field
 * and what was expected, so it can correct the call on the next turn.
 */
export function parseToolArguments(tool: { name: string; input: z.ZodObject }, raw: string): ParsedArguments {
  let json: unknown;
  try {
    json = raw.trim() === '' ? {} : (JSON.parse(raw) as unknown);
  } catch {
    return { ok: false, message: `The arguments for ${tool.name} are not valid JSON. Send one JSON object that matches the tool's schema.` };
  }
  const parsed = tool.input.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
      .join('; ');
    return { ok: false, message: `Invalid arguments for ${tool.name}: ${issues}. Fix them and call the tool again.` };
  }
  return { ok: true, args: parsed.data };
}

/** Quotes page text for a step line, shortened so one long label does not flood the side panel. */
export function quote(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}

/**
 * `[14] button "Add to cart"`, `[15] clickable unnamed` as the snapshot writes a control with no name (never an empty
 * quote), or just `[14]` when the ref is not on the page the model saw.
 */
export function describeRef(ref: number, page: PageLookup): string {
  const element = page.element(ref);
  if (!element) return `[${ref}]`;
  return `[${ref}] ${element.role} ${element.name.trim() ? quote(element.name) : 'unnamed'}`;
}
