import type { TextStyle } from './document-model';
import type { Severity } from './finding';
import type { FindingList, FindingInput } from './finding-list';
import type { StyleRule } from './rules';

export interface StyleCheck {
  /** What is checked, for messages: "title", "heading 2", "header of column B". */
  what: string;
  ruleBase: string;
  where: FindingInput['where'];
  severity: Partial<Record<'size' | 'color' | 'font' | 'bold', Severity>>;
  sizeTolerance: number;
}

/**
 * Compares a resolved style with the expected one, property by property, and adds a finding for each difference.
 * A property the rules do not set is not checked; a property the output does not resolve is reported as unknown.
 */
export function compareStyle(
  actual: TextStyle & { fill?: string },
  expected: StyleRule & { fill?: string },
  check: StyleCheck,
  findings: FindingList,
): void {
  const report = (property: 'size' | 'color' | 'font' | 'bold', wanted: string, got: string, fix: string): void =>
    findings.add({
      rule: `${check.ruleBase}-${property}`,
      severity: check.severity[property] ?? 'medium',
      where: check.where,
      message: `The ${check.what}'s ${property === 'size' ? 'font size' : property === 'font' ? 'font family' : property === 'color' ? 'colour' : 'weight'} differs from the template`,
      expected: wanted,
      actual: got,
      fix,
    });
  if (
    expected.size !== undefined &&
    (actual.size === undefined || Math.abs(actual.size - expected.size) > check.sizeTolerance)
  ) {
    report(
      'size',
      `${expected.size} pt`,
      actual.size === undefined ? 'unknown' : `${actual.size} pt`,
      `Set the ${check.what}'s font size to ${expected.size} pt.`,
    );
  }
  if (expected.color !== undefined && actual.color !== expected.color) {
    report(
      'color',
      `#${expected.color}`,
      actual.color === undefined ? 'unknown' : `#${actual.color}`,
      `Set the ${check.what}'s colour to #${expected.color}.`,
    );
  }
  if (expected.font !== undefined && actual.font?.toLowerCase() !== expected.font.toLowerCase()) {
    report('font', expected.font, actual.font ?? 'unknown', `Set the ${check.what}'s font to ${expected.font}.`);
  }
  if (expected.bold !== undefined && (actual.bold ?? false) !== expected.bold) {
    report(
      'bold',
      expected.bold ? 'bold' : 'not bold',
      actual.bold ? 'bold' : 'not bold',
      `Make the ${check.what} ${expected.bold ? 'bold' : 'not bold'}.`,
    );
  }
  if (expected.fill !== undefined && actual.fill !== expected.fill) {
    findings.add({
      rule: `${check.ruleBase}-fill`,
      severity: 'medium',
      where: check.where,
      message: `The ${check.what}'s background fill differs from the template`,
      expected: `#${expected.fill}`,
      actual: actual.fill ? `#${actual.fill}` : 'none',
      fix: `Fill the ${check.what} with #${expected.fill}.`,
    });
  }
}
