import { z } from 'zod';

export const PresetName = z.enum(['openai', 'anthropic', 'ollama', 'lmstudio', 'vllm', 'openrouter', 'gemini', 'azure', 'custom']);
export type PresetName = z.infer<typeof PresetName>;

export interface ProviderPreset {
  /** Which client speaks to it. */
  api: 'openai' | 'anthropic';
  /** Null where the user must give one (Azure's resource, a custom server). */
  baseUrl: string | null;
  needsKey: boolean;
  /** Where the key comes from, for the message shown when it is missing. */
  keyHint: string;
  /** Local servers cost nothing; cost is 0, not unknown. */
  free: boolean;
  /** Azure takes the key in an api-key header rather than as a bearer token. */
  keyHeader?: string;
}

/** Known endpoints. Every OpenAI-compatible server is the openai client with another base URL. */
export const PROVIDER_PRESETS: Record<PresetName, ProviderPreset> = {
  openai: { api: 'openai', baseUrl: 'https://api.openai.com/v1', needsKey: true, keyHint: 'OPENAI_API_KEY', free: false },
  anthropic: { api: 'anthropic', baseUrl: 'https://api.anthropic.com', needsKey: true, keyHint: 'ANTHROPIC_API_KEY', free: false },
  ollama: { api: 'openai', baseUrl: 'http://localhost:11434/v1', needsKey: false, keyHint: 'DEPUTY_API_KEY', free: true },
  lmstudio: { api: 'openai', baseUrl: 'http://localhost:1234/v1', needsKey: false, keyHint: 'DEPUTY_API_KEY', free: true },
  vllm: { api: 'openai', baseUrl: 'http://localhost:8000/v1', needsKey: false, keyHint: 'DEPUTY_API_KEY', free: true },
  openrouter: { api: 'openai', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true, keyHint: 'DEPUTY_API_KEY', free: false },
  gemini: { api: 'openai', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/', needsKey: true, keyHint: 'DEPUTY_API_KEY', free: false },
  azure: { api: 'openai', baseUrl: null, needsKey: true, keyHint: 'DEPUTY_API_KEY', free: false, keyHeader: 'api-key' },
  custom: { api: 'openai', baseUrl: null, needsKey: false, keyHint: 'DEPUTY_API_KEY', free: false },
};
