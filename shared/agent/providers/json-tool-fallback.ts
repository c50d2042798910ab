import type { ToolSchema } from '../tool';
import type { CompleteOptions, ConversationMessage, Provider, ProviderReply, ProviderRequest, ToolCall } from './provider';

function toolGuide(tools: ToolSchema[]): string {
  const list = tools.map((t) => `- ${t.name}: ${t.description}\n  arguments (JSON Schema): ${JSON.stringify(t.parameters)}`).join('\n');
  return [
    'This model has no native tool calling, so you call tools by writing JSON.',
    'Reply with exactly one JSON object and nothing else: {"tool": "<tool name>", "arguments": { ... }}.',
    'Tools:',
    list,
  ].join('\n');
}

/** Past tool calls and results become plain text turns, since the server does not know tool messages. */
function flatten(messages: ConversationMessage[]): ConversationMessage[] {
  return messages.map((m): ConversationMessage => {
    if (m.role === 'assistant') {
      const calls = m.toolCalls.map((c) => `{"tool": ${JSON.stringify(c.name)}, "arguments": ${c.arguments.trim() === '' ? '{}' : c.arguments}}`);
      return { role: 'assistant', content: [m.content, ...calls].filter((s) => s !== '').join('\n'), toolCalls: [] };
    }
    if (m.role === 'tool') return { role: 'user', content: `Result of ${m.name}${m.isError ? ' (error)' : ''}: ${m.content}` };
    return m;
  });
}

/** Finds the first balanced JSON object in a reply, inside a code fence or not. */
export function extractJsonObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i += 1;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth += 1;
    else if (ch === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

/** Reads `{"tool": ..., "arguments": ...}` from a reply; anything else leaves the reply without a tool call. */
export function parseJsonToolCall(text: string, id: string): ToolCall | null {
  const json = extractJsonObject(text);
  if (json === null) return null;
  try {
    const value = JSON.parse(json) as unknown;
    if (value === null || typeof value !== 'object') return null;
    const { tool, name, arguments: args } = value as { tool?: unknown; name?: unknown; arguments?: unknown };
    const toolName = typeof tool === 'string' ? tool : typeof name === 'string' ? name : null;
    if (toolName === null) return null;
    return { id, name: toolName, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
  } catch {
    return null;
  }
}

/**
 * For models without tool calling (many small local models): tools are described in the system prompt, the history is
 * flattened to text, and the reply's JSON object becomes the tool call. A reply without one reaches the loop as a
 * reply without a tool call, which tells the model so.
 */
export function withJsonToolFallback(provider: Provider): Provider {
  return {
    label: provider.label,
    model: provider.model,
    vision: provider.vision,
    ...(provider.free ? { free: true } : {}),
    async complete(request: ProviderRequest, options?: CompleteOptions): Promise<ProviderReply> {
      const reply = await provider.complete(
        { system: `${request.system}\n\n${toolGuide(request.tools)}`, messages: flatten(request.messages), tools: [] },
        options,
      );
      const call = parseJsonToolCall(reply.text, `json_${crypto.randomUUID().slice(0, 8)}`);
      return { ...reply, toolCalls: call ? [call] : [] };
    },
  };
}
