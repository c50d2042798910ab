import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiChatProvider } from '../../../../shared/agent/providers/openai-chat-provider';
import { createValidator, parseVerdict } from '../../../../native-host/shell/command-validator';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import { openAiClient } from '../../shared/agent/support/provider-clients';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => fake.close());

const request = { objective: 'Restart the web server', target: 'deploy@web1:22', subject: 'run: sudo systemctl restart nginx', recent: '1. Ran "nginx -t" -> ok' };

describe('the validator model', () => {
  it('reads a verdict from its tool call, or from JSON in its text, and nothing else', () => {
    expect(parseVerdict({ text: '', toolCalls: [{ name: 'verdict', arguments: '{"approve":true,"reason":"Needed."}' }] })).toEqual({ approve: true, reason: 'Needed.' });
    expect(parseVerdict({ text: 'Sure: {"approve": false, "reason": "Deletes data."}', toolCalls: [] })).toEqual({ approve: false, reason: 'Deletes data.' });
    expect(parseVerdict({ text: 'Looks fine to me!', toolCalls: [] })).toBeUndefined();
    expect(parseVerdict({ text: '', toolCalls: [{ name: 'verdict', arguments: '{"approve":"yes"}' }] })).toBeUndefined();
  });

  it('is asked with the objective, the target, the recent steps and the command, and answers approve or reject', async () => {
    const validate = createValidator(createOpenAiChatProvider({ client: openAiClient(fake), model: 'gpt-4o-mini' }), { timeoutMs: 5000, now: () => Date.now() });
    fake.enqueue({ toolCalls: [{ name: 'verdict', arguments: { approve: false, reason: 'Restarting is fine but sudo was not asked for.' } }] });
    const verdict = await validate(request);
    expect(verdict).toMatchObject({ verdict: 'reject', reason: 'Restarting is fine but sudo was not asked for.' });
    const sent = fake.requests[0]?.text ?? '';
    for (const part of ['Objective: Restart the web server', 'Target: deploy@web1:22', '1. Ran \\"nginx -t\\" -> ok', 'Proposed: run: sudo systemctl restart nginx', '"name":"verdict"']) expect(sent).toContain(part);
  });

  it('fails closed on a malformed answer, an error, and a model that does not answer in time', async () => {
    // Answers that arrive get a limit no busy machine reaches; only the model that never answers meets the short one.
    const provider = createOpenAiChatProvider({ client: openAiClient(fake), model: 'gpt-4o-mini' });
    const validate = createValidator(provider, { timeoutMs: 60_000, now: () => Date.now() });
    fake.enqueue({ text: 'I think it is OK.' }, { error: { status: 500, message: 'overloaded' } }, { hang: true });
    expect(await validate(request)).toMatchObject({ verdict: 'failed', reason: 'the validator model did not answer with a verdict' });
    expect((await validate(request)).verdict).toBe('failed');
    const impatient = createValidator(provider, { timeoutMs: 300, now: () => Date.now() });
    expect(await impatient(request)).toMatchObject({ verdict: 'failed', reason: 'the validator model did not answer within 300 ms' });
  });
});

describe('a task that runs many commands', () => {
  // Cause: the OpenAI SDK adds a listener to the signal of each request and never removes it; the task's signal is
  // passed to every model request (the task's own and the validator's), so the eleventh request warned.
  it('leaves no listener on the task signal per command, so Node prints no MaxListenersExceededWarning', async () => {
    const { EventEmitter } = await import('node:events');
    const getEventListeners = (target: EventTarget, name: string): unknown[] => (EventEmitter as unknown as { getEventListeners(t: EventTarget, n: string): unknown[] }).getEventListeners(target, name);
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const provider = createOpenAiChatProvider({ client: openAiClient(fake), model: 'gpt-4o-mini' });
      const validate = createValidator(provider, { timeoutMs: 5000, now: () => Date.now() });
      const task = new AbortController();
      for (let i = 0; i < 15; i += 1) {
        // One command: the task's model asks for it, the validator approves it.
        fake.enqueue({ text: `run command ${i}` }, { toolCalls: [{ name: 'verdict', arguments: { approve: true, reason: `Command ${i} is needed.` } }] });
        expect((await provider.complete({ system: 'shell task', messages: [{ role: 'user', content: 'next' }], tools: [] }, { signal: task.signal })).text).toBe(`run command ${i}`);
        expect((await validate(request, task.signal)).verdict).toBe('approve');
        expect(getEventListeners(task.signal, 'abort')).toHaveLength(0);
      }
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((text) => text.includes('MaxListeners'))).toEqual([]);
      // Stopping the task still stops a question under way.
      fake.enqueue({ hang: true });
      const asked = validate(request, task.signal);
      setTimeout(() => task.abort(), 50);
      await expect(asked).rejects.toThrow();
    } finally {
      process.off('warning', onWarning);
    }
  });
});
