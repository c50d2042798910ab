import Anthropic, { type ClientOptions as AnthropicClientOptions } from '@anthropic-ai/sdk';
import OpenAI, { type ClientOptions as OpenAiClientOptions } from 'openai';
import { createAnthropicProvider } from './anthropic-provider';
import { withJsonToolFallback } from './json-tool-fallback';
import { createOpenAiChatProvider } from './openai-chat-provider';
import { createOpenAiResponsesProvider } from './openai-responses-provider';
import type { Provider } from './provider';
import { checkProviderSettings, runsOnThisMachine, type ProviderSettings } from './provider-settings';
import { type RetryOptions, withRetries } from './retrying-provider';

export { ProviderSettings, checkProviderSettings, runsOnThisMachine } from './provider-settings';

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
  const { settings, preset, baseURL, apiKey } = checkProviderSettings(input);
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
  const priced: Provider = preset.free || runsOnThisMachine(baseURL) ? { ...provider, free: true, complete: provider.complete.bind(provider) } : provider;
  return withRetries(priced, { maxRetries: settings.maxRetries, ...runtime.retry });
}
