import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { FakeProvider } from '../../../../fixtures/fake-provider/fake-provider-server';
import { createAnthropicProvider } from '../../../../../shared/agent/providers/anthropic-provider';
import { createOpenAiChatProvider } from '../../../../../shared/agent/providers/openai-chat-provider';
import { createOpenAiResponsesProvider } from '../../../../../shared/agent/providers/openai-responses-provider';
import type { Provider } from '../../../../../shared/agent/providers/provider';

export const TEST_KEY = 'sk-test-0123456789abcdefghij';

export function openAiClient(fake: FakeProvider, apiKey = TEST_KEY): OpenAI {
  return new OpenAI({ apiKey, baseURL: fake.openaiBaseUrl, maxRetries: 0, timeout: 5000 });
}

export function anthropicClient(fake: FakeProvider, apiKey = TEST_KEY): Anthropic {
  return new Anthropic({ apiKey, baseURL: fake.anthropicBaseUrl, maxRetries: 0, timeout: 5000 });
}

export type Flavour = 'openai-stream' | 'openai-plain' | 'anthropic-stream' | 'anthropic-plain' | 'responses-stream' | 'responses-plain';
export const FLAVOURS: Flavour[] = ['openai-stream', 'openai-plain', 'anthropic-stream', 'anthropic-plain', 'responses-stream', 'responses-plain'];

/** A provider of the given flavour over the real SDK, pointed at the fake server. */
export function providerFor(flavour: Flavour, fake: FakeProvider, model?: string): Provider {
  const stream = flavour.endsWith('stream');
  if (flavour.startsWith('responses')) return createOpenAiResponsesProvider({ client: openAiClient(fake), model: model ?? 'gpt-4.1-mini', stream });
  return flavour.startsWith('openai')
    ? createOpenAiChatProvider({ client: openAiClient(fake), model: model ?? 'gpt-4o-mini', stream })
    : createAnthropicProvider({ client: anthropicClient(fake), model: model ?? 'claude-haiku-4-5', stream });
}
