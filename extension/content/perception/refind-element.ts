import type { RefRecord } from './ref-registry';

export interface Candidate {
  el: Element;
  ref: number;
  role: string;
  name: string;
  context: string;
}

export type Refound = { found: Candidate } | { found: null; candidates: Candidate[] };

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1));
}

function similarity(a: string, b: string, ignore: Set<string> = new Set()): number {
  const x = new Set([...words(a)].filter((w) => !ignore.has(w)));
  const y = new Set([...words(b)].filter((w) => !ignore.has(w)));
  if (x.size === 0 || y.size === 0) return a === b ? 1 : 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared += 1;
  return shared / Math.max(x.size, y.size);
}

/**
 * Finds the element a stale number meant among the page's current elements, by what was recorded about it: the same
 * role, name and row text (when a row was recorded). Only a unique match is returned; otherwise the closest
 * candidates, so the caller never acts on the wrong element.
 */
export function refindElement(record: Pick<RefRecord, 'role' | 'name'> & Partial<RefRecord>, current: Candidate[]): Refound {
  const same = current.filter((c) => c.role === record.role && c.name === record.name);
  // With a recorded row, the row must match too: a lone "Delete" button of another item is not the one meant.
  const exact = record.context === undefined ? same : same.filter((c) => c.context === record.context);
  if (exact.length === 1 && exact[0]) return { found: exact[0] };
  if (exact.length === 0 && record.context !== undefined && same.length > 0) {
    // The row's text may have changed with the page's state; the words around the element, less its own name, still
    // have to agree mostly, and clearly better than for any twin.
    const own = words(record.name);
    const scored = same.map((c) => ({ c, score: similarity(c.context, record.context ?? '', own) })).sort((a, b) => b.score - a.score);
    const [best, second] = scored;
    if (best && best.score >= 0.6 && (!second || best.score - second.score >= 0.3)) return { found: best.c };
  }
  const pool = same.length > 0 ? same : current;
  const ranked = pool
    .map((c) => ({ c, score: (c.role === record.role ? 1 : 0) + 2 * similarity(c.name, record.name) + similarity(c.context, record.context ?? '') }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 5)
    .map((x) => x.c);
  return { found: null, candidates: ranked };
}
