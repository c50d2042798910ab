import type { Screenshot } from '../environment';
import type { ToolSchema } from '../tool';

/** How hard a reasoning model thinks: OpenAI's reasoning_effort / reasoning.effort, Anthropic's output_config.effort. */
export type ReasoningEffort = 'low' | 'medium' | 'high';

/** What every provider adapter is built with; `C` is its SDK's client. */
export interface ProviderOptions<C> {
  /** A client built by the caller (with `dangerouslyAllowBrowser` in the service worker, `maxRetries: 0`). */
  client: C;
  model: string;
  /** The label in messages and traces: "openai", "anthropic", "ollama", "openrouter". */
  label?: string;
  vision?: boolean;
  stream?: boolean;
  /** A ceiling on the reply. Anthropic requires one; tool calls are short, so its default is modest. */
  maxOutputTokens?: number;
  /** How hard a reasoning model thinks before it answers; left out, the model's own default. */
  reasoningEffort?: ReasoningEffort;
  /** The clock for Retry-After dates. */
  now?: () => number;
}

/** One tool call as the model wrote it. `arguments` stays raw text so invalid JSON can be shown back to the model. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The conversation in a provider-neutral form; each adapter maps it to its own wire format. */
export type ConversationMessage =
  | {
      role: 'user';
      content: string;
      image?: Screenshot;
      /**
       * The prompt up to the end of this message is sent unchanged in later turns: providers that cache only up to
       * marked points (Anthropic's `cache_control`) mark it.
       */
      cacheBreakpoint?: boolean;
    }
  | { role: 'assistant'; content: string; toolCalls: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError: boolean };

export interface ProviderRequest {
  system: string;
  messages: ConversationMessage[];
  tools: ToolSchema[];
}

export interface Usage {
  /** Every input token, whether the provider read it from its prompt cache or not. */
  inputTokens: number;
  outputTokens: number;
  /** Of the input tokens, those read from the provider's prompt cache (billed at a discount). */
  cachedInputTokens?: number;
  /** Of the input tokens, those written to the cache (Anthropic bills them above the normal price). */
  cacheWriteTokens?: number;
}

export interface ProviderReply {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage | null;
  /** The model that answered, as the server named it. */
  model: string;
  stopReason: string | null;
}

export interface CompleteOptions {
  signal?: AbortSignal;
  /** Streamed text as it arrives, for a live view; the reply is still returned whole. */
  onText?(delta: string): void;
}

/** A model behind some API. Errors are AppErrors whose code says whether to retry and what the user must fix. */
export interface Provider {
  /** A label for messages and the trace: "openai", "anthropic", "ollama". */
  readonly label: string;
  readonly model: string;
  /** Whether the model accepts images; screenshots are sent only then, and only when the task asks for them. */
  readonly vision: boolean;
  /** A local server: its calls cost nothing (as opposed to an unknown price). */
  readonly free?: boolean;
  complete(request: ProviderRequest, options?: CompleteOptions): Promise<ProviderReply>;
}
