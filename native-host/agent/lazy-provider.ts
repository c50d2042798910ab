import type { ProviderRuntime } from '../../shared/agent/providers/create-provider';
import type { CompleteOptions, Provider, ProviderReply, ProviderRequest } from '../../shared/agent/providers/provider';
import { checkProviderSettings, type ProviderSettings } from '../../shared/agent/providers/provider-settings';

/**
 * A model provider for the host whose SDK (openai or @anthropic-ai/sdk) is loaded on its first call, not when the host
 * starts. The settings are checked at once, with the same errors as createProvider, so a task with no key still fails
 * as it starts.
 */
export function lazyProvider(input: ProviderSettings, runtime: ProviderRuntime): Provider {
  const { settings, preset } = checkProviderSettings(input);
  let loading: Promise<Provider> | undefined;
  const real = (): Promise<Provider> =>
    (loading ??= import('../../shared/agent/providers/create-provider').then(({ createProvider }) => createProvider(input, runtime)));
  return {
    label: settings.preset,
    model: settings.model,
    vision: settings.vision,
    ...(preset.free ? { free: true } : {}),
    complete: async (request: ProviderRequest, options?: CompleteOptions): Promise<ProviderReply> => (await real()).complete(request, options),
  };
}
