import { isLinked, normalizeText, urlsIn, wordCount, type ContentScanner } from './content-scan';
import type { FindingInput, FindingList } from './finding-list';
import { quote } from './finding-list';
import { locate } from './finding';
import type { Range } from './rules';

/** One piece of text the content checks read: a description, a title, a table cell, a paragraph. */
export interface TextUnit {
  where: FindingInput['where'];
  text: string;
  links: string[];
  /** Set for descriptions: their expected length in words (an empty range checks filler and duplicates only). */
  description?: Range;
  /** What to call it in messages: "description", "cell", "paragraph". */
  noun: string;
  /** Set where a more specific check already judged whether this text is a real link. */
  linkChecked?: boolean;
}

const MIN_DUPLICATE_WORDS = 6;

/**
 * The content checks every format shares: empty, shallow or over-long descriptions, filler phrases, template text
 * left in place, duplicated descriptions, sources on blocked domains, and URLs written as plain text.
 */
export function checkTextUnits(units: TextUnit[], scanner: ContentScanner, findings: FindingList): void {
  const seen = new Map<string, TextUnit>();
  let withFiller = 0;
  let descriptions = 0;
  for (const unit of units) {
    const text = unit.text.trim();
    const words = wordCount(text);
    const placeholder = text ? scanner.placeholder(text) : undefined;
    if (placeholder) {
      findings.add({
        rule: 'content.placeholder',
        severity: 'high',
        where: unit.where,
        message: `Template text left in the ${unit.noun}`,
        expected: 'real content',
        actual: `${quote(text)} (contains "${placeholder}")`,
        fix: `Replace the placeholder text with the real ${unit.noun}.`,
      });
    }
    if (unit.description) {
      descriptions += 1;
      const { min, max } = unit.description;
      if (words === 0) {
        findings.add({
          rule: 'content.empty',
          severity: 'high',
          where: unit.where,
          message: `The ${unit.noun} is empty`,
          expected: min === undefined ? `a ${unit.noun}` : `at least ${min} words`,
          actual: 'empty',
          fix: `Write the ${unit.noun} from the source data; if the data is missing, say so rather than inventing it.`,
        });
      } else if (min !== undefined && words < min) {
        findings.add({
          rule: 'content.shallow',
          severity: 'high',
          where: unit.where,
          message: `The ${unit.noun} is too short to say anything specific`,
          expected: `at least ${min} words`,
          actual: `${words} word${words === 1 ? '' : 's'}: ${quote(text)}`,
          fix: `Expand the ${unit.noun} to at least ${min} words of specific facts (what it does, for whom, figures) from the source data.`,
        });
      } else if (max !== undefined && words > max) {
        findings.add({
          rule: 'content.too-long',
          severity: 'medium',
          where: unit.where,
          message: `The ${unit.noun} is much longer than in the template`,
          expected: `at most ${max} words`,
          actual: `${words} words`,
          fix: `Cut the ${unit.noun} to at most ${max} words.`,
        });
      }
    }
    const filler = text ? scanner.filler(text) : [];
    if (filler.length > 0) {
      if (unit.description) withFiller += 1;
      findings.add({
        rule: 'content.filler',
        severity: 'medium',
        where: unit.where,
        message: `Filler phrase${filler.length === 1 ? '' : 's'} in the ${unit.noun}`,
        expected: 'specific statements',
        actual: filler.map((phrase) => `"${phrase}"`).join(', '),
        fix: `Rewrite without ${filler.map((phrase) => `"${phrase}"`).join(', ')}: state what is specific instead.`,
      });
    }
    if (unit.description && words >= MIN_DUPLICATE_WORDS) {
      const key = normalizeText(text);
      const first = seen.get(key);
      if (first) {
        findings.add({
          rule: 'content.duplicate',
          severity: 'high',
          where: unit.where,
          message: `The ${unit.noun} repeats another one word for word`,
          expected: `a ${unit.noun} of its own`,
          actual: `the same text as ${'label' in first.where ? first.where.label : locate(first.where).label}: ${quote(text, 60)}`,
          fix: `Write this ${unit.noun} from its own source data; copying another one hides missing data.`,
        });
      } else seen.set(key, unit);
    }
    for (const url of [...new Set([...unit.links, ...urlsIn(text)])]) {
      const domain = scanner.blockedDomain(url);
      if (domain)
        findings.add({
          rule: 'content.blocked-source',
          severity: 'high',
          where: unit.where,
          message: 'A source on a blocked domain',
          expected: `no sources on ${domain}`,
          actual: url,
          fix: `Replace ${url} with the real source, or remove the claim it supports.`,
        });
    }
    for (const url of unit.linkChecked ? [] : urlsIn(text)) {
      if (isLinked(url, unit.links)) continue;
      findings.add({
        rule: 'content.plain-link',
        severity: 'medium',
        where: unit.where,
        message: 'A URL written as plain text, not a clickable link',
        expected: 'a hyperlink',
        actual: url,
        fix: `Make ${url} a real hyperlink (its target set), not just text.`,
      });
    }
  }
  if (descriptions >= 2 && withFiller * 2 >= descriptions) {
    findings.add({
      rule: 'content.filler-widespread',
      severity: 'high',
      where: {},
      message: 'Most descriptions are built from filler phrases',
      expected: 'specific descriptions',
      actual: `${withFiller} of ${descriptions} descriptions use filler phrases`,
      fix: 'Rewrite the descriptions from the source data: products, customers, figures, not stock phrases.',
    });
  }
}

/** Hollow output: more than `ratio` of the places that should hold content are empty. The loop stops on it. */
export function checkHollow(
  filled: number,
  total: number,
  ratio: number,
  what: string,
  findings: FindingList,
): boolean {
  if (total === 0) return false;
  const empty = total - filled;
  if (empty / total <= ratio) return false;
  findings.add({
    rule: 'content.hollow',
    severity: 'critical',
    where: {},
    message: `The output is hollow: ${empty} of ${total} ${what} are empty`,
    expected: `at most ${Math.round(ratio * 100)}% empty`,
    actual: `${Math.round((empty / total) * 100)}% empty`,
    fix: 'The generator produced a shell without data: find why the data did not reach it (a failed fetch, a wrong field name, an empty query) rather than filling gaps with invented text.',
  });
  return true;
}
