import OpenAI from 'openai';
import { AppError } from '../../errors';
import type { CompleteOptions, ConversationMessage, Provider, ProviderOptions, ProviderReply, ProviderRequest, ToolCall, Usage } from './provider';
import { providerWithErrors } from './provider-error';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.Completions.ChatCompletionTool;

export type OpenAiChatProviderOptions = ProviderOptions<OpenAI>;

function toChatMessages(system: string, messages: ConversationMessage[], vision: boolean): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'user') {
      if (message.image && vision) {
        out.push({
          role: 'user',
          content: [
            { type: 'text', text: message.content },
            { type: 'image_url', image_url: { url: `data:${message.image.mediaType};base64,${message.image.base64}` } },
          ],
        });
      } else {
        out.push({ role: 'user', content: message.content });
      }
    } else if (message.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        ...(message.toolCalls.length > 0
          ? { tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      });
    } else {
      out.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
    }
  }
  return out;
}

/** Chat completions with tools, over the official client: OpenAI itself or any server that speaks its API. */
export function createOpenAiChatProvider(options: OpenAiChatProviderOptions): Provider {
  const label = options.label ?? 'openai';
  const vision = options.vision ?? false;
  const now = options.now ?? Date.now;
  const where = { label, model: options.model, baseUrl: options.client.baseURL };

  async function complete(request: ProviderRequest, callOptions: CompleteOptions = {}): Promise<ProviderReply> {
    const tools: ChatTool[] = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    const body = {
      model: options.model,
      messages: toChatMessages(request.system, request.messages, vision),
      ...(tools.length > 0 ? { tools } : {}),
      ...(options.maxOutputTokens === undefined ? {} : { max_completion_tokens: options.maxOutputTokens }),
      ...(options.reasoningEffort === undefined ? {} : { reasoning_effort: options.reasoningEffort }),
    };
    const requestOptions = callOptions.signal ? { signal: callOptions.signal } : {};
    if (options.stream === false) {
      const completion = await options.client.chat.completions.create({ ...body, stream: false }, requestOptions);
      if (!Array.isArray(completion.choices)) throw new AppError('bad_reply', `${label} (${where.baseUrl}) sent a reply without choices. Check that the base URL points at an OpenAI-compatible API.`);
      const choice = completion.choices[0];
      if (!choice) throw new AppError('bad_reply', `${label} returned no choices for model "${options.model}".`);
      const toolCalls: ToolCall[] = [];
      for (const call of choice.message.tool_calls ?? []) {
        if (call.type === 'function') toolCalls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments });
      }
      return {
        text: choice.message.content ?? '',
        toolCalls,
        usage: completion.usage ? chatUsage(completion.usage) : null,
        model: completion.model,
        stopReason: choice.finish_reason,
      };
    }

    const stream = await options.client.chat.completions.create(
      { ...body, stream: true, stream_options: { include_usage: true } },
      requestOptions,
    );
    let text = '';
    let model = options.model;
    let stopReason: string | null = null;
    let usage: ProviderReply['usage'] = null;
    const calls = new Map<number, ToolCall>();
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += 1;
      if (chunk.model) model = chunk.model;
      if (chunk.usage) usage = chatUsage(chunk.usage);
      const choice = chunk.choices[0];
      if (!choice) continue;
      if (choice.finish_reason) stopReason = choice.finish_reason;
      if (choice.delta.content) {
        text += choice.delta.content;
        callOptions.onText?.(choice.delta.content);
      }
      for (const delta of choice.delta.tool_calls ?? []) {
        // Some compatible servers leave out the index: a delta with a new id starts the next call, others continue it.
        const known = delta.index as number | undefined;
        const index = known ?? (delta.id && ![...calls.values()].some((c) => c.id === delta.id) ? calls.size : Math.max(0, calls.size - 1));
        const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
        if (delta.id) call.id = delta.id;
        if (delta.function?.name) call.name += delta.function.name;
        if (delta.function?.arguments) call.arguments += delta.function.arguments;
        calls.set(index, call);
      }
    }
    if (chunks === 0) throw new AppError('bad_reply', `${label} (${where.baseUrl}) sent an empty or unreadable stream. Check that the base URL points at an OpenAI-compatible API.`);
    // Some compatible servers omit tool call ids; the conversation needs one to pair each result with its call.
    const toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ ...call, id: call.id === '' ? `call_${index}` : call.id }));
    return { text, toolCalls, usage, model, stopReason };
  }

  return providerWithErrors(
    { label, model: options.model, vision },
    where,
    now,
    { userAbort: OpenAI.APIUserAbortError, connection: OpenAI.APIConnectionError },
    complete,
  );
}

/** Chat Completions counts cached tokens inside prompt_tokens, and names them in its details where the server tells. */
function chatUsage(usage: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens?: number } | undefined }): Usage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens, ...(cached > 0 ? { cachedInputTokens: cached } : {}) };
}
