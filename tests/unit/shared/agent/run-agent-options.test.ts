import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import type { Observation } from '../../../../shared/agent/environment';
import { createOpenAiChatProvider } from '../../../../shared/agent/providers/openai-chat-provider';
import { createAnthropicProvider } from '../../../../shared/agent/providers/anthropic-provider';
import { startAgent } from '../../../../shared/agent/run-agent';
import { call, harness } from './support/agent-harness';
import { createFakeWeb } from './support/fake-web';
import { anthropicClient, openAiClient, providerFor } from './support/provider-clients';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const PAGE = { url: 'https://shop.example/', title: 'Shop', elements: [{ ref: 1, role: 'link', name: 'Mugs' }] };
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The fake web, with a screenshot on every observation when asked for one. */
function webWithScreenshots(asked: boolean[]) {
  const web = createFakeWeb([PAGE], PAGE.url);
  const observe = web.observe.bind(web);
  web.observe = async (options): Promise<Observation> => {
    asked.push(options.screenshot);
    const observation = await observe(options);
    return options.screenshot ? { ...observation, screenshot: { mediaType: 'image/png', base64: PIXEL } } : observation;
  };
  return web;
}

describe('screenshots', () => {
  it('go to a vision model only when the task asks for them, in each wire format', async () => {
    const asked: boolean[] = [];
    const vision = [
      createOpenAiChatProvider({ client: openAiClient(fake), model: 'gpt-4o', vision: true }),
      createAnthropicProvider({ client: anthropicClient(fake), model: 'claude-haiku-4-5', vision: true }),
    ];
    for (const provider of vision) {
      fake.enqueue(call('done', { success: true, summary: 'seen' }));
      await startAgent(harness(webWithScreenshots(asked), provider, { screenshots: true }).deps, { taskId: 'v', task: 'Look.', startUrl: PAGE.url });
    }
    expect(asked).toEqual([true, true]);
    expect(fake.requests[0]?.text).toContain(`"url":"data:image/png;base64,${PIXEL}"`);
    expect(fake.requests[1]?.text).toContain(`"source":{"type":"base64","media_type":"image/png","data":"${PIXEL}"}`);
  });

  it('are sent to the model but never copied into the saved state', async () => {
    const asked: boolean[] = [];
    fake.enqueue(call('done', { success: true, summary: 'seen' }));
    const vision = createOpenAiChatProvider({ client: openAiClient(fake), model: 'gpt-4o', vision: true });
    const run = harness(webWithScreenshots(asked), vision, { screenshots: true });
    await startAgent(run.deps, { taskId: 's', task: 'Look.', startUrl: PAGE.url });
    expect(fake.requests[0]?.text).toContain(PIXEL);
    expect(run.saved.length).toBeGreaterThan(1);
    expect(run.saved.some((state) => JSON.stringify(state).includes(PIXEL))).toBe(false);
    expect(run.saved.at(-1)?.steps[0]?.observation.url).toBe(PAGE.url);
  });

  it('are not even taken for a model without vision, or when the task did not ask', async () => {
    const asked: boolean[] = [];
    fake.enqueue(call('done', { success: true, summary: 'a' }), call('done', { success: true, summary: 'b' }));
    await startAgent(harness(webWithScreenshots(asked), providerFor('openai-stream', fake), { screenshots: true }).deps, { taskId: 'n1', task: 'Look.', startUrl: PAGE.url });
    const visionModel = createOpenAiChatProvider({ client: openAiClient(fake), model: 'gpt-4o', vision: true });
    await startAgent(harness(webWithScreenshots(asked), visionModel).deps, { taskId: 'n2', task: 'Look.', startUrl: PAGE.url });
    expect(asked).toEqual([false, false]);
    expect(fake.requests.map((r) => r.text.includes('base64'))).toEqual([false, false]);
  });
});

describe('tabs', () => {
  it("lists the task's own tabs under the page when there is more than one, and only counts the user's others", async () => {
    const web = createFakeWeb([PAGE], PAGE.url);
    const observe = web.observe.bind(web);
    web.observe = async (options): Promise<Observation> => ({
      ...(await observe(options)),
      tabs: [
        { id: 11, title: 'Shop', url: PAGE.url, active: true },
        { id: 12, title: 'Docs', url: 'https://docs.example/', active: false },
      ],
      otherTabs: 3,
    });
    const h = harness(web, providerFor('openai-plain', fake));
    fake.enqueue(call('tabs', { action: 'switch', tabId: 12 }), call('done', { success: true, summary: 'ok' }));
    await startAgent(h.deps, { taskId: 'tabs', task: 'Open the docs tab.', startUrl: PAGE.url });
    expect(fake.requests[0]?.text).toContain(
      "The task's tabs (switch with the tabs tool):\\n- tab 11 (current): Shop — https://shop.example/\\n- tab 12: Docs — https://docs.example/\\n3 other tabs are open (not the task's; tabs list shows their titles).",
    );
    expect(web.actions).toEqual([{ kind: 'tab_switch', tabId: 12 }]);
  });
});

describe('ask_user', () => {
  it('pauses for the answer, marks the task as waiting, and gives the model the answer redacted', async () => {
    const web = createFakeWeb([PAGE], PAGE.url);
    const questions: string[] = [];
    const h = harness(web, providerFor('anthropic-stream', fake), {
      askUser: (question) => {
        questions.push(question);
        return Promise.resolve('Use my card 4111 1111 1111 1111, the blue one.');
      },
    });
    fake.enqueue(call('ask_user', { question: 'Which colour of mug?' }), call('done', { success: true, summary: 'ok' }));
    const state = await startAgent(h.deps, { taskId: 'q', task: 'Buy a mug.', startUrl: PAGE.url });
    expect(questions).toEqual(['Which colour of mug?']);
    expect(h.saved.some((s) => s.status === 'awaiting_user')).toBe(true);
    expect(state.steps[0]?.calls[0]?.result?.content).toBe('The user answered: Use my card {{redacted_card_1}}, the blue one.');
    expect(fake.requests[1]?.text).toContain('The user answered: Use my card {{redacted_card_1}}, the blue one.');
    expect(fake.requests[1]?.text).not.toContain('4111');
  });

  it('tells the model nobody can answer when the run has no one to ask', async () => {
    const web = createFakeWeb([PAGE], PAGE.url);
    const h = harness(web, providerFor('openai-plain', fake));
    fake.enqueue(call('ask_user', { question: 'Which colour?' }), call('done', { success: false, summary: 'Needed a colour.' }));
    const state = await startAgent(h.deps, { taskId: 'q2', task: 'Buy a mug.', startUrl: PAGE.url });
    expect(state.steps[0]?.calls[0]?.result?.content).toMatch(/^Nobody can answer questions during this task\. Decide with what you know/);
  });
});

describe('streamed text', () => {
  it('reaches the live view as it arrives', async () => {
    const web = createFakeWeb([PAGE], PAGE.url);
    const deltas: string[] = [];
    const h = harness(web, providerFor('openai-stream', fake), { onReplyText: (delta) => deltas.push(delta) });
    fake.enqueue({ text: 'Looking at the mugs now.', toolCalls: [{ name: 'done', arguments: { success: true, summary: 'ok' } }] });
    await startAgent(h.deps, { taskId: 'live', task: 'Look.', startUrl: PAGE.url });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Looking at the mugs now.');
  });
});
