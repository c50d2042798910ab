import { locate, type Finding, type FindingLocation } from './finding';
import type { Rules } from './rules';

/** A finding as a check reports it: where it is, given as parts or as a built location. */
export type FindingInput = Omit<Finding, 'location'> & { where: Parameters<typeof locate>[0] | FindingLocation };

/** Per sheet column, findings of one rule past this many are folded into one "and N more rows" finding. */
const PER_COLUMN = 10;
/** The same finding (rule, expected and actual) in more places than this is folded into one that lists them. */
const SAME_ELSEWHERE = 3;

/**
 * Collects findings, applying the rules file's per-rule severity overrides ("off" drops the finding). A workbook of
 * ten thousand rows can repeat one defect in every row: past ten findings of a rule in one column the rest are
 * counted into a single finding that names the first rows, so the report and the fixer prompt stay readable.
 */
export class FindingList {
  private readonly items_: Finding[] = [];
  private readonly folded = new Map<string, { finding: Finding; count: number; rows: number[] }>();
  private readonly perGroup = new Map<string, number>();

  private readonly accepted: Set<string>;
  /** Every finding added, before folding and acceptance: what `acceptedOf` turns into a reference's accepted list. */
  readonly raw: Array<{ rule: string; location: string; actual: string }> = [];

  private readonly reported = new Set<string>();

  /** Whether a finding whose rule starts with `prefix` was reported at this place: later checks do not repeat it. */
  reportedAt(label: string, prefix: string): boolean {
    for (const key of this.reported) if (key.startsWith(`${label}\u0000${prefix}`)) return true;
    return false;
  }

  constructor(
    private readonly overrides: Rules['severity'] = {},
    accepted: Rules['accepted'] = [],
    /** Output slide -> template slide, when slides were added or removed: accepted findings are found on the moved slide. */
    private readonly slideMap: ReadonlyMap<number, number> = new Map(),
  ) {
    this.accepted = new Set(accepted.map((item) => acceptKey(item.rule, item.location, item.actual)));
  }

  private readonly repeated = new Map<string, { finding: Finding; places: string[] }>();

  get items(): Finding[] {
    const extra = [...this.folded.values()].map(({ finding, count, rows }) => ({
      ...finding,
      message: `${finding.message}: ${count} more row${count === 1 ? '' : 's'} like this`,
      actual: `rows ${rows.slice(0, 12).join(', ')}${rows.length > 12 ? ', ...' : ''}`,
    }));
    const same = [...this.repeated.values()]
      .filter(({ places }) => places.length > 0)
      .map(({ finding, places }) => ({
        ...finding,
        location: {
          label: `${places.slice(0, 6).join('; ')}${places.length > 6 ? `; and ${places.length - 6} more` : ''}`,
        },
        message: `${finding.message} (the same in ${places.length} more place${places.length === 1 ? '' : 's'})`,
      }));
    return [...this.items_, ...extra, ...same];
  }

  private templateLabel(location: FindingLocation): string {
    const mapped = location.slide === undefined ? undefined : this.slideMap.get(location.slide);
    return mapped === undefined ? location.label : location.label.replace(/^slide \d+/, `slide ${mapped}`);
  }

  add(input: FindingInput): void {
    const override = this.overrides?.[input.rule];
    if (override === 'off') return;
    const location = 'label' in input.where ? input.where : locate(input.where);
    this.raw.push({ rule: input.rule, location: location.label, actual: input.actual });
    if (this.accepted.has(acceptKey(input.rule, this.templateLabel(location), input.actual))) return;
    this.reported.add(`${location.label}\u0000${input.rule}`);
    const finding = {
      rule: input.rule,
      severity: override ?? input.severity,
      location,
      message: input.message,
      expected: input.expected,
      actual: input.actual,
      fix: input.fix,
    };
    if (location.sheet !== undefined && location.row !== undefined) {
      const group = `${input.rule}\u0000${location.sheet}\u0000${location.table ?? 1}\u0000${location.column ?? ''}`;
      const seen = (this.perGroup.get(group) ?? 0) + 1;
      this.perGroup.set(group, seen);
      if (seen > PER_COLUMN) {
        const folded = this.folded.get(group);
        if (folded) {
          folded.count += 1;
          folded.rows.push(location.row);
        } else {
          const { row: _row, label: _label, ...rest } = location;
          const where = locate({ ...rest });
          this.folded.set(group, {
            finding: { ...finding, location: where, actual: '' },
            count: 1,
            rows: [location.row],
          });
        }
        return;
      }
    }
    if (location.row === undefined) {
      const key = `${input.rule}\u0000${input.expected}\u0000${input.actual}`;
      const entry = this.repeated.get(key) ?? { finding, places: [] };
      this.repeated.set(key, entry);
      const seen = (this.perGroup.get(key) ?? 0) + 1;
      this.perGroup.set(key, seen);
      if (seen > SAME_ELSEWHERE) {
        entry.places.push(location.label);
        return;
      }
    }
    this.items_.push(finding);
  }
}

/** Hollowness is a property of the document, not of a place: a reference that is itself mostly empty accepts it whatever the share. */
const acceptKey = (rule: string, location: string, actual: string): string =>
  `${rule}\u0000${location}\u0000${rule === 'content.hollow' ? '' : actual}`;

export const quote = (text: string, max = 80): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
};

export const describeStyle = (style: { size?: number; color?: string; font?: string; bold?: boolean }): string =>
  [
    style.size === undefined ? undefined : `${style.size} pt`,
    style.color === undefined ? undefined : `#${style.color}`,
    style.font,
    style.bold === undefined ? undefined : style.bold ? 'bold' : 'not bold',
  ]
    .filter(Boolean)
    .join(', ') || 'unknown';
