import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import { controlTools } from '../../../../shared/agent/control-tools';
import type { GateVerdict } from '../../../../shared/agent/policy-gate';
import { resumeAgent, startAgent } from '../../../../shared/agent/run-agent';
import { defineTool, type AnyTool } from '../../../../shared/agent/tool';
import type { ToolGateInput } from '../../../../shared/agent/tool-gate';
import { historyChars, stepsToSummarize } from '../../../../shared/agent/working-memory';
import type { WebEnvironment } from '../../../../shared/agent/web-environment';
import { call, harness } from './support/agent-harness';
import { createFakeWeb } from './support/fake-web';
import { providerFor } from './support/provider-clients';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const PAGE = { url: 'https://shop.example/', title: 'Shop', elements: [{ ref: 1, role: 'link', name: 'Mugs' }] };

/** A tool that acts outside the page: it records what it ran and answers with a long text. */
function echoTool(ran: string[], resultChars = 10): AnyTool<WebEnvironment> {
  return defineTool({
    name: 'echo',
    description: 'Echo a word.',
    input: z.object({ word: z.string() }),
    risk: 'act',
    changesPage: false,
    describe: (args) => `Echoed ${args.word}`,
    handler: (args) => {
      ran.push(args.word);
      return Promise.resolve({ ok: true, content: `${args.word}:${'x'.repeat(resultChars)}` });
    },
  });
}

const verdict = (decision: GateVerdict['decision'], reason: string, extra: Partial<GateVerdict> = {}): GateVerdict => ({
  classes: ['act'],
  reasons: [],
  personalData: false,
  leavesApprovedSites: false,
  mustAsk: [],
  consequence: '',
  siteApproval: null,
  decision,
  reason,
  ...extra,
});

describe('an environment\'s own gate', () => {
  it('decides the calls it knows (deny, ask with an always-allow offer, allow) and leaves the rest to the shared gate', async () => {
    const ran: string[] = [];
    const seen: ToolGateInput[] = [];
    const web = createFakeWeb([PAGE], PAGE.url);
    const h = harness(web, providerFor('openai-stream', fake), {
      tools: [echoTool(ran), ...controlTools<WebEnvironment>()],
      policy: { mode: 'ask' },
      approve: (request) => ({ approved: true, ...(request.alwaysAllowPrefix ? { alwaysAllowPrefix: request.alwaysAllowPrefix } : {}) }),
      gate: (input) => {
        seen.push(input);
        if (input.tool.name !== 'echo') return Promise.resolve(undefined);
        const word = String(input.args.word);
        if (word === 'forbidden') return Promise.resolve(verdict('deny', 'Not allowed: the validator said no.'));
        if (word === 'asked') return Promise.resolve(verdict('ask', 'Approve this command?', { offerAlwaysAllow: 'asked' }));
        return Promise.resolve(verdict('allow', 'Allowed by a rule.'));
      },
    });
    fake.enqueue(
      call('echo', { word: 'forbidden' }),
      call('echo', { word: 'asked' }),
      call('echo', { word: 'free' }),
      call('done', { success: true, summary: 'Echoed.' }),
    );
    const state = await startAgent(h.deps, { taskId: 'g', task: 'Echo things.', startUrl: PAGE.url });
    expect(state.status).toBe('completed');
    expect(ran).toEqual(['asked', 'free']);
    // The refusal reached the model with the gate's reason; the ask went to the user with the offer.
    expect(fake.requests[1]?.text).toContain('Blocked by Deputy\'s safety policy: Not allowed: the validator said no.');
    expect(h.approvals.map((a) => [a.tool, a.reason, a.alwaysAllowPrefix])).toEqual([['echo', 'Approve this command?', 'asked']]);
    // done is not the gate's: the shared gate decided it (it is a read, so no approval even in ask mode).
    expect(seen.map((s) => s.tool.name)).toEqual(['echo', 'echo', 'echo', 'done']);
    expect(state.steps[0]?.calls[0]).toMatchObject({ status: 'denied', decision: 'deny' });
  });
});

describe('the working memory', () => {
  it('summarizes older steps past the threshold, keeps the latest verbatim, and tells the model how to recall them', async () => {
    const ran: string[] = [];
    const web = createFakeWeb([PAGE], PAGE.url);
    const h = harness(web, providerFor('openai-stream', fake), {
      tools: [echoTool(ran, 400), ...controlTools<WebEnvironment>()],
      memory: { thresholdChars: 1500, keepSteps: 2, recallHint: 'search_history finds them' },
      limits: { recovery: { repeatWarn: 99, repeatStop: 99, stagnationWarn: 99, stagnationStop: 99 } },
    });
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    fake.enqueue(...words.slice(0, 4).map((word) => call('echo', { word })));
    // Step 5: the history (4 results of ~410 characters) passed 1500, so the summarizer is asked before the turn.
    fake.enqueue({ text: 'Echoed alpha and bravo; the marker word was ALPHA-1.' });
    fake.enqueue(...words.slice(4).map((word) => call('echo', { word })));
    // Step 7: charlie to foxtrot passed it again; the new summary is written from the old one and the next steps.
    fake.enqueue({ text: 'ALPHA-1 seen; charlie and delta echoed.' }, call('done', { success: true, summary: 'All echoed.' }));
    const state = await startAgent(h.deps, { taskId: 'm', task: 'Echo six words.', startUrl: PAGE.url });

    expect(state.status).toBe('completed');
    expect(ran).toEqual(words);
    const summarizer = fake.requests[4];
    expect(summarizer?.text).toContain('You keep the working memory');
    expect(summarizer?.text).toContain('alpha:xxx');
    expect((summarizer?.json as { tools?: unknown }).tools).toBeUndefined();
    const next = fake.requests[5]?.text ?? '';
    expect(next).toContain('Working memory: a summary of steps 1-2, which are no longer shown one by one (search_history finds them)');
    expect(next).toContain('ALPHA-1');
    expect(next).not.toContain('alpha:xxx');
    expect(next).toContain('charlie:xxx');
    const second = fake.requests[7]?.text ?? '';
    expect(second).toContain('Summary so far:\\nEchoed alpha and bravo; the marker word was ALPHA-1.');
    expect(second).toContain('delta:xxx');
    expect(second).not.toContain('echo:xxx');
    expect(state.memory?.summary).toBe('ALPHA-1 seen; charlie and delta echoed.');
    expect(h.trace.filter((r) => r.type === 'memory').map((r) => r.type === 'memory' && [r.throughStep, r.by])).toEqual([
      [1, 'model'],
      [3, 'model'],
    ]);
    // The summary's tokens count like any turn.
    expect(state.usage.inputTokens).toBe(100 * fake.requests.length);
    // The steps themselves are still in the saved state.
    expect(state.steps).toHaveLength(7);
  });

  it('lists the steps itself when the summarizer fails, and survives a resume', async () => {
    const ran: string[] = [];
    const web = createFakeWeb([PAGE], PAGE.url);
    const h = harness(web, providerFor('openai-plain', fake), {
      tools: [echoTool(ran, 400), ...controlTools<WebEnvironment>()],
      memory: { thresholdChars: 1000, keepSteps: 1 },
      limits: { recovery: { repeatWarn: 99, repeatStop: 99, stagnationWarn: 99, stagnationStop: 99 } },
    });
    fake.enqueue(call('echo', { word: 'one' }), call('echo', { word: 'two' }), call('echo', { word: 'three' }));
    fake.enqueue({ error: { status: 400, message: 'context too long' } });
    fake.enqueue(call('done', { success: true, summary: 'ok' }));
    const state = await startAgent(h.deps, { taskId: 'l', task: 'Echo.', startUrl: PAGE.url });
    expect(state.status).toBe('completed');
    expect(state.memory?.by).toBe('list');
    expect(state.memory?.summary).toMatch(/^Step 1: Echoed one \(ok\): one:x+\nStep 2: Echoed two \(ok\)/);
    const resumed = await resumeAgent(h.deps, JSON.parse(JSON.stringify(state)));
    expect(resumed.memory).toEqual(state.memory);
  });

  it('counts only unsummarized finished steps, and picks none while under the threshold', () => {
    const step = (index: number, chars: number) => ({
      index,
      startedAt: 0,
      observation: { url: 'u', title: 't', hash: 'h', chars: 0, text: null, elements: [] },
      notices: [],
      reply: { text: '', toolCalls: [] },
      calls: [{ id: `c${index}`, name: 'echo', arguments: '{}', status: 'finished' as const, classes: [], result: { ok: true, content: 'x'.repeat(chars) } }],
      usage: null,
      costUsd: null,
    });
    const state = {
      version: 1 as const,
      taskId: 't',
      task: 'x',
      startUrl: 'u',
      status: 'running' as const,
      startedAt: 0,
      plan: null,
      approvedPlan: null,
      steps: [step(0, 100), step(1, 100), step(2, 100), step(3, 5000)],
      outcome: null,
      endReason: null,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      waitedMs: 0,
      approvedOrigins: { sites: [], reach: [] },
    };
    expect(historyChars(state)).toBe(3 * 102);
    expect(stepsToSummarize(state, { thresholdChars: 1000, keepSteps: 1 })).toEqual([]);
    expect(stepsToSummarize(state, { thresholdChars: 200, keepSteps: 1 }).map((s) => s.index)).toEqual([0, 1]);
    expect(stepsToSummarize({ ...state, memory: { summary: 's', throughStep: 0, by: 'list' } }, { thresholdChars: 100, keepSteps: 1 }).map((s) => s.index)).toEqual([1]);
  });
});
