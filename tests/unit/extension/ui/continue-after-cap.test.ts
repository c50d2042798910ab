import { describe, expect, it } from 'vitest';
import { costCapReason } from '../../../../shared/agent/cost-cap';
import { parseNewCap, stoppedAtCap } from '../../../../extension/ui/continue-after-cap';

describe('continue after the cost cap', () => {
  it('is offered only under a run that stopped at its cap', () => {
    const atCap = costCapReason(0.006, 0.005, 'set a new cap under the task in the side panel and press Continue');
    expect(stoppedAtCap('stopped', atCap)).toBe(true);
    for (const [status, summary] of [['stopped', 'Stopped by you.'], ['failed', atCap], ['completed', 'Done.'], ['stopped', null]] as const) {
      expect(stoppedAtCap(status, summary)).toBe(false);
    }
  });

  it('reads a new cap in dollars, and says what to type otherwise', () => {
    expect(parseNewCap('0.50')).toEqual({ cap: 0.5 });
    expect(parseNewCap(' $2 ')).toEqual({ cap: 2 });
    expect(parseNewCap('1000')).toEqual({ cap: 1000 });
    for (const bad of ['', 'lots', '0', '-1', '1001', 'Infinity', '$']) {
      expect(parseNewCap(bad)).toEqual({ error: 'The new cap is an amount in dollars above 0 and up to 1000, for example 0.50.' });
    }
  });
});
