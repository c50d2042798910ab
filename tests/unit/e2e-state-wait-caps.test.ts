import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptFiles } from '../support/fixed-wait-scan';

const E2E = resolve(import.meta.dirname, '..', 'e2e');

/**
 * A wait for a state (puppeteer's waitFor…, vitest's expect.poll, the suite's waitUntil) is given a cap only so that a
 * broken test ends: a cap short enough to be reached on a busy 2-core machine decides the test by timing. The CI run
 * that failed on `expect.poll`'s default of 1 s is why this exists (the e2e config now gives it 60 s).
 */
const MIN_CAP_MS = 30_000;
const STATE_WAIT = /\b(waitFor(?:Selector|Function|Navigation|Response|Request|NetworkIdle)|expect\.poll|waitUntil)\(/g;

/** The state waits in `text` whose cap is below MIN_CAP_MS, as `line: call timeout`. */
function shortCaps(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(STATE_WAIT)) {
    const start = match.index ?? 0;
    // The call's own arguments: up to the next statement that starts a new wait or call of the product.
    const rest = text.slice(start + match[0].length, start + match[0].length + 600);
    const end = rest.search(/\n\s*(?:await |const |let |expect\(|\}\);)/);
    const span = end === -1 ? rest : rest.slice(0, end);
    const cap = /\btimeout(?:Ms)?:\s*([\d_]+)/.exec(span);
    if (!cap?.[1]) continue;
    const ms = Number(cap[1].replaceAll('_', ''));
    if (ms < MIN_CAP_MS) found.push(`${text.slice(0, start).split('\n').length}: ${match[1]} timeout ${ms}`);
  }
  return found;
}


describe('caps on the e2e suite\'s waits for states', () => {
  it('finds a short cap in each form, on one line or several, and passes long ones and other calls\' timeouts', () => {
    expect(shortCaps("await panel.waitForSelector('#x', { timeout: 5_000 });")).toEqual(['1: waitForSelector timeout 5000']);
    expect(shortCaps('await expect.poll(() => f(), { timeout: 10000 }).toBe(1);')).toEqual(['1: expect.poll timeout 10000']);
    expect(shortCaps("a();\nawait panel.waitForFunction(\n  () => ready(),\n  { timeout: 6_000 },\n);")).toEqual(['2: waitForFunction timeout 6000']);
    expect(shortCaps("await waitUntil('x', f, { timeoutMs: 2000, everyMs: 100 });")).toEqual(['1: waitUntil timeout 2000']);
    expect(shortCaps("await panel.waitForSelector('#x', { timeout: 60_000 });")).toEqual([]);
    expect(shortCaps("await panel.waitForSelector('#x');\nawait uiCall(panel, 'chat.wait', { timeoutMs: 1500 });")).toEqual([]);
  });

  it('gives every wait for a state in tests/e2e a cap a busy machine does not reach', () => {
    const all = scriptFiles(E2E);
    expect(all.length).toBeGreaterThan(50);
    const short = all.flatMap((file) => shortCaps(readFileSync(file, 'utf8')).map((hit) => `${relative(E2E, file)}:${hit}`));
    expect(short, `raise the cap to at least ${MIN_CAP_MS} ms: it only ends a broken test, the wait itself ends when the state is there`).toEqual([]);
  });
});
