import type { ProviderRuntime } from './create-provider';
import type { CompleteOptions, Provider, ProviderReply, ProviderRequest } from './provider';
import { checkProviderSettings, runsOnThisMachine, type ProviderSettings } from './provider-settings';

/**
 * A model provider whose SDK (openai or @anthropic-ai/sdk) is loaded on its first call, not when the host or the
 * service worker starts (they are most of the worker's code). The settings are checked at once, with the same errors
 * as createProvider, so a task with no key still fails as it starts.
 */
export function lazyProvider(input: ProviderSettings, runtime: ProviderRuntime): Provider {
  const { settings, preset, baseURL } = checkProviderSettings(input);
  let loading: Promise<Provider> | undefined;
  const real = (): Promise<Provider> =>
    (loading ??= import('./create-provider').then(({ createProvider }) => createProvider(input, runtime)));
  return {
    label: settings.preset,
    model: settings.model,
    vision: settings.vision,
    ...(preset.free || runsOnThisMachine(baseURL) ? { free: true } : {}),
    complete: async (request: ProviderRequest, options?: CompleteOptions): Promise<ProviderReply> => (await real()).complete(request, options),
  };
}
