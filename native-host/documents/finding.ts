import { z } from 'zod';

export const Severity = z.enum(['critical', 'high', 'medium']);
export type Severity = z.infer<typeof Severity>;
export const SEVERITIES: readonly Severity[] = Severity.options;

/** Where a finding is: as many of these as apply, plus a readable label built from them. */
export const FindingLocation = z.object({
  label: z.string(),
  slide: z.number().int().optional(),
  shape: z.string().optional(),
  sheet: z.string().optional(),
  /** A sheet's table, counted from 1, when the sheet has more than one. */
  table: z.number().int().optional(),
  row: z.number().int().optional(),
  column: z.string().optional(),
  section: z.string().optional(),
  paragraph: z.number().int().optional(),
});
export type FindingLocation = z.infer<typeof FindingLocation>;

export const Finding = z.object({
  rule: z.string(),
  severity: Severity,
  location: FindingLocation,
  message: z.string(),
  expected: z.string(),
  actual: z.string(),
  fix: z.string(),
});
export type Finding = z.infer<typeof Finding>;

/** Builds a location with its label: `slide 4, shape "Title 1"`, `sheet "Comps" row 12, column "EV"`, `section 3.2 "Market"`. */
export function locate(where: Omit<FindingLocation, 'label'> & { sectionTitle?: string }): FindingLocation {
  const parts: string[] = [];
  if (where.slide !== undefined) parts.push(`slide ${where.slide}`);
  if (where.shape !== undefined) parts.push(`shape "${where.shape}"`);
  if (where.sheet !== undefined)
    parts.push(
      `sheet "${where.sheet}"${where.table === undefined ? '' : ` table ${where.table}`}${where.row === undefined ? '' : ` row ${where.row}`}`,
    );
  else if (where.row !== undefined) parts.push(`row ${where.row}`);
  if (where.column !== undefined) parts.push(`column "${where.column}"`);
  if (where.section !== undefined)
    parts.push(`section ${where.section}${where.sectionTitle ? ` "${where.sectionTitle}"` : ''}`);
  if (where.paragraph !== undefined) parts.push(`paragraph ${where.paragraph}`);
  const { sectionTitle: _title, ...rest } = where;
  return { label: parts.length > 0 ? parts.join(', ') : 'document', ...rest };
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, high: 0, medium: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  return counts;
}

export const severityRank = (severity: Severity): number => SEVERITIES.indexOf(severity);

/** Most severe first; within a severity, in document order (slide, sheet row, section) as the checks found them. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return findings
    .map((finding, order) => ({ finding, order }))
    .sort((a, b) => severityRank(a.finding.severity) - severityRank(b.finding.severity) || a.order - b.order)
    .map((item) => item.finding);
}
