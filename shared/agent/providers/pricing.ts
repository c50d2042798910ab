import type { Usage } from './provider';

/** US dollars per million tokens: input, output. Checked against the providers' price pages; extend as models ship. */
const PRICES: [prefix: string, input: number, output: number][] = [
  ['gpt-4o-mini', 0.15, 0.6],
  ['gpt-4o', 2.5, 10],
  ['gpt-4.1-nano', 0.1, 0.4],
  ['gpt-4.1-mini', 0.4, 1.6],
  ['gpt-4.1', 2, 8],
  ['gpt-5-nano', 0.05, 0.4],
  ['gpt-5-mini', 0.25, 2],
  ['gpt-5', 1.25, 10],
  ['o4-mini', 1.1, 4.4],
  ['o3', 2, 8],
  ['claude-haiku-4-5', 1, 5],
  ['claude-3-5-haiku', 0.8, 4],
  ['claude-sonnet-4', 3, 15],
  ['claude-3-7-sonnet', 3, 15],
  ['claude-opus-4-5', 5, 25],
  ['claude-opus-4-1', 15, 75],
  ['claude-opus-4', 15, 75],
  ['gemini-2.5-flash', 0.3, 2.5],
  ['gemini-2.5-pro', 1.25, 10],
];

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
  return (usage.inputTokens * match[1] + usage.outputTokens * match[2]) / 1_000_000;
}
