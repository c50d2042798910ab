import Anthropic from '@anthropic-ai/sdk';
import { AppError } from '../../errors';
import type { CompleteOptions, ConversationMessage, Provider, ProviderOptions, ProviderReply, ProviderRequest, ToolCall, Usage } from './provider';
import { providerWithErrors } from './provider-error';

type MessageParam = Anthropic.Messages.MessageParam;
type UserBlock = Anthropic.Messages.TextBlockParam | Anthropic.Messages.ImageBlockParam | Anthropic.Messages.ToolResultBlockParam;
type AssistantBlock = Anthropic.Messages.TextBlockParam | Anthropic.Messages.ToolUseBlockParam;

export type AnthropicProviderOptions = ProviderOptions<Anthropic>;

function parseInput(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // The tool result that follows tells the model its arguments were not JSON; the history only needs a valid object.
    return {};
  }
}

/**
 * Anthropic wants alternating user and assistant turns, with tool results as blocks of the next user turn. Tool
 * results and the following observation therefore merge into one user message.
 */
function toMessages(messages: ConversationMessage[], vision: boolean): MessageParam[] {
  const out: MessageParam[] = [];
  let userBlocks: UserBlock[] = [];
  const flushUser = (): void => {
    if (userBlocks.length > 0) out.push({ role: 'user', content: userBlocks });
    userBlocks = [];
  };
  for (const message of messages) {
    if (message.role === 'assistant') {
      flushUser();
      const blocks: AssistantBlock[] = [];
      if (message.content !== '') blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) });
      if (blocks.length === 0) blocks.push({ type: 'text', text: '(no reply)' });
      out.push({ role: 'assistant', content: blocks });
    } else if (message.role === 'tool') {
      userBlocks.push({ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content, is_error: message.isError });
    } else {
      // A breakpoint on the turn that later turns repeat unchanged: the next request reads everything up to it from
      // the cache (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching).
      userBlocks.push({ type: 'text', text: message.content, ...(message.cacheBreakpoint ? { cache_control: { type: 'ephemeral' as const } } : {}) });
      if (message.image && vision) {
        userBlocks.push({ type: 'image', source: { type: 'base64', media_type: message.image.mediaType, data: message.image.base64 } });
      }
    }
  }
  flushUser();
  return out;
}

function numbers(usage: object): Record<string, number> {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => typeof value === 'number'));
}

/** Anthropic counts cache reads and writes apart from `input_tokens`; Deputy's input count includes them. */
function anthropicUsage(usage: { input_tokens?: number | null; output_tokens?: number | null; cache_read_input_tokens?: number | null; cache_creation_input_tokens?: number | null }): Usage {
  const read = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: (usage.input_tokens ?? 0) + read + written,
    outputTokens: usage.output_tokens ?? 0,
    ...(read > 0 ? { cachedInputTokens: read } : {}),
    ...(written > 0 ? { cacheWriteTokens: written } : {}),
  };
}

/** Messages with tools over the official Anthropic client, streaming by default. */
export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const label = options.label ?? 'anthropic';
  const vision = options.vision ?? false;
  const now = options.now ?? Date.now;
  const where = { label, model: options.model, baseUrl: options.client.baseURL };

  async function complete(request: ProviderRequest, callOptions: CompleteOptions = {}): Promise<ProviderReply> {
    const body = {
      model: options.model,
      max_tokens: options.maxOutputTokens ?? 4096,
      ...(options.reasoningEffort === undefined ? {} : { output_config: { effort: options.reasoningEffort } }),
      // The system prompt and the tools before it are the same in every turn of a task: the first breakpoint.
      system: [{ type: 'text' as const, text: request.system, cache_control: { type: 'ephemeral' as const } }],
      messages: toMessages(request.messages, vision),
      ...(request.tools.length > 0
        ? { tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Messages.Tool.InputSchema })) }
        : {}),
    };
    const requestOptions = callOptions.signal ? { signal: callOptions.signal } : {};
    if (options.stream === false) {
      const message = await options.client.messages.create({ ...body, stream: false }, requestOptions);
      if (!Array.isArray(message.content)) throw new AppError('bad_reply', `${label} (${where.baseUrl}) sent a reply without content. Check that the base URL points at the Anthropic API.`);
      let text = '';
      const toolCalls: ToolCall[] = [];
      for (const block of message.content) {
        if (block.type === 'text') text += block.text;
        else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
      }
      return {
        text,
        toolCalls,
        usage: anthropicUsage(message.usage),
        model: message.model,
        stopReason: message.stop_reason,
      };
    }

    const stream = await options.client.messages.create({ ...body, stream: true }, requestOptions);
    let text = '';
    let model = options.model;
    let stopReason: string | null = null;
    let usage: Record<string, number> = {};
    let outputTokens = 0;
    const calls = new Map<number, ToolCall>();
    let started = false;
    for await (const event of stream) {
      if (event.type === 'message_start') {
        started = true;
        model = event.message.model;
        usage = numbers(event.message.usage);
        outputTokens = event.message.usage.output_tokens;
      } else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
        calls.set(event.index, { id: event.content_block.id, name: event.content_block.name, arguments: '' });
      } else if (event.type === 'content_block_delta') {
        if (event.delta.type === 'text_delta') {
          text += event.delta.text;
          callOptions.onText?.(event.delta.text);
        } else if (event.delta.type === 'input_json_delta') {
          const call = calls.get(event.index);
          if (call) call.arguments += event.delta.partial_json;
        }
      } else if (event.type === 'message_delta') {
        stopReason = event.delta.stop_reason ?? stopReason;
        outputTokens = event.usage.output_tokens;
        // The final counts, where the server sends them here, replace those of message_start.
        usage = { ...usage, ...numbers(event.usage) };
      }
    }
    if (!started) throw new AppError('bad_reply', `${label} (${where.baseUrl}) sent an empty or unreadable stream. Check that the base URL points at the Anthropic API.`);
    const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    return { text, toolCalls, usage: { ...anthropicUsage(usage), outputTokens }, model, stopReason };
  }

  return providerWithErrors(
    { label, model: options.model, vision },
    where,
    now,
    { userAbort: Anthropic.APIUserAbortError, connection: Anthropic.APIConnectionError },
    complete,
  );
}
