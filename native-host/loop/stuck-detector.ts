import { createHash } from 'node:crypto';
import type { FailureItem } from '../../shared/protocol/loop-protocol';
import type { IterationRecord } from './loop-state';

/** After this many identical failing checks in a row the prompt asks for a different approach. */
export const CHANGE_APPROACH_AFTER = 2;
/** The same failures three times in a row (two fixes that changed nothing about them) and the loop stops as stuck. */
export const STUCK_AFTER = 3;

/**
 * Identifies a set of failures regardless of order and of messages, which often hold timings or addresses. Output
 * without a known structure has no test names, so its text counts, with the digits taken out. Medium findings about
 * an output document do not fail the check, so fixing only those is no progress: they are left out.
 */
export function failureSignature(failures: FailureItem[]): string {
  const key = (item: FailureItem): string => (item.severity === 'warning' ? `${item.id}:${item.message.replace(/\d+/g, '#')}` : `${item.severity}:${item.id}`);
  const ids = [...new Set(failures.filter((item) => item.severity !== 'medium').map(key))].sort();
  return createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 16);
}

/** How many failing checks in a row, ending with the latest, had the same failures. */
export function repeatCount(history: IterationRecord[]): number {
  const checked = history.filter((record) => record.passed === false && record.signature !== undefined);
  const last = checked[checked.length - 1];
  if (!last) return 0;
  let count = 0;
  for (let i = checked.length - 1; i >= 0 && checked[i]?.signature === last.signature; i -= 1) count += 1;
  return count;
}
