import { z } from 'zod';
import { AppError, describeZodError } from '../../errors';
import { PROVIDER_PRESETS, PresetName, type ProviderPreset } from './provider-presets';

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

/** Settings checked as createProvider needs them: what each preset requires is there. */
export interface CheckedProviderSettings {
  settings: z.output<typeof ProviderSettings>;
  preset: ProviderPreset;
  baseURL: string;
  apiKey: string;
}

/**
 * Checks provider settings without loading a model SDK: settings that cannot work (no key where one is needed, no
 * base URL for azure or custom) fail here with a message that says what to set. The native host calls it when a
 * task starts and loads the SDKs only for the first model call.
 */
export function checkProviderSettings(input: ProviderSettings): CheckedProviderSettings {
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
  return { settings, preset, baseURL, apiKey };
}

/**
 * A server named as this machine (Ollama, LM Studio, llama.cpp, vLLM at http://localhost:PORT, as the presets and the
 * CLI's hints write it) has no price per token: its tasks show tokens only, never dollars, and no cost cap applies.
 * An address written as an IP (127.0.0.1) is not taken as local: it is also how a tunnel or proxy to a paid service
 * is usually reached, so its price stays the model's.
 */
export function runsOnThisMachine(baseURL: string | undefined): boolean {
  if (!baseURL) return false;
  try {
    const host = new URL(baseURL).hostname.toLowerCase();
    return host === 'localhost' || host.endsWith('.localhost');
  } catch {
    return false;
  }
}
