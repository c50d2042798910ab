import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MINIWOB_DIR, miniwobMissing } from '../../../../scripts/lib/miniwob-harness';
import { SOLVERS } from '../../../../scripts/eval/expressible/run-expressible';
import { UNSOLVED_WHY } from '../../../../scripts/eval/expressible/unsolved-why';

// The expressible eval says, for each MiniWoB++ page it does not solve, why. The list of reasons must match the
// solutions both ways: a family given a solution leaves it, and a family with neither is caught here.

describe('why a MiniWoB++ family has no scripted solution', () => {
  it('names no family that has a solution, and says each reason in words', () => {
    expect(Object.keys(UNSOLVED_WHY).filter((page) => page in SOLVERS)).toEqual([]);
    for (const [page, why] of Object.entries(UNSOLVED_WHY)) expect(why, page).toMatch(/^(cannot reach 1|not yet): .{30,}/);
  });

  const missing = miniwobMissing();
  it.skipIf(missing !== null)(`gives a reason for every page of the suite without a solution${missing ? ` — skipped: ${missing}` : ''}`, () => {
    const pages = readdirSync(join(MINIWOB_DIR, 'miniwob'))
      .filter((file) => file.endsWith('.html'))
      .map((file) => file.slice(0, -'.html'.length));
    expect(pages.length).toBeGreaterThan(100);
    expect(pages.filter((page) => !(page in SOLVERS) && !(page in UNSOLVED_WHY))).toEqual([]);
    expect(Object.keys(UNSOLVED_WHY).filter((page) => !pages.includes(page))).toEqual([]);
  });
});
