import Anthropic, { type ClientOptions as AnthropicClientOptions } from '@anthropic-ai/sdk';
import OpenAI, { type ClientOptions as OpenAiClientOptions } from 'openai';
import { z } from 'zod';
import { AppError, describeZodError } from '../../errors';
import { createAnthropicProvider } from './anthropic-provider';
import { withJsonToolFallback } from './json-tool-fallback';
import { createOpenAiChatProvider } from './openai-chat-provider';
import { createOpenAiResponsesProvider } from './openai-responses-provider';
import type { Provider } from './provider';
import { PROVIDER_PRESETS, PresetName } from './provider-presets';
import { type RetryOptions, withRetries } from './retrying-provider';

/** The provider part of the user's settings (and of `npm run task` flags). */
export const ProviderSettings = z.object({
  preset: PresetName,
  /** Overrides the preset's address; required for azure and custom. */
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  model: z.string().min(1),
  apiKey: z.string().optional(),
  stream: z.boolean().default(true),
  /** For OpenAI itself: the Responses API instead of chat completions (compatible servers mostly speak only chat). */
  openaiApi: z.enum(['chat', 'responses']).default('chat'),
  /** json for models without tool calling: tools are described in the prompt and read back from the reply. */
  toolCalling: z.enum(['native', 'json']).default('native'),
  /** Whether the model accepts images; screenshots are sent only to such models, and only when asked for. */
  vision: z.boolean().default(false),
  maxOutputTokens: z.number().int().positive().optional(),
  /** For reasoning models: how hard the model thinks (OpenAI reasoning effort, Anthropic effort); unset, its default. */
  reasoningEffort: z.enum(['low', 'medium', 'high']).optional(),
  timeoutMs: z.number().int().positive().default(120_000),
  maxRetries: z.number().int().min(0).max(10).default(4),
});
export type ProviderSettings = z.input<typeof ProviderSettings>;

export interface ProviderRuntime {
  /** True in the service worker: the SDKs refuse to run in a browser context without it. */
  browser: boolean;
  /** Extra client options (a custom fetch, headers); tests and the host pass what they need. */
  openai?: Partial<OpenAiClientOptions>;
  anthropic?: Partial<AnthropicClientOptions>;
  retry?: RetryOptions;
  now?: () => number;
}

/**
 * Builds a provider from settings: the right official client for the preset, the JSON fallback when asked, and
 * retries around it. Settings that cannot work (no key where one is needed, no base URL for azure or custom) fail
 * here with a message that says what to set, before any request is made.
 */
export function createProvider(input: ProviderSettings, runtime: ProviderRuntime): Provider {
  const parsed = ProviderSettings.safeParse(input);
  if (!parsed.success) throw new AppError('bad_config', `The provider settings are incomplete: ${describeZodError(parsed.error)}`);
  const settings = parsed.data;
  const preset = PROVIDER_PRESETS[settings.preset];
  const baseURL = settings.baseUrl ?? preset.baseUrl;
  if (baseURL === null) {
    throw new AppError('bad_config', `The ${settings.preset} provider needs a base URL: set it in Settings or pass --base-url (for Azure, https://RESOURCE.openai.azure.com/openai/v1/).`);
  }
  const apiKey = settings.apiKey?.trim() ?? '';
  if (preset.needsKey && apiKey === '') {
    throw new AppError('bad_config', `No API key for ${settings.preset}. Enter one in Deputy's settings, or set ${preset.keyHint} (or DEPUTY_API_KEY) for headless runs.`);
  }
  // Local servers ignore the key, but both clients insist on one.
  const key = apiKey === '' ? 'not-needed' : apiKey;
  const common = { maxRetries: 0, timeout: settings.timeoutMs, dangerouslyAllowBrowser: runtime.browser };
  const options = { model: settings.model, label: settings.preset, vision: settings.vision, stream: settings.stream, ...(settings.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}), ...(settings.reasoningEffort ? { reasoningEffort: settings.reasoningEffort } : {}), ...(runtime.now ? { now: runtime.now } : {}) };

  let provider: Provider;
  if (preset.api === 'anthropic') {
    provider = createAnthropicProvider({ ...options, client: new Anthropic({ ...common, ...runtime.anthropic, apiKey: key, baseURL }) });
  } else {
    const headers = preset.keyHeader ? { defaultHeaders: { [preset.keyHeader]: key } } : {};
    const client = new OpenAI({ ...common, ...headers, ...runtime.openai, apiKey: key, baseURL });
    provider = settings.openaiApi === 'responses' ? createOpenAiResponsesProvider({ ...options, client }) : createOpenAiChatProvider({ ...options, client });
  }
  if (settings.toolCalling === 'json') provider = withJsonToolFallback(provider);
  const priced: Provider = preset.free ? { ...provider, free: true, complete: provider.complete.bind(provider) } : provider;
  return withRetries(priced, { maxRetries: settings.maxRetries, ...runtime.retry });
}
