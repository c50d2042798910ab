import { afterEach, describe, expect, it } from 'vitest';
import { startModelRecorder, type ModelRecorder } from '../../../../scripts/bench/model-recorder';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import { FLAVOURS, providerFor } from '../../shared/agent/support/provider-clients';

let fake: FakeProvider | undefined;
let recorders: ModelRecorder[] = [];
afterEach(async () => {
  for (const recorder of recorders.splice(0)) await recorder.close();
  await fake?.close();
  fake = undefined;
});

const SECRET = '4111 1111 1111 1111';

describe('bench:safety --provider: the recorder between Deputy and the provider keeps what reached the model', () => {
  it.each(FLAVOURS)('%s: the request reaches the provider byte for byte, its reply comes back, and the recorder holds the request', async (flavour) => {
    fake = await startFakeProvider();
    // One recorder in front of each base URL the SDKs use (the OpenAI one has a path, /v1, the Anthropic one none).
    const openai = await startModelRecorder(fake.openaiBaseUrl);
    const anthropic = await startModelRecorder(fake.anthropicBaseUrl);
    recorders = [openai, anthropic];
    fake.enqueue({ text: 'Noted.', toolCalls: [{ name: 'done', arguments: { success: true, summary: 'ok' } }] });
    const through = { ...fake, openaiBaseUrl: openai.baseUrl, anthropicBaseUrl: anthropic.baseUrl };
    const reply = await providerFor(flavour, through).complete({ system: 'You are Deputy.', messages: [{ role: 'user', content: `The page says my card is ${SECRET}.` }], tools: [] });

    expect(reply.text).toBe('Noted.');
    expect(reply.toolCalls.map((c) => c.name)).toEqual(['done']);
    const kept = [...openai.requests, ...anthropic.requests];
    expect(kept).toHaveLength(1);
    expect(kept[0]?.text).toContain(SECRET);
    expect(kept[0]?.bytes.equals(fake.requests[0]?.bytes ?? Buffer.alloc(0))).toBe(true);
    expect(kept[0]?.path).toBe(fake.requests[0]?.path);
  });

  it('says which provider it could not reach, as the provider\'s error', async () => {
    const recorder = await startModelRecorder('http://127.0.0.1:9/v1');
    recorders = [recorder];
    const response = await fetch(`${recorder.baseUrl}/chat/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(502);
    expect(await response.text()).toContain('could not reach http://127.0.0.1:9');
    expect(recorder.requests.map((r) => r.path)).toEqual(['/v1/chat/completions']);
  });
});
