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
    const validate = createValidator(createOpenAiChatProvider({ client: openAiClient(fake), model: 'gpt-4o-mini' }), { timeoutMs: 300, now: () => Date.now() });
    fake.enqueue({ text: 'I think it is OK.' }, { error: { status: 500, message: 'overloaded' } }, { hang: true });
    expect(await validate(request)).toMatchObject({ verdict: 'failed', reason: 'the validator model did not answer with a verdict' });
    expect((await validate(request)).verdict).toBe('failed');
    expect(await validate(request)).toMatchObject({ verdict: 'failed', reason: 'the validator model did not answer within 300 ms' });
  });
});
