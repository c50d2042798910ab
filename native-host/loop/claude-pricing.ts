/**
 * List prices of Anthropic models in USD per million tokens, for counting what a fixer run cost when it ended before
 * Claude Code printed its own total (killed, timed out, interrupted). Cache writes cost 1.25 times the input price and
 * cache reads a tenth of it. A model not in the table is priced as the dearest one, so a budget is never overrun
 * because a price was unknown.
 */
interface Price {
  input: number;
  output: number;
}

const PRICES: Array<{ pattern: RegExp; price: Price }> = [
  { pattern: /claude-3-opus|opus-4(?:-[01])?(?:-\d{8})?$/, price: { input: 15, output: 75 } },
  { pattern: /opus/, price: { input: 5, output: 25 } },
  { pattern: /sonnet/, price: { input: 3, output: 15 } },
  { pattern: /claude-3-haiku/, price: { input: 0.25, output: 1.25 } },
  { pattern: /claude-3-5-haiku|haiku-3-5/, price: { input: 0.8, output: 4 } },
  { pattern: /haiku/, price: { input: 1, output: 5 } },
];
const DEAREST: Price = { input: 15, output: 75 };

export function priceOf(model: string): { price: Price; known: boolean } {
  const id = model.replace(/\[.*\]$/, '').toLowerCase();
  const found = PRICES.find((entry) => entry.pattern.test(id));
  return found ? { price: found.price, known: true } : { price: DEAREST, known: false };
}

export interface MessageUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** What one model reply cost, from the usage the API reported for it. */
export function usageCost(model: string, usage: MessageUsage): number {
  const { price } = priceOf(model);
  const million = 1_000_000;
  return (
    ((usage.input_tokens ?? 0) * price.input +
      (usage.cache_creation_input_tokens ?? 0) * price.input * 1.25 +
      (usage.cache_read_input_tokens ?? 0) * price.input * 0.1 +
      (usage.output_tokens ?? 0) * price.output) /
    million
  );
}

/**
 * Adds up the usage of every model reply in a run as it streams (message_start carries the input and cache tokens,
 * message_delta the output tokens so far), so a run cut short is still paid for in the loop's books.
 */
export function createCostMeter() {
  const replies = new Map<string, { model: string; usage: MessageUsage }>();
  let current: string | undefined;
  let unknownModel = false;
  return {
    start(id: string, model: string, usage: MessageUsage): void {
      current = id;
      if (!priceOf(model).known) unknownModel = true;
      replies.set(id, { model, usage: { ...usage } });
    },
    delta(usage: MessageUsage): void {
      const reply = current === undefined ? undefined : replies.get(current);
      if (!reply) return;
      for (const key of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
        const value = usage[key];
        if (typeof value === 'number') reply.usage[key] = Math.max(reply.usage[key] ?? 0, value);
      }
    },
    total(): number {
      let sum = 0;
      for (const reply of replies.values()) sum += usageCost(reply.model, reply.usage);
      return Math.round(sum * 1e6) / 1e6;
    },
    /** Whether a price had to be guessed (a model the table does not know). */
    guessed: (): boolean => unknownModel,
  };
}
export type CostMeter = ReturnType<typeof createCostMeter>;
