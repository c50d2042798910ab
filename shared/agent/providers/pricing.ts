import type { Usage } from './provider';

/**
 * US dollars per million tokens: input, cached input (read from the provider's prompt cache), output; Anthropic's
 * cache writes cost 1.25 times the input price. Checked against the providers' price pages; extend as models ship.
 */
const PRICES: [prefix: string, input: number, cachedInput: number, output: number][] = [
  ['gpt-4o-mini', 0.15, 0.075, 0.6],
  ['gpt-4o', 2.5, 1.25, 10],
  ['gpt-4.1-nano', 0.1, 0.025, 0.4],
  ['gpt-4.1-mini', 0.4, 0.1, 1.6],
  ['gpt-4.1', 2, 0.5, 8],
  ['gpt-5-nano', 0.05, 0.005, 0.4],
  ['gpt-5-mini', 0.25, 0.025, 2],
  ['gpt-5', 1.25, 0.125, 10],
  ['o4-mini', 1.1, 0.275, 4.4],
  ['o3', 2, 0.5, 8],
  ['claude-haiku-4-5', 1, 0.1, 5],
  ['claude-3-5-haiku', 0.8, 0.08, 4],
  ['claude-sonnet-4', 3, 0.3, 15],
  ['claude-3-7-sonnet', 3, 0.3, 15],
  ['claude-opus-4-5', 5, 0.5, 25],
  ['claude-opus-4-1', 15, 1.5, 75],
  ['claude-opus-4', 15, 1.5, 75],
  ['gemini-2.5-flash', 0.3, 0.075, 2.5],
  ['gemini-2.5-pro', 1.25, 0.31, 10],
];

const CACHE_WRITE_FACTOR = 1.25;

/** The price row of a model by the longest matching name prefix (a router's "openai/" prefix left out), if known. */
export function priceOf(model: string): { input: number; cachedInput: number; output: number } | undefined {
  const name = model.toLowerCase().replace(/^[a-z-]+\//, '');
  const match = PRICES.filter(([prefix]) => name.startsWith(prefix)).sort((a, b) => b[0].length - a[0].length)[0];
  return match ? { input: match[1], cachedInput: match[2], output: match[3] } : undefined;
}

/**
 * The cost of one call in US dollars, or null when the model is not in the table: an unknown price is shown as
 * unknown, never as zero. Input tokens read from the prompt cache and written to it are priced as such. Local
 * servers pass `free` and cost nothing.
 */
export function costOf(model: string, usage: Usage | null, options: { free?: boolean } = {}): number | null {
  if (usage === null) return null;
  if (options.free) return 0;
  const price = priceOf(model);
  if (!price) return null;
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - cached);
  const plain = usage.inputTokens - cached - written;
  return (plain * price.input + cached * price.cachedInput + written * price.input * CACHE_WRITE_FACTOR + usage.outputTokens * price.output) / 1_000_000;
}
