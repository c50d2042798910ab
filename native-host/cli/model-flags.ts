import type { ProviderSettings } from '../../shared/agent/providers/create-provider';
import { AppError } from '../../shared/errors';

/** The model flags every agent command shares with `npm run task`. */
export interface ModelFlags {
  provider?: string;
  baseUrl?: string;
  model?: string;
}

/** The same defaults as `npm run task`, so every command behaves alike. */
const DEFAULT_MODELS = { openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5' } as const;

export const usage = (message: string): AppError => new AppError('bad_request', message);

/** A whole number flag within bounds, or undefined when it was not given. */
export function wholeFlag(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw usage(`${name} must be a whole number from ${min} to ${max}, not "${value}".`);
  return n;
}

/** --max-cost: dollars above 0 and up to 1000 (a leading $ is fine), or undefined when it was not given. */
export function dollarsFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim().replace(/^\$/, ''));
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1000) throw usage(`--max-cost takes dollars above 0 and up to 1000 (for example --max-cost 0.50), not "${value}".`);
  return n;
}

export function modeFlag(value: string | undefined, fallback: 'ask' | 'act'): 'ask' | 'act' {
  const mode = value ?? fallback;
  if (mode !== 'ask' && mode !== 'act') throw usage(`--mode must be ask or act, not "${mode}".`);
  return mode;
}

export function approveFlag(value: string | undefined): 'all' | 'none' | 'ask' {
  const approve = value ?? 'ask';
  if (approve !== 'all' && approve !== 'none' && approve !== 'ask') throw usage(`--approve must be all or none, not "${approve}".`);
  return approve;
}

function httpUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // Reported below with the expected form.
  }
  throw usage(`--base-url "${value}" is not an http(s) address; for Ollama use --base-url http://localhost:11434/v1.`);
}

/**
 * Picks the model the way `npm run task` does: --provider, --base-url and --model, with the key from OPENAI_API_KEY,
 * ANTHROPIC_API_KEY or DEPUTY_API_KEY (never a flag, so it stays out of shell history).
 */
export function providerFromFlags(flags: ModelFlags, env: Record<string, string | undefined>, options: { vision: boolean }): ProviderSettings {
  const kind = flags.provider ?? (flags.baseUrl ? 'openai-compatible' : env.ANTHROPIC_API_KEY && !env.OPENAI_API_KEY ? 'anthropic' : 'openai');
  if (kind === 'openai-compatible') {
    if (!flags.baseUrl) throw usage('--provider openai-compatible needs --base-url (for Ollama: --base-url http://localhost:11434/v1)');
    if (!flags.model) throw usage('--provider openai-compatible needs --model (the name your server knows the model by)');
    // As npm run task: DEPUTY_API_KEY when set, else OPENAI_API_KEY, as the OpenAI SDK and most tools read it with a
    // base URL (OpenRouter, vLLM, LiteLLM take their key there). A local server ignores it.
    const apiKey = env.DEPUTY_API_KEY ?? env.OPENAI_API_KEY;
    return { preset: 'custom', baseUrl: httpUrl(flags.baseUrl), model: flags.model, vision: options.vision, ...(apiKey ? { apiKey } : {}) };
  }
  if (kind === 'openai' || kind === 'anthropic') {
    const apiKey = kind === 'openai' ? (env.OPENAI_API_KEY ?? env.DEPUTY_API_KEY) : (env.ANTHROPIC_API_KEY ?? env.DEPUTY_API_KEY);
    if (!apiKey) {
      const variable = kind === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
      throw usage(`No API key for ${kind}: set ${variable} (or DEPUTY_API_KEY), or use a local model server with --base-url http://localhost:11434/v1 --model NAME.`);
    }
    return { preset: kind, model: flags.model ?? DEFAULT_MODELS[kind], apiKey, vision: options.vision, ...(flags.baseUrl ? { baseUrl: httpUrl(flags.baseUrl) } : {}) };
  }
  throw usage(`--provider must be openai, anthropic or openai-compatible, not "${kind}".`);
}
