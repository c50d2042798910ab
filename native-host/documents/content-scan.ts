import type { Rules } from './rules';

/** Phrases that pad a description without saying anything specific: each one found is a finding. */
export const DEFAULT_FILLER_PHRASES = [
  'is a company that',
  'is a company which',
  'was founded in',
  'is a leading',
  'a leading provider of',
  'a wide range of',
  'a variety of',
  'state-of-the-art',
  'world-class',
  'cutting-edge',
  'best-in-class',
  'innovative solutions',
  'committed to excellence',
  'one-stop shop',
  "in today's fast-paced",
  'plays a crucial role',
  'it is worth noting',
];

/**
 * Text a template or generator leaves behind when nothing real was filled in. A phrase written in capitals matches
 * only in capitals, so "TODO" is caught and a to-do list app is not.
 */
export const DEFAULT_PLACEHOLDER_PHRASES = [
  'lorem ipsum',
  'click to add',
  'click to edit',
  'insert text here',
  '[insert',
  '[company',
  'TBD',
  'TODO',
  'XXX',
  'placeholder text',
  'sample text',
];

/** Sources that are never a real citation: reserved example domains and test TLDs (RFC 2606, RFC 6761). */
export const DEFAULT_BLOCKED_DOMAINS = [
  'example.com',
  'example.org',
  'example.net',
  'example',
  'test',
  'invalid',
  'localhost',
];

/** "Date: 12 May 2025", "Prepared for: Acme": a short cover label (at most three words) and its value. */
export const COVER_LABEL = /^\s*([A-Z][\w&/.-]*(?: [\w&/.-]+){0,2}):\s*\S/;

/** The value written after a cover label ("Date: 12 May 2025"), '' when the label has none, undefined when absent. */
export function coverValue(text: string, label: string): string | undefined {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(?:^|\\n)[ \\t]*${escaped}[ \\t]*:[ \\t]*([^\\n]*)`, 'i').exec(text);
  return match ? (match[1] ?? '').trim() : undefined;
}

export const wordCount = (text: string): number =>
  text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

/** Lower case, single spaces, no punctuation: what two texts must share to count as the same. */
export const normalizeText = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

function phrasePattern(phrase: string): RegExp {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const start = /^\w/.test(phrase) ? '\\b' : '';
  const end = /\w$/.test(phrase) ? '\\b' : '';
  const capitals = /[A-Z]/.test(phrase) && phrase === phrase.toUpperCase();
  return new RegExp(`${start}${escaped}${end}`, capitals ? '' : 'i');
}

export interface ContentScanner {
  filler: (text: string) => string[];
  placeholder: (text: string) => string | undefined;
  blockedDomain: (url: string) => string | undefined;
  hollowRatio: number;
}

/**
 * A workbook repeats the same shared string in thousands of cells: each distinct text is scanned once. The memory is
 * bounded so a workbook of distinct texts does not keep them all.
 */
function remembered<T>(scan: (text: string) => T): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    if (known.has(text)) return known.get(text) as T;
    const result = scan(text);
    if (known.size >= 10_000) known.clear();
    known.set(text, result);
    return result;
  };
}

export function contentScanner(rules: Rules): ContentScanner {
  const content = rules.content ?? {};
  const filler = [...(content.fillerPhrases ?? DEFAULT_FILLER_PHRASES), ...(content.extraFillerPhrases ?? [])].map(
    (phrase) => ({ phrase, pattern: phrasePattern(phrase) }),
  );
  const placeholders = (content.placeholderPhrases ?? DEFAULT_PLACEHOLDER_PHRASES).map((phrase) => ({
    phrase,
    pattern: phrasePattern(phrase),
  }));
  const blocked = [...DEFAULT_BLOCKED_DOMAINS, ...(content.blockedDomains ?? [])].map((domain) =>
    domain.toLowerCase().replace(/^\*?\./, ''),
  );
  return {
    filler: remembered((text) => filler.filter((item) => item.pattern.test(text)).map((item) => item.phrase)),
    placeholder: remembered((text) => placeholders.find((item) => item.pattern.test(text))?.phrase),
    blockedDomain: (url) => {
      const host = hostOf(url);
      if (!host) return undefined;
      return blocked.find((domain) => host === domain || host.endsWith(`.${domain}`));
    },
    hollowRatio: content.hollowRatio ?? 0.5,
  };
}

const URL_IN_TEXT = /\b(?:https?:\/\/[^\s<>"')\]]+|www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+[^\s<>"')\]]*)/gi;

/** URLs written in a text, trailing punctuation removed. */
export const urlsIn = remembered((text: string): string[] =>
  (text.match(URL_IN_TEXT) ?? []).map((url) => url.replace(/[.,;:!?]+$/, '')),
);

export function hostOf(url: string): string | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`).hostname
      .toLowerCase()
      .replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

/** Whether a URL written as text is among the real links (same host and path, scheme and slash aside). */
export function isLinked(url: string, links: readonly string[]): boolean {
  const key = (value: string): string =>
    value
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, '')
      .replace(/^www\./, '')
      .replace(/\/+$/, '');
  return links.some((link) => key(link) === key(url));
}

export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The most frequent value (first seen wins a tie). */
export function mode<T>(values: readonly T[], key: (value: T) => string = String): T | undefined {
  const counts = new Map<string, { value: T; count: number }>();
  for (const value of values) {
    const entry = counts.get(key(value));
    if (entry) entry.count += 1;
    else counts.set(key(value), { value, count: 1 });
  }
  let best: { value: T; count: number } | undefined;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best?.value;
}
