import { z } from 'zod';

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
});
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
});
export type ResultEvent = z.infer<typeof ResultEvent>;

export type StreamItem =
  | { kind: 'init'; sessionId?: string; model?: string }
  | { kind: 'action'; action: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool-error'; text: string }
  | { kind: 'result'; result: ResultEvent }
  | { kind: 'other' };

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
  const assistant = AssistantEvent.safeParse(value);
  if (assistant.success) {
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
      return [{ kind: 'tool-error', text: short(content, 300) }];
    });
  }
  const result = ResultEvent.safeParse(value);
  if (result.success) return [{ kind: 'result', result: result.data }];
  return [{ kind: 'other' }];
}
