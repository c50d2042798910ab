import OpenAI from 'openai';
import { AppError } from '../../errors';
import type { CompleteOptions, ConversationMessage, Provider, ProviderOptions, ProviderReply, ProviderRequest, ToolCall } from './provider';
import { providerWithErrors } from './provider-error';

type InputItem = OpenAI.Responses.ResponseInputItem;
type Response = OpenAI.Responses.Response;

export type OpenAiResponsesProviderOptions = ProviderOptions<OpenAI>;

function toInput(messages: ConversationMessage[], vision: boolean): InputItem[] {
  const out: InputItem[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const image = message.image && vision ? message.image : undefined;
      out.push({
        role: 'user',
        content: image
          ? [
              { type: 'input_text', text: message.content },
              { type: 'input_image', detail: 'auto', image_url: `data:${image.mediaType};base64,${image.base64}` },
            ]
          : message.content,
      });
    } else if (message.role === 'assistant') {
      if (message.content !== '') out.push({ role: 'assistant', content: message.content });
      for (const call of message.toolCalls) out.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
    } else {
      out.push({ type: 'function_call_output', call_id: message.toolCallId, output: message.content });
    }
  }
  return out;
}

function readResponse(response: Response, label: string, baseUrl: string): ProviderReply {
  if (!Array.isArray(response.output)) throw new AppError('bad_reply', `${label} (${baseUrl}) sent a response without output. Check that the base URL points at an API with the Responses endpoint.`);
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content) if (part.type === 'output_text') text += part.text;
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
    }
  }
  return {
    text,
    toolCalls,
    usage: response.usage
      ? {
          inputTokens: response.usage.input_tokens,
          outputTokens: response.usage.output_tokens,
          // OpenAI caches long prompt prefixes on its own and counts what it read in the details.
          ...(response.usage.input_tokens_details?.cached_tokens ? { cachedInputTokens: response.usage.input_tokens_details.cached_tokens } : {}),
        }
      : null,
    model: response.model,
    stopReason: response.status ?? null,
  };
}

/**
 * OpenAI's Responses API. `store: false` keeps page content off OpenAI's servers beyond the call itself, so each
 * request carries the whole (masked) history like chat completions do.
 */
export function createOpenAiResponsesProvider(options: OpenAiResponsesProviderOptions): Provider {
  const label = options.label ?? 'openai';
  const vision = options.vision ?? false;
  const now = options.now ?? Date.now;
  const where = { label, model: options.model, baseUrl: options.client.baseURL };

  async function complete(request: ProviderRequest, callOptions: CompleteOptions = {}): Promise<ProviderReply> {
    const body = {
      model: options.model,
      instructions: request.system,
      input: toInput(request.messages, vision),
      store: false,
      ...(request.tools.length > 0
        ? { tools: request.tools.map((t) => ({ type: 'function' as const, name: t.name, description: t.description, parameters: t.parameters, strict: false })) }
        : {}),
      ...(options.maxOutputTokens === undefined ? {} : { max_output_tokens: options.maxOutputTokens }),
      ...(options.reasoningEffort === undefined ? {} : { reasoning: { effort: options.reasoningEffort } }),
    };
    const requestOptions = callOptions.signal ? { signal: callOptions.signal } : {};
    if (options.stream === false) {
      return readResponse(await options.client.responses.create({ ...body, stream: false }, requestOptions), label, where.baseUrl);
    }
    const stream = await options.client.responses.create({ ...body, stream: true }, requestOptions);
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') callOptions.onText?.(event.delta);
      else if (event.type === 'response.completed') return readResponse(event.response, label, where.baseUrl);
      else if (event.type === 'response.failed' || event.type === 'response.incomplete') {
        const reason = event.response.error?.message ?? event.response.incomplete_details?.reason ?? 'no reason given';
        throw new AppError('bad_reply', `${label} could not finish the response (${event.type.slice('response.'.length)}: ${reason}).`);
      }
    }
    throw new AppError('bad_reply', `${label} (${where.baseUrl}) ended the stream before the response was complete. Check that the base URL points at an API with the Responses endpoint.`);
  }

  return providerWithErrors(
    { label, model: options.model, vision },
    where,
    now,
    { userAbort: OpenAI.APIUserAbortError, connection: OpenAI.APIConnectionError },
    complete,
  );
}
