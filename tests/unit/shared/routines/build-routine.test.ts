import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../../../shared/agent/agent-state';
import { applyRepairs } from '../../../../shared/routines/apply-repairs';
import { buildRoutine, kindOf } from '../../../../shared/routines/build-routine';
import { exportRoutine, importRoutine } from '../../../../shared/routines/routine-file';
import { checkParams, fillSteps, fillTask } from '../../../../shared/routines/routine-params';

let n = 0;
function step(url: string, calls: { name: string; args: Record<string, unknown>; ok?: boolean; status?: 'finished' | 'denied' }[]): StepRecord {
  return {
    index: n++,
    startedAt: 0,
    observation: { url, title: '', hash: '', chars: 0, text: null, elements: [] },
    notices: [],
    reply: null,
    calls: calls.map((c, i) => ({ id: `c${n}_${i}`, name: c.name, arguments: JSON.stringify(c.args), status: c.status ?? 'finished', classes: [], result: { ok: c.ok ?? true, content: '' }, stepText: c.name })),
    usage: null,
    costUsd: null,
  };
}

function recorded() {
  n = 0;
  const steps = [
    step('https://shop.test/', [{ name: 'type', args: { ref: 3, text: 'blue mug', submit: true } }]),
    step('https://shop.test/search?q=blue', [{ name: 'find', args: { text: 'mug' } }, { name: 'click', args: { ref: 9 }, ok: false }]),
    step('https://shop.test/search?q=blue', [{ name: 'click', args: { ref: 12 } }]),
    step('https://shop.test/checkout', [
      { name: 'type', args: { ref: 20, text: '2026-12-01' } },
      { name: 'type', args: { ref: 21, text: '{{redacted_card_1}}' } },
      { name: 'type', args: { ref: 22, text: 'Leave at the door' } },
      { name: 'click', args: { ref: 30 }, status: 'denied' },
    ]),
    step('https://shop.test/checkout', [{ name: 'done', args: { success: true, summary: 'ok' } }]),
  ];
  const targets = {
    c1_0: { role: 'searchbox', name: 'Item', nth: 0, of: 1 },
    c3_0: { role: 'button', name: 'Add to cart', near: 'Blue mug', nth: 0, of: 2 },
    c4_0: { role: 'textbox', name: 'Delivery date', nth: 0, of: 1 },
    c4_1: { role: 'textbox', name: 'Card number', origin: 'https://pay.test', nth: 0, of: 1 },
    c4_2: { role: 'textbox', name: 'Note', nth: 0, of: 1 },
  };
  return buildRoutine({ name: 'Mugs', task: 'Order a blue mug for 2026-12-01 with card {{redacted_card_1}}', startUrl: 'https://shop.test/', steps, targets, now: 1 });
}

describe('building a routine from a task', () => {
  it('keeps the steps that acted and worked, by identity, never by ref', () => {
    const routine = recorded();
    expect(routine.steps.map((s) => s.tool)).toEqual(['type', 'click', 'type', 'type', 'type']);
    expect(JSON.stringify(routine.steps)).not.toContain('"ref"');
    // The product the user asked for tells the look-alike buttons apart: it follows the parameter.
    expect(routine.steps[1]?.target).toMatchObject({ name: 'Add to cart', near: '{{item}}' });
    expect(fillSteps(routine.steps, { item: 'Red mug' })[1]?.target?.near).toBe('Red mug');
    expect(routine.steps[0]?.url).toBe('https://shop.test/');
  });

  it('turns the values the user gave into named parameters, and secrets into secret parameters', () => {
    const routine = recorded();
    expect(routine.params).toEqual([
      { name: 'item', kind: 'text', example: 'blue mug' },
      { name: 'delivery_date', kind: 'date', example: '2026-12-01' },
      { name: 'redacted_card_1', kind: 'secret' },
    ]);
    expect(routine.task).toBe('Order a {{item}} for {{delivery_date}} with card {{redacted_card_1}}');
    expect(routine.steps.map((s) => s.args.text)).toEqual(['{{item}}', undefined, '{{delivery_date}}', '{{redacted_card_1}}', 'Leave at the door']);
  });

  it('names kinds from values', () => {
    expect([kindOf('2026-01-02'), kindOf('3/4/26'), kindOf('12'), kindOf('-1.5'), kindOf('mug')]).toEqual(['date', 'date', 'number', 'number', 'text']);
  });

  it('refuses a task with nothing to replay', () => {
    expect(() => buildRoutine({ name: 'x', task: 't', startUrl: 'https://a.test/', steps: [step('https://a.test/', [{ name: 'done', args: {} }])], targets: {}, now: 0 })).toThrow(/nothing to save/);
  });
});

describe('parameters', () => {
  it('are checked: missing, unknown, bad dates and numbers get errors that say the fix', () => {
    const routine = recorded();
    expect(() => checkParams(routine, { item: 'mug', delivery_date: '2026-12-01' })).toThrow(/needs a value for redacted_card_1.*--param redacted_card_1=/);
    expect(() => checkParams(routine, { item: 'mug', delivery_date: '2026-02-30', redacted_card_1: '4111' })).toThrow(/YYYY-MM-DD/);
    expect(() => checkParams(routine, { itme: 'mug' })).toThrow(/no parameter "itme".*item, delivery_date, redacted_card_1/);
    const filled = checkParams(routine, { item: 'red cup', delivery_date: '2027-01-05', redacted_card_1: '4111 1111 1111 1111' });
    expect(filled.secrets).toEqual({ redacted_card_1: '4111 1111 1111 1111' });
    const steps = fillSteps(routine.steps, filled.values);
    expect(steps.map((s) => s.args.text)).toEqual(['red cup', undefined, '2027-01-05', '{{redacted_card_1}}', 'Leave at the door']);
    expect(fillTask(routine, filled.values)).toBe('Order a red cup for 2027-01-05 with card {{redacted_card_1}}');
  });

  it('a repaired step gets its parameters back', () => {
    const routine = recorded();
    const repaired = applyRepairs(routine, [{ step: 0, why: 'gone', replacement: { tool: 'type', args: { text: 'red cup' }, target: { role: 'searchbox', name: 'Search', nth: 0, of: 1 }, url: '', text: '' } }], { item: 'red cup' });
    expect(repaired.steps[0]).toMatchObject({ args: { text: '{{item}}' }, target: { name: 'Search' }, url: 'https://shop.test/' });
  });
});

describe('the routine file', () => {
  it('lists the sites first, holds no secret value, and shows an edited file as edited', async () => {
    const routine = recorded();
    const text = await exportRoutine(routine);
    expect(Object.keys(JSON.parse(text) as object).slice(0, 2)).toEqual(['sites', 'sha256']);
    expect(JSON.parse(text)).toMatchObject({ sites: ['https://shop.test'] });
    expect(text).not.toMatch(/4111/);
    expect(await importRoutine(text)).toMatchObject({ edited: false, note: null });
    const edited = text.replace('Leave at the door', 'Leave with the neighbour');
    expect(await importRoutine(edited)).toMatchObject({ edited: true });
    const unsigned = JSON.stringify({ ...(JSON.parse(text) as object), sha256: undefined });
    expect((await importRoutine(unsigned)).note).toMatch(/no hash/);
    // An edited file that sends a step elsewhere lists that site, whatever its own list says.
    const redirected = JSON.parse(text) as { steps: { tool: string; args: object; url: string }[] };
    redirected.steps.push({ ...redirected.steps[0]!, tool: 'navigate', args: { url: 'https://evil.test/x' } });
    expect((await importRoutine(JSON.stringify(redirected))).routine.sites).toContain('https://evil.test');
  });

  it('rejects what is not a routine with a message that says what to do', async () => {
    await expect(importRoutine('not json')).rejects.toThrow(/not JSON.*Export a routine/);
    await expect(importRoutine('{"format":"x"}')).rejects.toThrow(/cannot be used/);
  });
});
