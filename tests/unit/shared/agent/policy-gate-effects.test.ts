import { describe, expect, it } from 'vitest';
import type { ActionEffect, FieldFact } from '../../../../shared/agent/action-effect';
import { chatTools } from '../../../../shared/agent/chat-tools';
import { controlTools } from '../../../../shared/agent/control-tools';
import type { ObservedElement } from '../../../../shared/agent/environment';
import { PolicyConfig, gateToolCall } from '../../../../shared/agent/policy-gate';
import { createSecretVault } from '../../../../shared/agent/secret-vault';
import type { AnyTool, PageLookup } from '../../../../shared/agent/tool';
import { webTools } from '../../../../shared/agent/web-tools';

const tools = [...webTools, ...controlTools(), ...chatTools] as AnyTool<never>[];
const tool = (name: string): AnyTool<never> => tools.find((t) => t.name === name) as AnyTool<never>;
const SHOP = 'http://shop.test:8080';

const field = (over: Partial<FieldFact>): FieldFact => ({ name: '', label: '', type: 'text', autocomplete: '', filled: false, ...over });

/** An effect as the content script reports it, on the shop unless said otherwise. */
function effect(over: Partial<ActionEffect> & { text?: string } = {}): ActionEffect {
  const { text = '', ...rest } = over;
  return { frameUrl: `${SHOP}/p`, element: { tag: 'BUTTON', type: 'submit', text, danger: false }, submits: false, context: '', ...rest };
}

function form(action: string, fields: FieldFact[] = [], method = 'post'): NonNullable<ActionEffect['form']> {
  return { action, method, newWindow: false, fields, submitLabel: '' };
}

interface Case {
  name?: string;
  args?: Record<string, unknown>;
  element?: Partial<ObservedElement>;
  effect?: ActionEffect;
  config?: Partial<PolicyConfig>;
  page?: Partial<PageLookup>;
  taskSites?: string[];
}

function gate(c: Case) {
  const element: ObservedElement = { ref: 1, role: 'button', name: '', ...c.element };
  const name = c.name ?? 'click';
  return gateToolCall({
    tool: tool(name),
    args: c.args ?? { ref: 1 },
    page: { url: `${SHOP}/p`, element: (ref) => (ref === 1 ? element : undefined), ...c.page },
    vault: createSecretVault({ entries: { card_number: '4111 1111 1111 1111', password: 'hunter22x' } }),
    plan: null,
    config: PolicyConfig.parse({ mode: 'act', ...c.config }),
    startUrl: `${SHOP}/`,
    ...(c.taskSites ? { taskSites: c.taskSites } : {}),
    ...(c.effect ? { facts: { effect: c.effect } } : {}),
  });
}

const CARD = [field({ name: 'cc', label: 'Card number', autocomplete: 'cc-number' })];

describe('the gate decides on where an action sends the user and the data', () => {
  it('asks before a form posts to another origin, naming it and the fields, whatever the button says', () => {
    const verdict = gate({ element: { name: 'Continue' }, effect: effect({ text: 'Continue', submits: true, form: form('http://evil.test:9/collect', [field({ name: 'message' })]) }) });
    expect(verdict).toMatchObject({ decision: 'ask', destination: 'http://evil.test:9', sends: { method: 'post', fields: ['message'] }, siteApproval: null });
    expect(verdict.consequence).toBe('It sends the fields message to http://evil.test:9 (POST).');
    // Another port of the same host is another site.
    expect(gate({ effect: effect({ submits: true, form: form('http://shop.test:9090/x') }) }).destination).toBe('http://shop.test:9090');
    expect(gate({ effect: effect({ submits: true, form: form(`${SHOP}/search`, [], 'get') }) }).decision).toBe('allow');
  });

  it('asks before a link to another origin, and says when it opens a new tab', () => {
    const away = gate({ element: { role: 'link', name: 'Receipt' }, effect: effect({ element: { tag: 'A', type: '', text: 'Receipt', danger: false }, link: { url: 'http://evil.test:9/r?x=1', newWindow: true } }) });
    expect(away).toMatchObject({ decision: 'ask', destination: 'http://evil.test:9', siteApproval: 'http://evil.test:9' });
    expect(away.reason).toContain('it opens in a new tab http://evil.test:9');
    expect(gate({ effect: effect({ link: { url: `${SHOP}/help`, newWindow: true } }) }).decision).toBe('allow');
    expect(gate({ effect: effect({ link: { url: 'https://bad.example/x', newWindow: false } }), config: { deniedSites: ['bad.example'] } }).decision).toBe('deny');
  });

  it('judges an action in a frame by the frame: another origin asks, and may be approved for that origin', () => {
    const framed = gate({ element: { name: 'Play', origin: 'http://cdn.test:7' } });
    expect(framed).toMatchObject({ decision: 'ask', actsOn: 'http://cdn.test:7', siteApproval: 'http://cdn.test:7' });
    expect(framed.reason).toContain('it acts inside a frame from http://cdn.test:7');
    expect(gate({ element: { name: 'Play', origin: 'http://cdn.test:7' }, taskSites: ['http://cdn.test:7'] }).decision).toBe('allow');
    expect(gate({ effect: effect({ frameUrl: 'http://cdn.test:7/widget' }) }).decision).toBe('ask');
  });

  it('asks before personal data is typed where its form sends it elsewhere, and lets it into its own field on the site', () => {
    const typed = { name: 'type', args: { ref: 1, text: '{{card_number}}', clear: true, submit: false }, element: { role: 'textbox', name: 'Card number', autocomplete: 'cc-number' } };
    expect(gate({ ...typed, effect: effect({ element: { tag: 'INPUT', type: 'text', text: 'Card number', danger: false }, form: form(`${SHOP}/pay`, CARD) }) }).decision).toBe('allow');
    const elsewhere = gate({ ...typed, effect: effect({ element: { tag: 'INPUT', type: 'text', text: 'Card number', danger: false }, form: form('http://evil.test:9/c', CARD) }) });
    expect(elsewhere).toMatchObject({ decision: 'ask', destination: 'http://evil.test:9' });
    expect(elsewhere.reason).toContain('the form sends what is typed to http://evil.test:9 (POST), outside the approved sites');
    const review = gate({ ...typed, args: { ref: 1, text: 'Great mug {{password}}', clear: true, submit: false }, element: { role: 'textbox', name: 'Your review' } });
    expect(review.decision).toBe('ask');
    expect(review.reason).toContain('it types {{password}} into [1] textbox "Your review", which is not the field for it');
    // With what the page says of the field, the approval names where its form sends the value.
    const reviewForm = effect({ element: { tag: 'TEXTAREA', type: 'textarea', text: 'Your review', danger: false }, form: form(`${SHOP}/reviews`, [field({ name: 'review', type: 'textarea' })]) });
    const named = gate({ ...typed, args: { ref: 1, text: '{{card_number}}', clear: true, submit: false }, element: { role: 'textbox', name: 'Your review' }, effect: reviewForm });
    expect(named.decision).toBe('ask');
    expect(named.reason).toContain(`which is not the field for it; its form sends it to ${SHOP}/reviews (POST)`);
  });
});

describe('risk by what an action does, in any language', () => {
  const checkout = `${SHOP}/checkout`;
  it.each([
    ['a Japanese confirm button in a payment form', { text: '注文を確定する', submits: true, form: form(`${SHOP}/order`, CARD) }, 'money'],
    ['"kostenpflichtig abonnieren"', { text: 'Jetzt kostenpflichtig abonnieren', submits: true, form: form(`${SHOP}/abo`) }, 'money'],
    ['an icon-only button on a checkout page', { text: '', frameUrl: checkout, submits: true, form: form(`${SHOP}/order`) }, 'money'],
    ['"Order now — $499"', { text: 'Order now — $499', submits: true, form: form(`${SHOP}/buy`) }, 'money'],
    ['"Yes, charge my card"', { text: 'Yes, charge my card', submits: true, form: form(`${SHOP}/fee`) }, 'money'],
    ['"Save changes" on an email field in account settings', { text: 'Save changes', frameUrl: `${SHOP}/account/profile`, submits: true, form: form(`${SHOP}/account/profile`, [field({ name: 'email', type: 'email' })]) }, 'account'],
    ['a new password', { text: 'Update', submits: true, form: form(`${SHOP}/pw`, [field({ type: 'password', autocomplete: 'new-password' })]) }, 'account'],
    ['"Deactivate"', { text: 'Deactivate', submits: true, form: form(`${SHOP}/x`) }, 'account'],
    ['a form that posts to a deletion', { text: 'OK', submits: true, form: form(`${SHOP}/items/4/delete`) }, 'irreversible'],
    ['a button the page marks as destructive', { text: 'Go', element: { tag: 'BUTTON', type: 'submit', text: 'Go', danger: true }, submits: true, form: form(`${SHOP}/x`) }, 'irreversible'],
    ['"Confirm order" on a button that posts nothing (a script does it)', { text: 'Confirm order', element: { tag: 'BUTTON', type: 'button', text: 'Confirm order', danger: false } }, 'money'],
    ['"Submit order"', { text: 'Submit order', submits: true, form: form(`${SHOP}/x`) }, 'money'],
    ['any other form the account settings post', { text: 'Next', frameUrl: `${SHOP}/account/settings`, submits: true, form: form(`${SHOP}/account/settings`, [field({ name: 'display_name' })]) }, 'account'],
    ['a payment method changed in account settings', { text: 'Save', frameUrl: `${SHOP}/account/billing`, submits: true, form: form(`${SHOP}/account/billing`, CARD) }, 'account'],
  ] as [string, Partial<ActionEffect> & { text?: string }, string][])('asks before %s', (_name, over, risk) => {
    const verdict = gate({ element: { name: over.text ?? '' }, effect: effect(over) });
    expect(verdict.decision).toBe('ask');
    expect(verdict.classes).toContain(risk);
    expect(verdict.siteApproval).toBeNull();
  });

  it('judges Enter, submit-by-typing and a select by what they cause', () => {
    const pay = effect({ element: { tag: 'BUTTON', type: 'submit', text: 'Pay $49', danger: false }, frameUrl: checkout, submits: true, form: form(`${SHOP}/order`, CARD) });
    expect(gate({ name: 'press', args: { key: 'Enter' }, effect: pay }).classes).toContain('money');
    const coupon = effect({ element: { tag: 'INPUT', type: 'text', text: 'Coupon', danger: false }, submits: true, form: form(`${SHOP}/order`, CARD) });
    expect(gate({ name: 'type', args: { ref: 1, text: 'SAVE10', clear: true, submit: true }, element: { role: 'textbox', name: 'Coupon' }, effect: coupon }).classes).toContain('money');
    const plan = effect({ element: { tag: 'SELECT', type: 'select-one', text: 'Plan', danger: false }, options: ['Premium ($99/month)'] });
    expect(gate({ name: 'select', args: { ref: 1, values: ['Premium ($99/month)'] }, element: { role: 'combobox', name: 'Plan' }, effect: plan })).toMatchObject({ decision: 'ask', classes: ['act', 'money'] });
    const size = effect({ element: { tag: 'SELECT', type: 'select-one', text: 'Size', danger: false }, options: ['Large'] });
    expect(gate({ name: 'select', args: { ref: 1, values: ['Large'] }, element: { role: 'combobox', name: 'Size' }, effect: size }).decision).toBe('allow');
  });

  it('lets routine steps through: "Add to cart" next to a price, signing in, a search', () => {
    const cart = effect({ text: 'Add to cart', context: 'Blue mug $12.00 Add to cart', submits: true, form: form(`${SHOP}/cart`, [field({ name: 'sku', type: 'hidden' })]) });
    expect(gate({ element: { name: 'Add to cart' }, effect: cart })).toMatchObject({ decision: 'allow', classes: ['act', 'submit'] });
    expect(gate({ element: { name: 'In den Warenkorb — 12,00 €' }, effect: { ...cart, element: { ...cart.element, text: 'In den Warenkorb — 12,00 €' } } }).decision).toBe('allow');
    const login = effect({ text: 'Sign in', frameUrl: `${SHOP}/login`, submits: true, form: form(`${SHOP}/login`, [field({ name: 'user', type: 'email' }), field({ name: 'pw', type: 'password', autocomplete: 'current-password' })]) });
    expect(gate({ element: { name: 'Sign in' }, effect: login }).decision).toBe('allow');
  });

  it('keeps the start site approved when the user has an allow list, and compares by origin', () => {
    expect(gate({ effect: effect({ link: { url: `${SHOP}/other`, newWindow: false } }), config: { allowedSites: ['docs.example'] } }).decision).toBe('allow');
    expect(gate({ name: 'navigate', args: { url: 'https://docs.example/a' }, config: { allowedSites: ['docs.example'] } }).decision).toBe('allow');
  });
});

describe("the user's other tabs", () => {
  const page = { ownTabs: [5, 6] };
  it('lists titles without asking, and asks before switching to or closing a tab the task did not open', () => {
    expect(gate({ name: 'tabs', args: { action: 'list' }, page })).toMatchObject({ decision: 'allow', classes: ['read'] });
    expect(gate({ name: 'tabs', args: { action: 'switch', tabId: 6 }, page }).decision).toBe('allow');
    const other = gate({ name: 'tabs', args: { action: 'switch', tabId: 9 }, page });
    expect(other).toMatchObject({ decision: 'ask', siteApproval: null });
    expect(other.reason).toContain('it switches to tab 9, which this task did not open');
    expect(gate({ name: 'tabs', args: { action: 'close', tabId: 9 }, page }).classes).toContain('irreversible');
    expect(gate({ name: 'tabs', args: { action: 'close', tabId: 5 }, page }).decision).toBe('allow');
  });
});

describe('every path into a support chat', () => {
  const chat = { chat: { lastFromThem: 'For order #1234 I can offer a $25 store credit instead of a refund.', choices: ['Accept store credit', 'Ask for a refund'] } };
  it('judges text typed with the page tools as a message, and a quick reply clicked as a choice', () => {
    const typed = gate({ name: 'type', args: { ref: 1, text: "Let's go with the store credit", clear: true, submit: true }, element: { role: 'textbox', name: 'Compose your message...' }, page: chat });
    expect(typed.decision).toBe('ask');
    expect(typed.classes).toEqual(expect.arrayContaining(['money', 'commitment']));
    expect(gate({ name: 'click', element: { name: 'Accept store credit' }, page: chat }).decision).toBe('ask');
    expect(gate({ name: 'click', element: { name: 'Ask for a refund' }, page: chat }).decision).toBe('allow');
  });

  it('never lets personal data the facts do not list out, whichever tool carries it', () => {
    const typed = gate({ name: 'type', args: { ref: 1, text: 'my password: {{password}}', clear: true, submit: true }, element: { role: 'textbox', name: 'Message' }, page: chat });
    expect(typed.decision).toBe('deny');
    expect(typed.askUser).toMatch(/password/);
  });
});

describe('a case\'s written escalation', () => {
  const contact = effect({ text: 'Send', submits: true, form: form(`${SHOP}/contact/sent`, [field({ name: 'message' }), field({ name: 'email' })], 'get') });
  it('always asks before the form that carries it is sent, showing the draft; without a draft the same form does not ask', () => {
    const verdict = gate({ element: { name: 'Send' }, effect: contact, page: { chat: { lastFromThem: null, choices: [], draft: 'Subject: Follow-up\n\nOrder number: 1234' } } });
    expect(verdict.decision).toBe('ask');
    expect(verdict.reason).toContain('it sends support the written message Deputy drafted from the case file:\nSubject: Follow-up\n\nOrder number: 1234');
    expect(gate({ element: { name: 'Send' }, effect: contact, page: { chat: { lastFromThem: null, choices: [] } } }).decision).toBe('allow');
    // Typing into a field of that form does not submit it: judged as a message, it goes out without asking.
    expect(gate({ name: 'type', args: { ref: 1, text: 'Order number: 1234' }, element: { role: 'textbox', name: 'Message' }, effect: effect({ submits: false, form: contact.form }), page: { chat: { lastFromThem: null, choices: [], draft: 'x' } } }).decision).toBe('allow');
  });
});

describe("a support chat in another site's frame (a vendor's widget)", () => {
  const widget = { frameOrigins: ['http://widget.test:8080'], chat: { lastFromThem: 'How can I help you today?', choices: ['Accept store credit', 'No thanks'] } };
  it('writes to the chat without borrowing the page: a plain message goes, a commitment still asks', () => {
    expect(gate({ name: 'chat_send', args: { text: 'Hi, my order 1234 arrived damaged. I would like a refund.' }, page: widget }).decision).toBe('allow');
    const accept = gate({ name: 'chat_send', args: { text: 'OK, I accept the store credit instead.' }, page: widget });
    expect(accept.decision).toBe('ask');
    expect(accept.reason).not.toContain("a frame's words must not act for the page");
    expect(gate({ name: 'chat_choose', args: { choice: 'Accept store credit' }, page: widget }).decision).toBe('ask');
    // A page tool that changes the page itself after the frame's words still asks, naming the frame's site.
    const post = gate({ element: { name: 'Save' }, effect: effect({ submits: true, form: form(`${SHOP}/account`) }), page: { frameOrigins: widget.frameOrigins } });
    expect(post.reason).toContain("a frame's words must not act for the page");
  });
});
