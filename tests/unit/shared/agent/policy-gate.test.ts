import { describe, expect, it } from 'vitest';
import { controlTools } from '../../../../shared/agent/control-tools';
import type { ObservedElement } from '../../../../shared/agent/environment';
import { PolicyConfig, gateToolCall } from '../../../../shared/agent/policy-gate';
import { createSecretVault } from '../../../../shared/agent/secret-vault';
import type { AnyTool } from '../../../../shared/agent/tool';
import { webTools } from '../../../../shared/agent/web-tools';

const tools = [...webTools, ...controlTools()] as AnyTool<never>[];
const tool = (name: string): AnyTool<never> => {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(name);
  return found;
};

const elements: ObservedElement[] = [
  { ref: 1, role: 'button', name: 'Add to cart' },
  { ref: 2, role: 'button', name: 'Place order' },
  { ref: 3, role: 'button', name: 'Delete account' },
  { ref: 4, role: 'textbox', name: 'Password', inputType: 'password' },
  { ref: 5, role: 'textbox', name: 'Name on card', autocomplete: 'cc-name' },
  { ref: 6, role: 'button', name: 'Delete this address' },
  { ref: 7, role: 'textbox', name: 'Search' },
  { ref: 8, role: 'button', name: 'Submit' },
  { ref: 9, role: 'button', name: 'Zahlungspflichtig bestellen' },
  { ref: 10, role: 'textbox', name: 'Card number', autocomplete: 'cc-number' },
];

function gate(name: string, args: Record<string, unknown>, config: Partial<PolicyConfig> = {}, url = 'https://shop.example/p') {
  return gateToolCall({
    tool: tool(name),
    args,
    page: { url, element: (ref) => elements.find((e) => e.ref === ref) },
    vault: createSecretVault({ entries: { card_number: '4111111111111111', password: 'hunter22' } }),
    plan: null,
    config: PolicyConfig.parse({ mode: 'act', ...config }),
    startUrl: 'https://shop.example/',
  });
}

describe('the policy gate in act mode', () => {
  it('lets routine actions through', () => {
    expect(gate('click', { ref: 1, double: false }).decision).toBe('allow');
    expect(gate('type', { ref: 7, text: 'red mug', clear: true, submit: true })).toMatchObject({ decision: 'allow', classes: ['act', 'submit'] });
    expect(gate('click', { ref: 8, double: false })).toMatchObject({ decision: 'allow', classes: ['act', 'submit'] });
    expect(gate('navigate', { url: 'https://shop.example/cart' }).decision).toBe('allow');
    expect(gate('find', { text: 'mug' }).decision).toBe('allow');
  });

  it('stops for money, account changes and irreversible steps, saying why', () => {
    const order = gate('click', { ref: 2, double: false });
    expect(order).toMatchObject({ decision: 'ask', classes: ['act', 'money'] });
    expect(order.reason).toBe('Needs your approval because it looks like it spends money ("Place order").');
    expect(gate('click', { ref: 3, double: false }).classes).toEqual(['act', 'account', 'irreversible']);
    expect(gate('click', { ref: 6, double: false })).toMatchObject({ decision: 'ask', classes: ['act', 'irreversible'] });
    expect(gate('press', { key: 'Enter', ref: 2 })).toMatchObject({ decision: 'ask' });
    expect(gate('click', { ref: 9, double: false })).toMatchObject({ decision: 'ask', classes: ['act', 'money'] });
  });

  it('stops for typing into password and payment fields anything but their own placeholder, and personal data anywhere else', () => {
    expect(gate('type', { ref: 4, text: 'x', clear: true, submit: false })).toMatchObject({ decision: 'ask', classes: ['act', 'account'] });
    expect(gate('type', { ref: 4, text: '{{password}}', clear: true, submit: false })).toMatchObject({ decision: 'allow', classes: ['act'], personalData: true });
    expect(gate('type', { ref: 10, text: '4111 1111 1111 1111', clear: true, submit: false })).toMatchObject({ decision: 'ask', classes: ['act', 'money'] });
    expect(gate('type', { ref: 10, text: '{{card_number}}', clear: true, submit: false })).toMatchObject({ decision: 'allow', personalData: true });
    expect(gate('type', { ref: 5, text: 'Ada', clear: true, submit: false }).decision).toBe('allow');
    const data = gate('type', { ref: 7, text: '{{card_number}}', clear: true, submit: false });
    expect(data).toMatchObject({ decision: 'ask', personalData: true });
    expect(data.reason).toContain('it uses personal data ({{card_number}})');
    expect(data.reason).toContain('it types {{card_number}} into [7] textbox "Search", which is not the field for it');
    expect(gate('type', { ref: 4, text: '{{card_number}}', clear: true, submit: false }).decision).toBe('ask');
    // Every tool that fills a field is judged the same way: set_value and select put the card where it does not belong
    // just as type would, and its own field takes it without a question.
    for (const [name, args] of [
      ['set_value', { ref: 7, value: '{{card_number}}' }],
      ['select', { ref: 7, values: ['{{card_number}}'] }],
    ] as const) {
      const filled = gate(name, args);
      expect(filled, name).toMatchObject({ decision: 'ask', personalData: true });
      expect(filled.reason).toContain('into [7] textbox "Search", which is not the field for it');
    }
    expect(gate('set_value', { ref: 10, value: '{{card_number}}' })).toMatchObject({ decision: 'allow', personalData: true });
    // Searching the page for a placeholder someone wrote there resolves nothing, so it needs no approval.
    expect(gate('find', { text: '{{card_number}}' }).decision).toBe('allow');
  });

  it('asks before leaving the approved sites, and never opens denied ones or carries data in addresses', () => {
    const away = gate('navigate', { url: 'https://elsewhere.example/' });
    expect(away).toMatchObject({ decision: 'ask', leavesApprovedSites: true });
    expect(gate('navigate', { url: 'https://elsewhere.example/' }, { allowedSites: ['elsewhere.example'] }).decision).toBe('allow');
    // Sites are origins: a subdomain, another port or another scheme of the start site is somewhere else.
    expect(gate('navigate', { url: 'https://www.shop.example/cart' }).decision).toBe('ask');
    expect(gate('navigate', { url: 'https://shop.example:8443/cart' }).decision).toBe('ask');
    expect(gate('navigate', { url: 'http://shop.example/cart' }).decision).toBe('ask');
    expect(gate('navigate', { url: 'https://a.bad.example/x' }, { deniedSites: ['bad.example'] })).toMatchObject({ decision: 'deny' });
    expect(gate('navigate', { url: 'https://shop.example/?c={{card_number}}' }).decision).toBe('deny');
    expect(gate('navigate', { url: 'https://shop.example/?c=%7B%7Bcard_number%7D%7D' }).decision).toBe('deny');
    expect(gate('tabs', { action: 'new', url: 'https://elsewhere.example/' }).decision).toBe('ask');
  });

  it('asks before acting on a page a link led to outside the approved sites', () => {
    const offsite = gate('click', { ref: 1, double: false }, {}, 'https://pay.other.example/checkout');
    expect(offsite).toMatchObject({ decision: 'ask', leavesApprovedSites: true });
    expect(offsite.reason).toContain('it acts on pay.other.example, outside the approved sites (shop.example)');
    expect(offsite.siteApproval).toBe('https://pay.other.example');
    expect(gate('find', { text: 'x' }, {}, 'https://pay.other.example/checkout').decision).toBe('allow');
  });

  it('refuses to act on a denied site, but still lets the model read it', () => {
    expect(gate('click', { ref: 1, double: false }, { deniedSites: ['shop.example'] }).decision).toBe('deny');
    expect(gate('find', { text: 'x' }, { deniedSites: ['shop.example'] }).decision).toBe('allow');
  });
});

describe('the policy gate in ask mode', () => {
  it('asks for every action until a plan is approved, and for a new plan, but not for reading', () => {
    expect(gate('click', { ref: 1, double: false }, { mode: 'ask' })).toMatchObject({ decision: 'ask', reason: 'No plan is approved yet, so each step asks.' });
    expect(gate('click', { ref: 1, double: false }, { mode: 'ask', approveEachStep: true })).toMatchObject({ decision: 'ask', reason: 'You chose to approve each step.' });
    expect(gate('find', { text: 'mug' }, { mode: 'ask' }).decision).toBe('allow');
    const plan = { explanation: 'x', steps: [{ step: 'Buy the mug', status: 'pending' }] };
    expect(gate('update_plan', plan, { mode: 'ask' })).toMatchObject({ decision: 'ask', reason: 'Approve this plan?\n[ ] 1. Buy the mug' });
    expect(gate('update_plan', plan, { mode: 'act' }).decision).toBe('allow');
  });
});
