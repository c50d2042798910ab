import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import { startAgent } from '../../../../shared/agent/run-agent';
import { withRetries } from '../../../../shared/agent/providers/retrying-provider';
import { call, harness } from './support/agent-harness';
import { type FakePage, createFakeWeb } from './support/fake-web';
import { type Flavour, providerFor } from './support/provider-clients';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const FORM: FakePage[] = [
  {
    url: 'https://shop.example/contact',
    title: 'Contact us',
    elements: [
      { ref: 1, role: 'textbox', name: 'Name' },
      { ref: 2, role: 'textbox', name: 'Email', inputType: 'email' },
      { ref: 3, role: 'button', name: 'Submit', to: 'https://shop.example/thanks' },
    ],
  },
  { url: 'https://shop.example/thanks', title: 'Thank you', elements: [{ ref: 1, role: 'link', name: 'Home' }], body: 'We received your request.' },
];

const PLAN = { explanation: 'Fill the form and submit it.', steps: [{ step: 'Fill name and email', status: 'in_progress' }, { step: 'Submit', status: 'pending' }] };

describe.each<Flavour>(['openai-stream', 'anthropic-stream', 'openai-plain', 'anthropic-plain', 'responses-stream'])('a multi-step form task over %s', (flavour) => {
  it('plans, fills the form by reference, submits, verifies and finishes', async () => {
    const web = createFakeWeb(FORM, 'https://shop.example/contact');
    const provider = providerFor(flavour, fake, flavour.startsWith('anthropic') ? 'claude-haiku-4-5' : 'gpt-4o-mini');
    const h = harness(web, provider);
    fake.enqueue(
      { text: 'I will plan first.', ...call('update_plan', PLAN) },
      call('type', { ref: 1, text: 'Ada Lovelace' }),
      call('type', { ref: 2, text: 'ada@example.org' }),
      call('click', { ref: 3 }),
      call('done', { success: true, summary: 'Sent the contact form.' }),
    );
    const state = await startAgent(h.deps, { taskId: 't1', task: 'Fill the contact form as Ada Lovelace, ada@example.org', startUrl: 'https://shop.example/contact' });

    expect(state.status).toBe('completed');
    expect(state.outcome).toEqual({ success: true, summary: 'Sent the contact form.' });
    expect(web.actions).toEqual([
      { kind: 'type', ref: 1, text: 'Ada Lovelace', clear: true, submit: false },
      { kind: 'type', ref: 2, text: 'ada@example.org', clear: true, submit: false },
      { kind: 'click', ref: 3, double: false },
    ]);
    expect(web.url()).toBe('https://shop.example/thanks');
    expect(state.steps.flatMap((s) => s.calls.map((c) => c.stepText))).toEqual([
      'Updated the plan (0/2 done)',
      'Typed "Ada Lovelace" into [1] textbox "Name"',
      'Typed "ada@example.org" into [2] textbox "Email"',
      'Clicked [3] button "Submit"',
      'Finished the task',
    ]);
    expect(state.plan?.steps[0]?.step).toBe('Fill name and email');
    expect(h.approvals).toEqual([]);
    // Five turns at the fake's default usage of 100 in / 20 out, priced from the table.
    expect(state.usage.inputTokens).toBe(500);
    expect(state.usage.outputTokens).toBe(100);
    expect(state.usage.costUsd).toBeGreaterThan(0);
    expect(fake.remaining()).toBe(0);

    // The turn after the click carries its verification, the plan and the new page, wrapped as untrusted.
    const fifth = fake.requests[4]?.text ?? '';
    expect(fifth).toContain('Last step (verification)');
    expect(fifth).toContain('Clicked [3] button \\"Submit\\": succeeded. Opened https://shop.example/thanks');
    expect(fifth).toContain('[>] 1. Fill name and email');
    expect(fifth).toContain('<untrusted_page url=\\"https://shop.example/thanks\\" title=\\"Thank you\\">');

    const kinds = new Set(h.trace.map((r) => r.type));
    expect([...kinds].sort()).toEqual(['end', 'observation', 'prompt', 'reply', 'task', 'tool']);
    const end = h.trace.at(-1);
    expect(end).toMatchObject({ type: 'end', status: 'completed', steps: 5, inputTokens: 500 });
    expect(h.saved.at(-1)?.status).toBe('completed');
  });
});

describe('several tool calls in one reply', () => {
  it('fills fields in a row, but does not run calls after one that changed the page', async () => {
    const web = createFakeWeb(FORM, 'https://shop.example/contact');
    const h = harness(web, providerFor('anthropic-stream', fake));
    fake.enqueue(
      {
        toolCalls: [
          { name: 'type', arguments: { ref: 1, text: 'Ada' } },
          { name: 'type', arguments: { ref: 2, text: 'ada@example.org' } },
          { name: 'click', arguments: { ref: 3 } },
          { name: 'click', arguments: { ref: 1 } },
        ],
      },
      call('done', { success: true, summary: 'Sent.' }),
    );
    const state = await startAgent(h.deps, { taskId: 'batch', task: 'Send the form as Ada.', startUrl: 'https://shop.example/contact' });
    expect(state.status).toBe('completed');
    expect(web.actions.map((a) => a.kind)).toEqual(['type', 'type', 'click']);
    const last = state.steps[0]?.calls[3];
    expect(last?.status).toBe('skipped');
    expect(last?.result?.content).toMatch(/^Not run: an earlier action in the same reply may have changed the page/);
    // Anthropic needs a result for every tool_use block, skipped ones included.
    const next = fake.requests[1]?.json as { messages: { role: string; content: { type: string }[] | string }[] };
    const results = next.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : []));
    expect(results).toHaveLength(4);
  });
});

describe('tool call ids', () => {
  it('stay unique across the conversation when a server numbers them from zero in every reply', async () => {
    const web = createFakeWeb(FORM, 'https://shop.example/contact');
    const h = harness(web, providerFor('anthropic-plain', fake));
    fake.enqueue(
      { toolCalls: [{ id: 'call_0', name: 'type', arguments: { ref: 1, text: 'Ada' } }] },
      { toolCalls: [{ id: 'call_0', name: 'type', arguments: { ref: 2, text: 'ada@example.org' } }] },
      { toolCalls: [{ id: 'call_0', name: 'done', arguments: { success: true, summary: 'Filled.' } }] },
    );
    const state = await startAgent(h.deps, { taskId: 'ids', task: 'Fill the form as Ada.', startUrl: 'https://shop.example/contact' });
    expect(state.status).toBe('completed');
    const ids = state.steps.flatMap((s) => s.calls.map((c) => c.id));
    expect(new Set(ids).size).toBe(3);
    const last = fake.requests[2]?.json as { messages: { content: { type: string; id?: string; tool_use_id?: string }[] | string }[] };
    const blocks = last.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
    const results = blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
    expect(uses).toEqual(results);
    expect(new Set(uses).size).toBe(2);
  });

  it('refuses safety settings it cannot read, saying which', async () => {
    const web = createFakeWeb(FORM, 'https://shop.example/contact');
    const h = harness(web, providerFor('openai-plain', fake), { policy: { mode: 'yolo' as 'act' } });
    await expect(startAgent(h.deps, { taskId: 'bad', task: 'x', startUrl: 'https://shop.example/contact' })).rejects.toThrow(/^The task's safety settings are invalid: mode: /);
  });
});

describe('bad tool calls from the model', () => {
  it('returns invalid arguments, broken JSON and unknown tools to the model as tool results, and goes on', async () => {
    const web = createFakeWeb(FORM, 'https://shop.example/contact');
    const h = harness(web, providerFor('openai-stream', fake));
    fake.enqueue(
      call('click', { ref: 'three' }),
      { toolCalls: [{ name: 'type', arguments: '{"ref": 1, "text": ' }] },
      call('teleport', { to: 'moon' }),
      call('click', { ref: 3 }),
      call('done', { success: true, summary: 'Submitted.' }),
    );
    const state = await startAgent(h.deps, { taskId: 't2', task: 'Submit the form', startUrl: 'https://shop.example/contact' });
    expect(state.status).toBe('completed');
    expect(web.actions).toEqual([{ kind: 'click', ref: 3, double: false }]);
    const results = state.steps.flatMap((s) => s.calls.map((c) => c.result?.content ?? ''));
    expect(results[0]).toMatch(/^Invalid arguments for click: ref: .*number.*Fix them and call the tool again\.$/);
    expect(results[1]).toBe("The arguments for type are not valid JSON. Send one JSON object that matches the tool's schema.");
    expect(results[2]).toMatch(/^There is no tool named "teleport"\. Use one of: click, type, select/);
    // The model read each of those on its next turn, as an error result paired with its call.
    const second = fake.requests[1]?.json as { messages: { role: string; content: string }[] };
    const toolMessage = second.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toMatch(/^Error: Invalid arguments for click/);
  });
});

describe('provider failures', () => {
  it('recovers from 429, 500 and 529 by backing off, then finishes', async () => {
    const web = createFakeWeb(FORM, 'https://shop.example/contact');
    const retries: number[] = [];
    const provider = withRetries(providerFor('anthropic-stream', fake), { baseDelayMs: 1, maxDelayMs: 5, onRetry: (info) => retries.push(info.attempt) });
    const h = harness(web, provider);
    fake.enqueue(
      { error: { status: 429, message: 'rate limited', headers: { 'retry-after-ms': '1' } } },
      { error: { status: 529, message: 'Overloaded' } },
      call('click', { ref: 3 }),
      { error: { status: 500, message: 'internal' } },
      call('done', { success: true, summary: 'Submitted.' }),
    );
    const state = await startAgent(h.deps, { taskId: 't3', task: 'Submit the form', startUrl: 'https://shop.example/contact' });
    expect(state.status).toBe('completed');
    expect(retries).toEqual([1, 2, 1]);
    expect(fake.requests).toHaveLength(5);
    expect(web.actions).toHaveLength(1);
  });

  it('fails at once on a 401 with a message that says to check the key, without retrying', async () => {
    const web = createFakeWeb(FORM, 'https://shop.example/contact');
    const h = harness(web, withRetries(providerFor('openai-stream', fake), { baseDelayMs: 1 }));
    fake.enqueue({ error: { status: 401, message: 'Incorrect API key provided: sk-test-****' } });
    const state = await startAgent(h.deps, { taskId: 't4', task: 'Submit the form', startUrl: 'https://shop.example/contact' });
    expect(state.status).toBe('failed');
    expect(state.endReason).toMatch(/rejected the API key \(401\)\. Check the key in Settings/);
    expect(fake.requests).toHaveLength(1);
    expect(web.actions).toEqual([]);
    expect(h.trace.find((r) => r.type === 'error')).toMatchObject({ code: 'auth_failed' });
  });

  it('gives up on a server that keeps failing, saying how many attempts were made', async () => {
    const web = createFakeWeb(FORM, 'https://shop.example/contact');
    const h = harness(web, withRetries(providerFor('openai-plain', fake), { baseDelayMs: 1, maxDelayMs: 2, maxRetries: 2 }));
    fake.enqueue({ error: { status: 503, message: 'down' } }, { error: { status: 503, message: 'down' } }, { error: { status: 503, message: 'down' } });
    const state = await startAgent(h.deps, { taskId: 't5', task: 'Submit the form', startUrl: 'https://shop.example/contact' });
    expect(state.status).toBe('failed');
    expect(state.endReason).toMatch(/failed with 503.*Gave up after 3 attempts/);
  });
});
