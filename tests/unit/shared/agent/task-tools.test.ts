import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import { chatAgentTools, chatTools } from '../../../../shared/agent/chat-tools';
import { startAgent } from '../../../../shared/agent/run-agent';
import { type TaskToolFacts, taskTools, whyNotOffered } from '../../../../shared/agent/task-tools';
import type { WebEnvironment } from '../../../../shared/agent/web-environment';
import { webAgentTools } from '../../../../shared/agent/web-tools';
import { call, harness } from './support/agent-harness';
import { createFakeWeb } from './support/fake-web';
import { providerFor } from './support/provider-clients';

/** Every combination of the facts a task's tools are decided by. */
function allFacts(): TaskToolFacts[] {
  const out: TaskToolFacts[] = [];
  for (const flow of ['web', 'chat'] as const)
    for (const attachedFiles of [0, 2])
      for (const vision of [false, true])
        for (const screenshotsEachStep of [false, true])
          for (const pageView of ['full', 'diff'] as const) out.push({ flow, attachedFiles, vision, screenshotsEachStep, pageView });
  return out;
}

const POINT = ['click_at', 'hover_at', 'drag_at'];
const names = (facts: TaskToolFacts): string[] => taskTools(facts).tools.map((tool) => tool.name);

describe('the tools a task offers, by its facts', () => {
  const registry = new Set([...webAgentTools(), ...chatAgentTools()].map((tool) => tool.name));

  for (const facts of allFacts()) {
    it(`${JSON.stringify(facts)}`, () => {
      const { tools, withheld } = taskTools(facts);
      const offered = tools.map((tool) => tool.name);
      // Only tools of the registries the gate's tests walk, each once; every other tool of them is withheld with a reason.
      expect(new Set(offered).size).toBe(offered.length);
      for (const name of offered) expect(registry, `${name} is not in a registry the gate's tests walk`).toContain(name);
      expect(new Set([...offered, ...Object.keys(withheld)])).toEqual(registry);
      for (const [name, why] of Object.entries(withheld)) {
        expect(offered).not.toContain(name);
        expect(why.length, name).toBeGreaterThan(10);
        expect(whyNotOffered(name, facts)).toBe(why);
      }
      // The rule, fact by fact.
      expect(offered.includes('upload')).toBe(facts.attachedFiles > 0);
      for (const name of POINT) expect(offered.includes(name), name).toBe(facts.vision);
      expect(offered.includes('screenshot')).toBe(facts.vision && !facts.screenshotsEachStep);
      expect(offered.includes('full_page')).toBe(facts.flow === 'web' && facts.pageView === 'diff');
      for (const tool of chatTools) expect(offered.includes(tool.name), tool.name).toBe(facts.flow === 'chat');
      expect(offered.includes('done')).toBe(facts.flow === 'web');
      // What every task needs is always there.
      for (const name of ['click', 'type', 'select', 'check', 'press', 'scroll', 'navigate', 'dialog', 'download', 'tabs', 'update_plan', 'ask_user']) expect(offered, name).toContain(name);
      // The same facts give the same list, in the same order: the request's prefix does not change step to step.
      expect(names(facts)).toEqual(offered);
    });
  }

  it('keeps the order of the registry, so a task offered more tools sees the same tools in the same order', () => {
    const most = names({ flow: 'web', attachedFiles: 1, vision: true, screenshotsEachStep: false, pageView: 'diff' });
    expect(most).toEqual(webAgentTools().map((tool) => tool.name).filter((name) => most.includes(name)));
    const least = names({ flow: 'web', attachedFiles: 0, vision: false, screenshotsEachStep: false, pageView: 'full' });
    expect(least).toEqual(most.filter((name) => least.includes(name)));
  });
});

describe('a model that calls a tool its task does not offer', () => {
  let fake: FakeProvider;
  beforeEach(async () => {
    fake = await startFakeProvider();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('is told the tool is not offered and why, nothing happens on the page, and the task goes on with the same tools', async () => {
    const web = createFakeWeb(
      [{ url: 'https://shop.example/apply', title: 'Apply', elements: [{ ref: 1, role: 'button', name: 'Upload CV' }, { ref: 2, role: 'button', name: 'Send' }] }],
      'https://shop.example/apply',
    );
    const offered = taskTools<WebEnvironment>({ flow: 'web', attachedFiles: 0, vision: false, screenshotsEachStep: false, pageView: 'diff' });
    const h = harness(web, providerFor('openai-stream', fake), { tools: offered.tools, withheldTools: offered.withheld, pageView: 'diff' });
    fake.enqueue(
      call('upload', { ref: 1, files: ['/etc/passwd'] }),
      call('click_at', { x: 10, y: 10 }),
      call('chat_send', { text: 'hello' }),
      call('no_such_tool', {}),
      call('done', { success: false, summary: 'Nothing was attached to upload.' }),
    );
    const state = await startAgent(h.deps, { taskId: 't-offered', task: 'Upload my CV', startUrl: 'https://shop.example/apply' });

    expect(state.status).toBe('failed');
    expect(web.actions).toEqual([]);
    const results = state.steps.flatMap((step) => step.calls.map((c) => c.result?.content ?? ''));
    expect(results[0]).toMatch(/^The tool "upload" is not offered in this task: no files are attached to this task .*Use one of: click, type, /);
    expect(results[1]).toMatch(/^The tool "click_at" is not offered in this task: this model is not sent screenshots/);
    expect(results[2]).toMatch(/^The tool "chat_send" is not offered in this task: this is not a support-chat task/);
    expect(results[3]).toMatch(/^There is no tool named "no_such_tool"\. Use one of: /);
    expect(state.steps.slice(0, 4).every((step) => step.calls.every((c) => c.result?.ok === false))).toBe(true);
    // Every request carried the same tool list, and only the offered tools.
    const lists = fake.requests.map((r) => JSON.stringify((r.json as { tools?: unknown }).tools));
    expect(lists).toHaveLength(5);
    expect(new Set(lists).size).toBe(1);
    const sent = ((fake.requests[0]?.json as { tools: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
    expect(sent).toEqual(offered.tools.map((tool) => tool.name));
    expect(sent).not.toContain('upload');
  });
});
