import { estimateTokens } from './estimate-tokens';
import type { ContextItem } from './frame-snapshot';

/** A numbered line as the model sees it: the tab-wide number and whether it appeared since the last snapshot. */
export interface ShownElement {
  k: 'el';
  n: number;
  fresh: boolean;
  role: string;
  name: string;
  ann: string[];
}

/** A line that is never cut to fit the budget: where a frame of another site starts and ends. */
export interface ShownMark {
  k: 'mark';
  text: string;
}

export type ShownItem = ShownElement | ContextItem | ShownMark;

export interface RenderInput {
  /** Lines that are always kept: page, changes. */
  header: string[];
  items: ShownItem[];
  above: number;
  below: number;
  /** Cut context text first, then numbered lines from the end, to stay under this many tokens. */
  maxTokens?: number;
  /** What the page walk left out and why (frame snapshots' `omitted`); always shown, at the end. */
  omitted?: string[];
}

export interface Rendered {
  text: string;
  tokens: number;
  cutText: number;
  cutElements: number;
}

export function elementLine(item: ShownElement): string {
  const head = `${item.fresh ? '*' : ''}[${item.n}] ${item.role}`;
  const name = item.name ? ` ${JSON.stringify(item.name)}` : '';
  return item.ann.length > 0 ? `${head}${name} ${item.ann.join(' ')}` : `${head}${name}`;
}

/**
 * Writes the snapshot text. Under a token budget, plain text goes first, then headings and landmarks, and only then
 * numbered lines from the bottom; the last line says what was cut so the model knows to scroll or use `find`.
 */
export function renderSnapshot(input: RenderInput): Rendered {
  const lines = input.items.map((item) => (item.k === 'el' ? elementLine(item) : item.text));
  const costs = lines.map(estimateTokens);
  const keep = lines.map(() => true);
  const fixed = input.header.reduce((sum, line) => sum + estimateTokens(line), 0) + 24;
  let total = fixed + costs.reduce((sum, cost) => sum + cost, 0);
  let cutText = 0;
  let cutElements = 0;
  const budget = input.maxTokens;
  if (budget !== undefined && total > budget) {
    for (const prio of [1, 2] as const) {
      for (let i = input.items.length - 1; i >= 0 && total > budget; i -= 1) {
        const item = input.items[i];
        if (item?.k === 'ctx' && item.prio === prio && keep[i]) {
          keep[i] = false;
          total -= costs[i] ?? 0;
          cutText += 1;
        }
      }
    }
    for (let i = input.items.length - 1; i >= 0 && total > budget; i -= 1) {
      if (input.items[i]?.k === 'el' && keep[i]) {
        keep[i] = false;
        total -= costs[i] ?? 0;
        cutElements += 1;
      }
    }
  }
  const out = [...input.header];
  if (input.above > 0) out.push(`(${input.above} more elements above; scroll up to see them)`);
  lines.forEach((line, i) => {
    if (keep[i]) out.push(line);
  });
  if (input.below > 0) out.push(`(${input.below} more elements below; scroll down or use find)`);
  if (cutText > 0 || cutElements > 0) {
    const parts = [cutText > 0 ? `${cutText} text lines` : '', cutElements > 0 ? `the last ${cutElements} elements` : ''];
    out.push(`(cut to fit ${budget} tokens: ${parts.filter(Boolean).join(' and ')}; use find to search the whole page)`);
  }
  for (const note of input.omitted ?? []) out.push(`(left out: ${note})`);
  const text = out.join('\n');
  return { text, tokens: total, cutText, cutElements };
}
