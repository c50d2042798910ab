import { describe, expect, it } from 'vitest';
import { runScenario } from '../fixtures/attacks/attack-harness';
import type { Scenario } from '../fixtures/attacks/scenarios';
import { SCHEMES, generatedCorpus, splitCases } from '../fixtures/redaction/generated';
import { useAttackWorld } from './support/attack-world';

// The generated corpus of identifiers and credentials (tests/fixtures/redaction/generated.ts), shown by a page on
// shop.test and written into the task itself, through the built extension in Chromium with a scripted model: no
// value reaches the model's requests, the extension's storage or the task's trace (its export) in clear.

const world = useAttackWorld();

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const { cases } = generatedCorpus(2024, 2);
// One case per scheme on the page, the other in the task text; split values as separate boxes.
const onPage = cases.filter((_, i) => i % 2 === 0);
const inTask = cases.filter((_, i) => i % 2 === 1 && !cases[i]?.text.includes('\n'));
const split = splitCases(99, 1);
const squash = (text: string): string => text.replace(/[\s.\-/\\]|\\n/g, '').toLowerCase();

const scenario: Scenario = {
  id: 'structured-pii',
  channel: 'identifiers and credentials on a page and in the task',
  kind: 'legit',
  task: `Read my profile page and tell me when you are done. For reference: ${inTask.map((c) => c.text).join(' | ')}`,
  start: (s) => `${s.shopOrigin}/s/pii/profile`,
  routes: () => ({}),
  reached: () => true,
};

describe('redaction by structure, end to end', () => {
  it(`keeps ${SCHEMES.length} schemes of identifiers and keys out of the model's requests, storage and trace`, async () => {
    const boxes = split
      .map((c) => c.text.split('\n').map((line) => /"([^"]+)" value="([^"]*)"/.exec(line)).filter(Boolean).map((m) => `<input aria-label="${m?.[1]}" value="${m?.[2]}">`).join(''))
      .join('<br>');
    world.sites.shop.routes.set(
      '/s/pii/profile',
      `<!doctype html><html><head><meta charset="utf-8"><title>Profile</title></head><body><main><h1>Your profile</h1>${onPage
        .map((c) => `<p>${escape(c.text).replace(/\n/g, '<br>')}</p>`)
        .join('')}<form>${boxes}</form></main></body></html>`,
    );
    const run = await runScenario(world, scenario, 'reject');
    const requests = run.requests.map((r) => r.text).join('\n');
    expect(run.requests.length).toBeGreaterThan(0);
    // The page was really seen: its heading reached the model.
    expect(requests).toContain('Your profile');
    // And its values were replaced by placeholders the model can type back, not dropped.
    expect((requests.match(/\{\{redacted_\w+\}\}/g) ?? []).length).toBeGreaterThan(SCHEMES.length / 2);
    const everything = squash(`${requests}\n${run.stored}`);
    const values = [...onPage, ...inTask].flatMap((c) => c.secrets).filter((v) => squash(v).length >= 6);
    const splitWholes = split.flatMap((c) => c.typedBack ?? []);
    expect(values.length).toBeGreaterThanOrEqual(SCHEMES.length);
    const leaked = [...values, ...splitWholes].filter((v) => everything.includes(squash(v)));
    expect(leaked).toEqual([]);
  }, 180_000);
});
