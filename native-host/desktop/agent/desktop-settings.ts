import type { ProviderSettings } from '../../../shared/agent/providers/create-provider';
import { AppError } from '../../../shared/errors';

/** The `deputy desktop` flags as commander hands them over, before checking. */
export interface DesktopFlags {
  provider?: string;
  baseUrl?: string;
  model?: string;
  mode?: string;
  approve?: string;
  dryRun?: boolean;
  display?: string;
  width?: string;
  quality?: string;
  steps?: string;
  runsDir?: string;
}

export interface DesktopSettings {
  task: string;
  provider: ProviderSettings;
  mode: 'ask' | 'act';
  approve: 'all' | 'none' | 'ask';
  dryRun: boolean;
  displayId?: string;
  width: number;
  quality: number;
  maxSteps?: number;
  runsDir: string;
}

/** The same defaults as `npm run task`, so both commands behave alike. */
const DEFAULT_MODELS = { openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5' } as const;

const usage = (message: string): AppError => new AppError('bad_request', message);

function whole(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw usage(`${name} must be a whole number from ${min} to ${max}, not "${value}".`);
  return n;
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
 * Checks the flags of `deputy desktop` and picks the model the way `npm run task` does: --provider, --base-url and
 * --model, with the key from OPENAI_API_KEY, ANTHROPIC_API_KEY or DEPUTY_API_KEY (never a flag, so it stays out of
 * shell history). Desktop tasks always send screenshots, so the model is marked as reading images.
 */
export function desktopSettings(taskWords: string[], flags: DesktopFlags, env: Record<string, string | undefined>): DesktopSettings {
  const task = taskWords.join(' ').trim();
  if (task === '') throw usage('Say what to do, e.g. deputy desktop "open the text editor and write a shopping list".');
  const mode = flags.mode ?? 'act';
  if (mode !== 'ask' && mode !== 'act') throw usage(`--mode must be ask or act, not "${mode}".`);
  const approve = flags.approve ?? 'ask';
  if (approve !== 'all' && approve !== 'none' && approve !== 'ask') throw usage(`--approve must be all or none, not "${approve}".`);
  const kind = flags.provider ?? (flags.baseUrl ? 'openai-compatible' : env.ANTHROPIC_API_KEY && !env.OPENAI_API_KEY ? 'anthropic' : 'openai');
  let provider: ProviderSettings;
  if (kind === 'openai-compatible') {
    if (!flags.baseUrl) throw usage('--provider openai-compatible needs --base-url (for Ollama: --base-url http://localhost:11434/v1)');
    if (!flags.model) throw usage('--provider openai-compatible needs --model (the name your server knows the model by)');
    const apiKey = env.DEPUTY_API_KEY;
    provider = { preset: 'custom', baseUrl: httpUrl(flags.baseUrl), model: flags.model, vision: true, ...(apiKey ? { apiKey } : {}) };
  } else if (kind === 'openai' || kind === 'anthropic') {
    const apiKey = kind === 'openai' ? (env.OPENAI_API_KEY ?? env.DEPUTY_API_KEY) : (env.ANTHROPIC_API_KEY ?? env.DEPUTY_API_KEY);
    if (!apiKey) {
      const variable = kind === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
      throw usage(`No API key for ${kind}: set ${variable} (or DEPUTY_API_KEY), or use a local model server with --base-url http://localhost:11434/v1 --model NAME.`);
    }
    provider = { preset: kind, model: flags.model ?? DEFAULT_MODELS[kind], apiKey, vision: true, ...(flags.baseUrl ? { baseUrl: httpUrl(flags.baseUrl) } : {}) };
  } else {
    throw usage(`--provider must be openai, anthropic or openai-compatible, not "${kind}".`);
  }
  const maxSteps = whole(flags.steps, '--steps', 1, 500);
  return {
    task,
    provider,
    mode,
    approve,
    dryRun: flags.dryRun === true,
    ...(flags.display === undefined ? {} : { displayId: flags.display }),
    width: whole(flags.width, '--width', 320, 3840) ?? 1280,
    quality: whole(flags.quality, '--quality', 10, 100) ?? 70,
    ...(maxSteps === undefined ? {} : { maxSteps }),
    runsDir: flags.runsDir ?? 'runs',
  };
}
