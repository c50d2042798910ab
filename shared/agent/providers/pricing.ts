import type { Usage } from './provider';

/**
 * US dollars per million tokens: input, output, and input read from the prompt cache. Checked against the providers'
 * price pages; extend as models ship. Anthropic bills cache writes (5-minute cache) at 1.25x the input price.
 */
const PRICES: [prefix: string, input: number, output: number, cachedInput: number][] = [
  ['gpt-4o-mini', 0.15, 0.6, 0.075],
  ['gpt-4o', 2.5, 10, 1.25],
  ['gpt-4.1-nano', 0.1, 0.4, 0.025],
  ['gpt-4.1-mini', 0.4, 1.6, 0.1],
  ['gpt-4.1', 2, 8, 0.5],
  ['gpt-5-nano', 0.05, 0.4, 0.005],
  ['gpt-5-mini', 0.25, 2, 0.025],
  ['gpt-5', 1.25, 10, 0.125],
  ['o4-mini', 1.1, 4.4, 0.275],
  ['o3', 2, 8, 0.5],
  ['claude-haiku-4-5', 1, 5, 0.1],
  ['claude-3-5-haiku', 0.8, 4, 0.08],
  ['claude-sonnet-4', 3, 15, 0.3],
  ['claude-3-7-sonnet', 3, 15, 0.3],
  ['claude-opus-4-5', 5, 25, 0.5],
  ['claude-opus-4-1', 15, 75, 1.5],
  ['claude-opus-4', 15, 75, 1.5],
  ['gemini-2.5-flash', 0.3, 2.5, 0.075],
  ['gemini-2.5-pro', 1.25, 10, 0.31],
];

const CACHE_WRITE_FACTOR = 1.25;

/**
 * The cost of one call in US dollars, or null when the model is not in the table: an unknown price is shown as
 * unknown, never as zero. Local servers pass `free` and cost nothing.
 */
export function costOf(model: string, usage: Usage | null, options: { free?: boolean } = {}): number | null {
  if (usage === null) return null;
  if (options.free) return 0;
  const name = model.toLowerCase().replace(/^[a-z-]+\//, '');
  const match = PRICES.filter(([prefix]) => name.startsWith(prefix)).sort((a, b) => b[0].length - a[0].length)[0];
  if (!match) return null;
  const [, input, output, cachedInput] = match;
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - cached - written);
  return (plain * input + cached * cachedInput + written * input * CACHE_WRITE_FACTOR + usage.outputTokens * output) / 1_000_000;
}
