import { describe, expect, it } from 'vitest';
import { controlTools } from '../../../../shared/agent/control-tools';
import type { ObservedElement } from '../../../../shared/agent/environment';
import type { Plan } from '../../../../shared/agent/plan';
import { planStepsChanged } from '../../../../shared/agent/plan';
import { planOrigins } from '../../../../shared/agent/plan-scope';
import { PolicyConfig, gateToolCall } from '../../../../shared/agent/policy-gate';
import { startAgent } from '../../../../shared/agent/run-agent';
import { createSecretVault } from '../../../../shared/agent/secret-vault';
import type { AnyTool } from '../../../../shared/agent/tool';
import { webTools } from '../../../../shared/agent/web-tools';
import { startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import { call, harness } from './support/agent-harness';
import { createFakeWeb } from './support/fake-web';
import { providerFor } from './support/provider-clients';

const tools = [...webTools, ...controlTools()] as AnyTool<never>[];
const tool = (name: string): AnyTool<never> => tools.find((t) => t.name === name) ?? (() => { throw new Error(name); })();

const elements: ObservedElement[] = [
  { ref: 1, role: 'button', name: 'Add to cart' },
  { ref: 2, role: 'button', name: 'Place order' },
  { ref: 3, role: 'button', name: 'Delete account' },
  { ref: 4, role: 'textbox', name: 'New password', inputType: 'password', autocomplete: 'new-password' },
  { ref: 6, role: 'button', name: 'Delete this address' },
  { ref: 7, role: 'textbox', name: 'Search' },
  { ref: 8, role: 'button', name: 'Submit' },
  { ref: 11, role: 'textbox', name: 'Write a message' },
  { ref: 12, role: 'link', name: 'Next page' },
];

const PLAN: Plan = { explanation: 'Find the mug and compare', steps: [{ step: 'Find the red mug', status: 'pending' }], sites: ['docs.example'] };

function gate(name: string, args: Record<string, unknown>, options: { config?: Partial<PolicyConfig>; plan?: Plan | null; url?: string; sites?: string[] } = {}) {
  return gateToolCall({
    tool: tool(name),
    args,
    page: { url: options.url ?? 'https://shop.example/p', element: (ref) => elements.find((e) => e.ref === ref) },
    vault: createSecretVault({ entries: { card_number: '4111111111111111' } }),
    plan: options.plan === undefined ? PLAN : options.plan,
    config: PolicyConfig.parse({ mode: 'ask', ...options.config }),
    startUrl: 'https://shop.example/',
    taskSites: options.sites ?? planOrigins(PLAN, 'https://shop.example/'),
  });
}

/** Routine steps of every kind the plan covers, on the start site and on a site the plan names. */
const ROUTINE: [string, string, Record<string, unknown>, string?][] = [
  ['a click', 'click', { ref: 1, double: false }],
  ['typing a search and submitting it', 'type', { ref: 7, text: 'red mug', clear: true, submit: true }],
  ['a plain submit button', 'click', { ref: 8, double: false }],
  ['a link', 'click', { ref: 12, double: false }],
  ['opening a page of the start site', 'navigate', { url: 'https://shop.example/cart' }],
  ['opening a site the plan names', 'navigate', { url: 'https://docs.example/mugs' }],
  ['a click on a site the plan names', 'click', { ref: 1, double: false }, 'https://docs.example/mugs'],
];

/** Steps the plan never covers, each with the one reason its card shows. */
const ASKS: [string, string, Record<string, unknown>, RegExp][] = [
  ['paying', 'click', { ref: 2, double: false }, /spends money/],
  ['deleting the account', 'click', { ref: 3, double: false }, /account|undone/],
  ['deleting an address', 'click', { ref: 6, double: false }, /undone|delete/i],
  ['setting a new password', 'type', { ref: 4, text: 'x', clear: true, submit: false }, /new password/],
  ['sending a message', 'type', { ref: 11, text: 'Hello', clear: true, submit: true }, /sends a message/],
  ['leaving the plan for another site', 'navigate', { url: 'https://elsewhere.example/' }, /elsewhere\.example/],
  ['sending personal data into the wrong field', 'type', { ref: 7, text: '{{card_number}}', clear: true, submit: false }, /card_number/],
];

describe('an approved plan in ask-first mode', () => {
  it.each(ROUTINE)('approves %s on its sites', (_name, name, args, url) => {
    const verdict = gate(name, args, url ? { url } : {});
    expect(verdict.decision, verdict.reason).toBe('allow');
    expect(verdict.reason).toBe('Covered by the plan you approved.');
  });

  it.each(ASKS)('still asks before %s, with one reason said once', (_name, name, args, why) => {
    const verdict = gate(name, args);
    expect(verdict.decision).toBe('ask');
    expect(verdict.reason).toMatch(why);
    expect(verdict.reason.startsWith('Needs your approval because ')).toBe(true);
    const parts = verdict.reason.replace(/^Needs your approval because /, '').replace(/\.$/, '').split('; ');
    expect(new Set(parts).size).toBe(parts.length);
  });

  it.each(ROUTINE)('asks for %s again when the user chose to approve each step', (_name, name, args, url) => {
    expect(gate(name, args, { config: { approveEachStep: true }, ...(url ? { url } : {}) })).toMatchObject({ decision: 'ask', reason: 'You chose to approve each step.' });
  });

  it.each(ROUTINE)('asks for %s while no plan is approved', (_name, name, args) => {
    expect(gate(name, args, { plan: null, sites: [] }).decision).toBe('ask');
  });

  it('asks again for a plan that names a site it did not name before, even with the same steps', () => {
    expect(planStepsChanged(PLAN, { ...PLAN, steps: [{ step: 'Find the red mug', status: 'in_progress' }] })).toBe(false);
    expect(planStepsChanged(PLAN, { ...PLAN, sites: ['docs.example', 'evil.example'] })).toBe(true);
    expect(planStepsChanged(PLAN, { ...PLAN, sites: ['DOCS.example'] })).toBe(false);
    expect(gate('update_plan', { ...PLAN, sites: ['docs.example', 'evil.example'] }).decision).toBe('ask');
  });
});

describe('the sites a plan names', () => {
  it('become exact origins with the scheme the task started on, never patterns, and never a denied site', () => {
    const plan = { sites: ['docs.example', 'http://api.example:8080/path', 'shop.test:5173', '*.example.com', 'com', 'localhost:3000', 'bank.example', 'docs.example', 'javascript:alert(1)', 'a b.example'] };
    expect(planOrigins(plan, 'https://shop.example/', ['bank.example'])).toEqual(['https://docs.example', 'http://api.example:8080', 'https://shop.test:5173', 'https://localhost:3000']);
    expect(planOrigins(plan, 'http://shop.test:5173/', ['bank.example'])).toContain('http://shop.test:5173');
    expect(planOrigins(null, 'https://shop.example/')).toEqual([]);
  });
});

describe('a model that tries to widen what the user approved', () => {
  it('reaches a plan site only after the user approves the plan, and a plan the user turned down adds nothing', async () => {
    const fake = await startFakeProvider();
    try {
      for (const approved of [true, false]) {
        const web = createFakeWeb(
          [
            { url: 'https://shop.example/', title: 'Shop', elements: [{ ref: 1, role: 'button', name: 'Add to cart' }] },
            { url: 'https://docs.example/', title: 'Docs', elements: [] },
          ],
          'https://shop.example/',
        );
        const h = harness(web, providerFor('openai-plain', fake), {
          policy: { mode: 'ask' },
          approve: (request) => ({ approved: request.tool === 'update_plan' ? approved : false }),
        });
        fake.enqueue(
          call('update_plan', PLAN),
          call('click', { ref: 1 }),
          call('navigate', { url: 'https://docs.example/' }),
          call('update_plan', { ...PLAN, sites: ['docs.example', 'evil.example'] }),
          call('done', { success: true, summary: 'Done.' }),
        );
        const state = await startAgent(h.deps, { taskId: `widen-${approved}`, task: 'Find the red mug', startUrl: 'https://shop.example/' });
        const asked = h.approvals.map((a) => a.tool);
        if (approved) {
          // One card for the plan, none for its routine steps, one for the plan that names a new site.
          expect(asked).toEqual(['update_plan', 'update_plan']);
          expect(state.approvedOrigins.sites).toEqual(['https://docs.example', 'https://evil.example']);
        } else {
          // Turned down: every step asks, and nothing the plan named was approved.
          expect(asked).toEqual(['update_plan', 'click', 'navigate', 'update_plan']);
          expect(state.approvedOrigins.sites).toEqual([]);
        }
      }
    } finally {
      await fake.close();
    }
  });
});
