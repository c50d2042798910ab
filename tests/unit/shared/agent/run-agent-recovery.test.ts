import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import { withJsonToolFallback } from '../../../../shared/agent/providers/json-tool-fallback';
import { startAgent } from '../../../../shared/agent/run-agent';
import { call, harness } from './support/agent-harness';
import { type FakePage, createFakeWeb } from './support/fake-web';
import { providerFor } from './support/provider-clients';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const PAGES: FakePage[] = [
  { url: 'https://shop.example/a', title: 'Plans', elements: [{ ref: 1, role: 'link', name: 'Compare', to: 'https://shop.example/b' }], body: 'Basic 5 EUR. Pro 9 EUR.' },
  { url: 'https://shop.example/b', title: 'Compare', elements: [{ ref: 1, role: 'link', name: 'Plans', to: 'https://shop.example/a' }], body: 'A long comparison table.' },
  { url: 'https://shop.example/c', title: 'Checkout', elements: [{ ref: 1, role: 'button', name: 'Continue' }], body: 'Your basket.' },
];

describe('recovery from stuck models', () => {
  it('warns, then stops a model that oscillates between two pages, with a clear reason', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/a');
    const h = harness(web, providerFor('openai-stream', fake));
    for (let i = 0; i < 10; i += 1) fake.enqueue(call('click', { ref: 1 }));
    const state = await startAgent(h.deps, { taskId: 'osc', task: 'Find the cheapest plan.', startUrl: 'https://shop.example/a' });
    expect(state.status).toBe('failed');
    expect(state.endReason).toBe('Stopped: the task went back and forth between https://shop.example/a and https://shop.example/b 6 times without progress.');
    // The model was told plainly before the stop.
    const warned = fake.requests.map((r) => r.text).filter((t) => t.includes('You are going back and forth between'));
    expect(warned.length).toBeGreaterThan(0);
    expect(web.actions).toHaveLength(5);
    expect(h.trace.some((r) => r.type === 'notice')).toBe(true);
  });

  it('tells the model when it called no tool, and stops after three such replies', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/a');
    const h = harness(web, providerFor('anthropic-stream', fake));
    fake.enqueue({ text: 'Let me think.' }, { text: 'Still thinking.' }, { text: '' });
    const state = await startAgent(h.deps, { taskId: 'empty', task: 'Find the cheapest plan.', startUrl: 'https://shop.example/a' });
    expect(state.status).toBe('failed');
    expect(state.endReason).toBe('Stopped: the model replied 3 times in a row without calling a tool.');
    expect(fake.requests[1]?.text).toContain('Your last reply did not call any tool. Every reply must call a tool');
  });

  it('stops when the page no longer changes, and says so', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/c');
    const h = harness(web, providerFor('openai-plain', fake), { limits: { recovery: { repeatStop: 50, stagnationStop: 4 } } });
    for (let i = 0; i < 6; i += 1) fake.enqueue(call('click', { ref: 1 }));
    const state = await startAgent(h.deps, { taskId: 'stuck', task: 'Check out.', startUrl: 'https://shop.example/c' });
    expect(state.endReason).toBe('Stopped: the page did not change for 4 steps in a row.');
    expect(fake.requests.some((r) => r.text.includes('The page has not changed for 3 steps.'))).toBe(true);
  });

  it('ends when the step budget runs out', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/a');
    const h = harness(web, providerFor('openai-plain', fake), { limits: { maxSteps: 2 } });
    fake.enqueue(call('find', { text: 'Basic' }), call('find', { text: 'Pro' }));
    const state = await startAgent(h.deps, { taskId: 'budget', task: 'Find the cheapest plan.', startUrl: 'https://shop.example/a' });
    expect(state.status).toBe('failed');
    expect(state.endReason).toBe('Stopped: the step budget of 2 steps ran out before the task was done.');
    expect(fake.requests).toHaveLength(2);
  });

  it('ends when the time budget runs out', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/a');
    let now = 0;
    const h = harness(web, providerFor('openai-plain', fake), { now: () => (now += 40_000), limits: { maxDurationMs: 120_000 } });
    fake.enqueue(call('find', { text: 'Basic' }), call('find', { text: 'Pro' }), call('find', { text: 'Team' }));
    const state = await startAgent(h.deps, { taskId: 'time', task: 'Find the cheapest plan.', startUrl: 'https://shop.example/a' });
    expect(state.endReason).toBe('Stopped: the time budget of 2 minutes ran out before the task was done.');
  });
});

describe('the time budget', () => {
  it('does not count the hours a task waited for the user to approve', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/c');
    let now = 0;
    const h = harness(web, providerFor('openai-plain', fake), {
      now: () => (now += 1000),
      limits: { maxDurationMs: 60_000 },
      approve: () => {
        now += 2 * 60 * 60_000;
        return { approved: true };
      },
    });
    fake.enqueue(call('navigate', { url: 'https://partner.example/' }), call('done', { success: true, summary: 'Opened the partner site.' }));
    const state = await startAgent(h.deps, { taskId: 'wait', task: 'Open the partner site.', startUrl: 'https://shop.example/c' });
    expect(h.approvals).toHaveLength(1);
    expect(state.status).toBe('completed');
    expect(state.waitedMs).toBeGreaterThanOrEqual(2 * 60 * 60_000);
  });
});

describe('context discipline', () => {
  it('masks old observations to one line in fixed blocks, keeps every action and result, and never rewrites an earlier turn', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/a');
    const h = harness(web, providerFor('openai-stream', fake), { limits: { keepObservations: 2, recovery: { oscillationStop: 99, oscillationWarn: 99 } } });
    for (let i = 0; i < 6; i += 1) fake.enqueue(call('click', { ref: 1 }));
    fake.enqueue(call('done', { success: true, summary: 'Basic is cheapest at 5 EUR.' }));
    const state = await startAgent(h.deps, { taskId: 'mask', task: 'Find the cheapest plan.', startUrl: 'https://shop.example/a' });
    expect(state.status).toBe('completed');

    type Body = { messages: { role: string; content: string | null }[] };
    const bodies = fake.requests.map((r) => r.json as Body);
    // Until the block boundary at step 6, each request repeats the one before it byte for byte (its last message, the
    // current turn's verification and plan, aside), so a provider's prompt cache serves all of it.
    for (let i = 1; i < 6; i += 1) {
      const before = bodies[i - 1]!.messages.slice(0, -1);
      expect(JSON.stringify(bodies[i]!.messages.slice(0, before.length))).toBe(JSON.stringify(before));
    }
    // At step 7 the first block of five observations is masked in one go: the sixth and the current stay verbatim.
    const contents = bodies[6]!.messages.map((m) => m.content ?? '');
    expect(contents.filter((c) => c.includes('<untrusted_page url='))).toHaveLength(2);
    expect(contents.filter((c) => /^\[Step \d page omitted: ".*" https:\/\/shop\.example\/[ab]\]$/.test(c))).toHaveLength(5);
    expect(contents).toContain('[Step 1 page omitted: "Plans" https://shop.example/a]');
    // No text of a masked page survives anywhere in the prompt: only the two newest pages show their body.
    expect(fake.requests[6]?.text.split('Basic 5 EUR').length).toBe(1 + 1);
    // Every one of the six clicks and its result is still there.
    expect(bodies[6]!.messages.filter((m) => m.role === 'tool')).toHaveLength(6);
    expect(bodies[6]!.messages.filter((m) => m.role === 'assistant')).toHaveLength(6);
    // The saved state drops masked text too, so storage does not grow with every page.
    expect(state.steps.map((s) => s.observation.text === null)).toEqual([true, true, true, true, true, false, false]);
  });

  it('does not repeat a page that did not change since the step before', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/a');
    const h = harness(web, providerFor('openai-plain', fake));
    const plan = { explanation: 'Compare.', steps: [{ step: 'Read the prices', status: 'in_progress' }] };
    fake.enqueue(call('update_plan', plan), call('find', { text: 'EUR' }), call('done', { success: true, summary: 'Basic.' }));
    await startAgent(h.deps, { taskId: 'same', task: 'Find the cheapest plan.', startUrl: 'https://shop.example/a' });
    const third = fake.requests[2]?.json as { messages: { role: string; content: string | null }[] };
    const contents = third.messages.map((m) => m.content ?? '');
    expect(contents).toContain('[Step 2 page: unchanged since step 1]');
    // The current page is the same too: it points at the one copy in full, which stays in the prompt.
    expect(contents).toContain('[Step 3 page: unchanged since step 2]');
    expect(contents.filter((c) => c.includes('<untrusted_page url='))).toHaveLength(1);
  });

  it('cuts the current page to fit the prompt budget and says how to see the rest', async () => {
    const big: FakePage = { url: 'https://shop.example/a', title: 'Huge', elements: [], body: 'row of a big table\n'.repeat(2000) };
    const web = createFakeWeb([big], big.url);
    const h = harness(web, providerFor('openai-plain', fake), { limits: { maxPromptChars: 20_000 } });
    fake.enqueue(call('done', { success: true, summary: 'ok' }));
    await startAgent(h.deps, { taskId: 'cut', task: 'Read it.', startUrl: big.url });
    const body = fake.requests[0]?.text ?? '';
    expect(body).toContain('the rest of the page was cut to fit the prompt budget');
    expect(h.trace.find((r) => r.type === 'prompt')).toMatchObject({ trimmed: true });
    const chars = (h.trace.find((r) => r.type === 'prompt') as { chars: number }).chars;
    expect(chars).toBeLessThanOrEqual(20_000);
  });
});

describe('a model without tool calling', () => {
  it('runs the task through the JSON fallback: tools described in the prompt, calls read from the reply text', async () => {
    const web = createFakeWeb(PAGES, 'https://shop.example/a');
    const h = harness(web, withJsonToolFallback(providerFor('openai-stream', fake, 'llama3.2')));
    fake.enqueue(
      { text: 'Opening the comparison.\n```json\n{"tool": "click", "arguments": {"ref": 1}}\n```' },
      { text: 'I am not sure what to do.' },
      { text: '{"tool": "done", "arguments": {"success": true, "summary": "Basic at 5 EUR is cheapest."}}' },
    );
    const state = await startAgent(h.deps, { taskId: 'json', task: 'Find the cheapest plan.', startUrl: 'https://shop.example/a' });
    expect(state.status).toBe('completed');
    expect(web.actions).toEqual([{ kind: 'click', ref: 1, double: false }]);
    const first = fake.requests[0]?.json as { tools?: unknown; messages: { role: string; content: string }[] };
    expect(first.tools).toBeUndefined();
    expect(first.messages[0]?.content).toContain('Reply with exactly one JSON object and nothing else: {"tool": "<tool name>", "arguments": { ... }}.');
    expect(first.messages[0]?.content).toContain('- click: Click an element.');
    // The earlier call and its result come back as plain text, and the missing call is pointed out.
    const third = fake.requests[2]?.json as { messages: { role: string; content: string }[] };
    expect(third.messages.some((m) => m.role === 'assistant' && m.content.includes('{"tool": "click", "arguments": {"ref":1}}'))).toBe(true);
    expect(third.messages.some((m) => m.role === 'user' && m.content.startsWith('Result of click: Opened https://shop.example/b'))).toBe(true);
    expect(third.messages.at(-1)?.content).toContain('Your last reply did not call any tool.');
    // Unknown local models have no price: cost is unknown, not zero.
    expect(state.usage.costUsd).toBeNull();
  });
});
