import { z } from 'zod';
import type { MessageUsage } from './claude-pricing';

/**
 * The events `claude -p --output-format stream-json --verbose` prints, one JSON object per line: a system "init" with
 * the session id, assistant messages whose content holds text and tool_use blocks, user messages carrying
 * tool_result blocks, and a final "result" with the cost, turns and whether the run failed. Schemas are loose: the
 * CLI adds fields between versions and the loop reads only these.
 */
const ToolUse = z.looseObject({ type: z.literal('tool_use'), name: z.string(), input: z.record(z.string(), z.unknown()).default({}) });
const Text = z.looseObject({ type: z.literal('text'), text: z.string() });
const ToolResult = z.looseObject({ type: z.literal('tool_result'), is_error: z.boolean().optional(), content: z.unknown().optional() });

const SystemEvent = z.looseObject({ type: z.literal('system'), subtype: z.string().optional(), session_id: z.string().optional(), model: z.string().optional() });
const AssistantEvent = z.looseObject({
  type: z.literal('assistant'),
  message: z.looseObject({ content: z.array(z.unknown()).default([]) }),
  session_id: z.string().optional(),
  /** Set on the message the CLI makes up itself when a request failed: authentication_failed, billing_error, ... */
  error: z.string().optional(),
});
const count = z.number().nonnegative().nullish().transform((value) => value ?? undefined);
const Usage = z.looseObject({ input_tokens: count, output_tokens: count, cache_creation_input_tokens: count, cache_read_input_tokens: count });
/** Raw API stream events, printed with --include-partial-messages: the only place the output token count is final. */
const StreamEvent = z.looseObject({ type: z.literal('stream_event'), event: z.looseObject({ type: z.string() }) });
const MessageStart = z.looseObject({ type: z.literal('message_start'), message: z.looseObject({ id: z.string(), model: z.string().default(''), usage: Usage.optional() }) });
const MessageDelta = z.looseObject({ type: z.literal('message_delta'), usage: Usage.optional() });
const UserEvent = z.looseObject({
  type: z.literal('user'),
  message: z.looseObject({ content: z.union([z.string(), z.array(z.unknown())]).default([]) }),
});
export const ResultEvent = z.looseObject({
  type: z.literal('result'),
  subtype: z.string().optional(),
  is_error: z.boolean().default(false),
  result: z.string().optional(),
  session_id: z.string().optional(),
  num_turns: z.number().int().optional(),
  total_cost_usd: z.number().nonnegative().optional(),
  duration_ms: z.number().optional(),
  /** The HTTP status of the API error that ended the run, when one did. */
  api_error_status: z.number().nullish(),
  /** Tool calls the permission mode refused, as the CLI lists them. */
  permission_denials: z.array(z.unknown()).optional(),
  /** Error subtypes may carry their messages here instead of in `result`. */
  errors: z.array(z.unknown()).optional(),
});
export type ResultEvent = z.infer<typeof ResultEvent>;

export type StreamItem =
  | { kind: 'init'; sessionId?: string; model?: string }
  | { kind: 'action'; action: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool-error'; text: string }
  | { kind: 'result'; result: ResultEvent }
  | { kind: 'message-start'; id: string; model: string; usage: MessageUsage }
  | { kind: 'message-delta'; usage: MessageUsage }
  /** A request failed and the CLI says so in a message it wrote itself (not logged in, a bad key, no credit, 5xx). */
  | { kind: 'api-error'; error: string; text: string }
  /** The permission mode refused a tool call: the fixer could not do what it tried. */
  | { kind: 'permission-denied'; text: string }
  | { kind: 'other' };

/** How the CLI words a tool call that the permission mode refused (versions differ). */
const PERMISSION_REFUSAL = /requires approval|haven't granted it yet|permission to use \w+ (?:has been|was) denied/i;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const short = (text: string, max = 80): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A person's view of a tool call: which tool, on which file or with which command. */
export function describeToolUse(name: string, input: Record<string, unknown>): string {
  const target = str(input.file_path) || str(input.notebook_path) || str(input.path) || str(input.pattern) || str(input.command) || str(input.url);
  return target ? `${name} ${short(target.replace(/\s+/g, ' '))}` : name;
}

export function parseStreamLine(line: string): StreamItem[] {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return [];
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return [];
  }
  const system = SystemEvent.safeParse(value);
  if (system.success && system.data.subtype === 'init') {
    return [{ kind: 'init', ...(system.data.session_id ? { sessionId: system.data.session_id } : {}), ...(system.data.model ? { model: system.data.model } : {}) }];
  }
  const stream = StreamEvent.safeParse(value);
  if (stream.success) {
    const start = MessageStart.safeParse(stream.data.event);
    if (start.success) return [{ kind: 'message-start', id: start.data.message.id, model: start.data.message.model, usage: start.data.message.usage ?? {} }];
    const delta = MessageDelta.safeParse(stream.data.event);
    if (delta.success) return [{ kind: 'message-delta', usage: delta.data.usage ?? {} }];
    return [{ kind: 'other' }];
  }
  const assistant = AssistantEvent.safeParse(value);
  if (assistant.success) {
    if (assistant.data.error) {
      const text = assistant.data.message.content.map((block) => Text.safeParse(block)).map((parsed) => (parsed.success ? parsed.data.text : '')).join(' ').trim();
      return [{ kind: 'api-error', error: assistant.data.error, text }];
    }
    return assistant.data.message.content.flatMap((block): StreamItem[] => {
      const tool = ToolUse.safeParse(block);
      if (tool.success) return [{ kind: 'action', action: describeToolUse(tool.data.name, tool.data.input) }];
      const text = Text.safeParse(block);
      return text.success ? [{ kind: 'text', text: text.data.text }] : [];
    });
  }
  const user = UserEvent.safeParse(value);
  if (user.success && Array.isArray(user.data.message.content)) {
    return user.data.message.content.flatMap((block): StreamItem[] => {
      const result = ToolResult.safeParse(block);
      if (!result.success || result.data.is_error !== true) return [];
      const content = typeof result.data.content === 'string' ? result.data.content : JSON.stringify(result.data.content ?? '');
      if (PERMISSION_REFUSAL.test(content)) return [{ kind: 'permission-denied', text: short(content, 300) }];
      return [{ kind: 'tool-error', text: short(content, 300) }];
    });
  }
  const result = ResultEvent.safeParse(value);
  if (result.success) return [{ kind: 'result', result: result.data }];
  return [{ kind: 'other' }];
}
