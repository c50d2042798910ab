import { describe, expect, it } from 'vitest';
import { tasksToEvict } from '../../../../extension/platform/screenshot-db';

describe('the screenshot store under its size cap', () => {
  const ledger = { old: { bytes: 40, at: 1 }, middle: { bytes: 40, at: 2 }, current: { bytes: 40, at: 3 } };

  it('lets nothing go while the total fits', () => {
    expect(tasksToEvict(ledger, 'current', 120)).toEqual([]);
  });

  it('lets the oldest tasks go first, only as many as needed', () => {
    expect(tasksToEvict(ledger, 'current', 100)).toEqual(['old']);
    expect(tasksToEvict(ledger, 'current', 50)).toEqual(['old', 'middle']);
  });

  it('keeps the task being written even when it alone is over the cap', () => {
    expect(tasksToEvict(ledger, 'old', 10)).toEqual(['middle', 'current']);
  });
});
