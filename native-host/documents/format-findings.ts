import { SEVERITIES, type Finding, type Severity } from './finding';
import type { Judgement } from './judge-document';

const TITLES: Record<Severity, string> = { critical: 'Critical', high: 'High', medium: 'Medium' };

function line(finding: Finding): string {
  return `- [${finding.rule}] ${finding.location.label}: ${finding.message}. Expected ${finding.expected}; found ${finding.actual}. Fix: ${finding.fix}`;
}

/**
 * The findings for a fixer prompt, grouped by severity (critical first), at most `max` lines in all so a long list
 * cannot crowd out the rest of the prompt; the template's notes follow when the rules carry them.
 */
export function formatForFixer(
  judgement: Pick<Judgement, 'findings' | 'counts' | 'hollow' | 'notes' | 'summary'>,
  max = 40,
): string {
  const parts: string[] = [`The output document does not match its template: ${judgement.summary}.`];
  if (judgement.hollow)
    parts.push('The output is mostly empty: find why the data does not reach the document before fixing details.');
  let budget = max;
  for (const severity of SEVERITIES) {
    const items = judgement.findings.filter((finding) => finding.severity === severity);
    if (items.length === 0) continue;
    const shown = items.slice(0, Math.max(0, budget));
    budget -= shown.length;
    const more = items.length - shown.length;
    parts.push(
      `## ${TITLES[severity]} (${items.length})\n${shown.map(line).join('\n')}${more > 0 ? `\n- ... and ${more} more ${severity} finding${more === 1 ? '' : 's'}` : ''}`,
    );
  }
  if (judgement.notes) parts.push(`## The template's reference notes\n${judgement.notes}`);
  return parts.join('\n\n');
}

/** The terminal report of `deputy compare`: a summary line, then each severity's findings with location and fix. */
export function formatReport(judgement: Judgement, options: { max?: number } = {}): string {
  const max = options.max ?? 200;
  const out: string[] = [
    `deputy compare: ${judgement.output}${judgement.template ? ` against ${judgement.template}` : ''}`,
    judgement.summary,
    '',
  ];
  let shown = 0;
  for (const severity of SEVERITIES) {
    const items = judgement.findings.filter((finding) => finding.severity === severity);
    if (items.length === 0) continue;
    out.push(`${TITLES[severity].toUpperCase()} (${items.length})`);
    for (const finding of items) {
      if (shown >= max) break;
      shown += 1;
      out.push(`  ${finding.location.label}: ${finding.message} [${finding.rule}]`);
      out.push(`      expected: ${finding.expected}`);
      out.push(`      actual:   ${finding.actual}`);
      out.push(`      fix:      ${finding.fix}`);
    }
    out.push('');
  }
  if (judgement.findings.length > shown)
    out.push(`... ${judgement.findings.length - shown} more findings: use --json for all of them.`, '');
  return out.join('\n');
}
