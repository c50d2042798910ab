import { ProviderSettings } from '../../shared/agent/providers/provider-settings';
import { lazyProvider as createProvider } from '../../shared/agent/providers/lazy-provider';
import type { Provider } from '../../shared/agent/providers/provider';
import { AppError, describeZodError } from '../../shared/errors';
import type { LoopConfig } from '../../shared/protocol/loop-protocol';

type ResearchSpec = LoopConfig['research'];

/** The model the research step asks, or why there is none (said when the loop gets stuck). */
export type ResearchModel = { provider: Provider } | { unavailable: string };

/** Models strong enough to reason over code and findings; one call per stuck loop, so the price matters little. */
const DEFAULT_MODELS = { openai: 'gpt-4.1', anthropic: 'claude-sonnet-4-6' } as const;

const NO_MODEL =
  'Research when stuck was skipped: no model is configured. For deputy loop set OPENAI_API_KEY or ANTHROPIC_API_KEY (or --research-base-url for a local OpenAI-compatible server); in the side panel choose a model in Settings';

function build(settings: ProviderSettings): ResearchModel {
  try {
    // Research is one call that the loop waits for: a couple of retries, not the long patience of a web task.
    return { provider: createProvider({ ...settings, stream: false, maxRetries: 2 }, { browser: false }) };
  } catch (error) {
    return { unavailable: `Research when stuck was skipped: ${error instanceof AppError ? error.message : String(error)}` };
  }
}

/**
 * `deputy loop`'s research model, chosen like `deputy desktop` chooses its model: --research-provider, a base URL
 * (an OpenAI-compatible server), else the provider whose key is set. The key comes from OPENAI_API_KEY,
 * ANTHROPIC_API_KEY or DEPUTY_API_KEY, never from a flag or the loop file, so it stays out of history and state.
 * Note that Claude Code's own ANTHROPIC_API_KEY counts: a loop whose fixer runs on an API key researches with it too.
 */
export function researchModelFromEnv(spec: ResearchSpec, env: Record<string, string | undefined>): ResearchModel {
  const value = (name: string): string | undefined => (env[name]?.trim() ? env[name]?.trim() : undefined);
  const kind = spec.provider ?? (spec.baseUrl ? 'openai-compatible' : value('ANTHROPIC_API_KEY') && !value('OPENAI_API_KEY') ? 'anthropic' : 'openai');
  if (kind === 'openai-compatible') {
    if (!spec.baseUrl) return { unavailable: 'Research when stuck was skipped: an openai-compatible research provider needs --research-base-url (for Ollama, http://localhost:11434/v1)' };
    if (!spec.model) return { unavailable: 'Research when stuck was skipped: an openai-compatible research provider needs --research-model (the name the server knows the model by)' };
    const apiKey = value('DEPUTY_API_KEY');
    return build({ preset: 'custom', baseUrl: spec.baseUrl, model: spec.model, ...(apiKey ? { apiKey } : {}) });
  }
  const apiKey = value(kind === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY') ?? value('DEPUTY_API_KEY');
  if (!apiKey) return { unavailable: NO_MODEL };
  // As the official clients do: a proxy or gateway named in OPENAI_BASE_URL or ANTHROPIC_BASE_URL is used.
  const baseUrl = spec.baseUrl ?? value(kind === 'openai' ? 'OPENAI_BASE_URL' : 'ANTHROPIC_BASE_URL');
  return build({ preset: kind, model: spec.model ?? DEFAULT_MODELS[kind], apiKey, ...(baseUrl ? { baseUrl } : {}) });
}

/**
 * The research model of a loop started from the side panel: the model saved in the extension's settings, which its
 * background sends with loop.start (the host keeps it in memory only). The loop file may name another model.
 */
export function researchModelFromSettings(spec: ResearchSpec, settings: unknown): ResearchModel {
  if (settings === undefined || settings === null) return { unavailable: NO_MODEL };
  const parsed = ProviderSettings.safeParse(settings);
  if (!parsed.success) return { unavailable: `Research when stuck was skipped: the model settings from the side panel are incomplete (${describeZodError(parsed.error)}); fix them in Settings` };
  return build({ ...parsed.data, ...(spec.model ? { model: spec.model } : {}) });
}
