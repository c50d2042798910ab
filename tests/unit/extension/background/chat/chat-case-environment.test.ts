import { describe, expect, it } from 'vitest';
import { createChatCaseEnvironment } from '../../../../../extension/background/chat/chat-case-environment';
import type { ChatDriver } from '../../../../../extension/background/chat/chat-driver';
import type { TabEnvironment } from '../../../../../extension/background/page/tab-environment';
import type { EgressScope } from '../../../../../shared/agent/egress';

describe('a support-chat case', () => {
  it("guards its page tools like any task's: the gate's facts, the egress scope and held requests go to the tab", async () => {
    const scopes: EgressScope[] = [];
    const tab = {
      currentTabId: () => 5,
      restoreRefs: () => 0,
      observe: () => Promise.reject(new Error('not used')),
      act: () => Promise.resolve({ ok: true, message: 'ok', changed: false }),
      gateFacts: () => Promise.resolve({ effect: undefined }),
      setEgressScope: (scope: EgressScope) => {
        scopes.push(scope);
        return Promise.resolve();
      },
      resolveBlocked: () => Promise.resolve({ ok: true, message: 'put back', changed: true }),
    } satisfies TabEnvironment;
    const chat = createChatCaseEnvironment({} as Pick<ChatDriver, 'open' | 'read' | 'send' | 'wait' | 'choose' | 'end'>, tab);
    await chat.setEgressScope?.({ origins: ['https://shop.example'], patterns: [] });
    expect(scopes).toEqual([{ origins: ['https://shop.example'], patterns: [] }]);
    expect(await chat.gateFacts?.({ tool: 'click', args: { ref: 1 } }, {})).toEqual({ effect: undefined });
    const held = { id: 'r', address: 'https://evil.example/c', origin: 'https://evil.example', withQuery: false, method: 'GET', type: 'main_frame' as const, fields: [], tabId: 5, newTab: false };
    expect((await chat.resolveBlocked?.(held, false, {}))?.message).toBe('put back');
  });
});

describe('a support case that knows where to go, drops dead ends and writes when the chat closes', () => {
  const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
  const message = (id: string, author: 'us' | 'them' | 'system', text: string) => ({ id, author, text, time: null, seenAt: T0 + Number(id) * 1000 });
  const chatState = (messages: ReturnType<typeof message>[]) => ({
    vendor: 'crisp',
    open: true,
    messages,
    typing: false,
    choices: [],
    forms: [],
    uploads: [],
    composer: { found: true, kind: 'textarea' as const, disabled: false },
  });

  it('hints from the map and earlier cases, hides a button that did nothing, and drafts only from the user\'s facts once the chat ends', async () => {
    let url = 'https://www.amazon.com/gp/help';
    let messages = [message('1', 'them', 'How can I help?'), message('2', 'us', 'Order 1234 arrived damaged; I want a refund.')];
    const pageElements = () => (url.endsWith('/contact') ? [{ ref: 3, role: 'button', name: 'Send' }] : [{ ref: 4, role: 'button', name: 'More help' }, { ref: 5, role: 'link', name: 'Contact us' }]);
    const tab = {
      currentTabId: () => 5,
      restoreRefs: () => 0,
      observe: () => Promise.resolve({ url, title: 't', text: pageElements().map((e) => `[${e.ref}] ${e.role} "${e.name}"`).join('\n'), elements: pageElements() }),
      act: (action: { kind: string; ref?: number }) => Promise.resolve({ ok: true, message: 'ok', changed: action.ref !== 4 }),
    } satisfies TabEnvironment;
    const driver = {
      open: () => Promise.resolve({ opened: true }),
      read: () => Promise.resolve(url.endsWith('/contact') ? chatState([]) : chatState(messages)),
      end: () => Promise.resolve({ ended: true }),
    } as unknown as Pick<ChatDriver, 'open' | 'read' | 'send' | 'wait' | 'choose' | 'end'>;
    const learned: { url: string; what: object }[] = [];
    const memory = {
      get: () => Promise.resolve({ chatUrl: 'https://www.amazon.com/gp/help', vendor: 'crisp', at: 1 }),
      learn: (at: string, what: object) => {
        learned.push({ url: at, what });
        return Promise.resolve();
      },
    };
    const facts = { order_number: '1234', email: 'jane@example.org' };
    const env = createChatCaseEnvironment(driver, tab, { goal: 'Refund order 1234', facts, memory, now: () => T0 });

    const first = await env.observe({ screenshot: false });
    expect(first.text).toContain("Where things are on Amazon (Deputy's shipped map");
    expect(first.text).toContain('the support chat (crisp) was found at https://www.amazon.com/gp/help');
    expect(learned[0]).toEqual({ url: 'https://www.amazon.com/gp/help', what: { chatUrl: 'https://www.amazon.com/gp/help', vendor: 'crisp' } });
    expect(first.chat?.draft).toBeUndefined();

    // "More help" changes nothing: from now on it is not offered; the hint was said once.
    await env.act({ kind: 'click', ref: 4, double: false }, {});
    const second = await env.observe({ screenshot: false });
    expect(second.text).not.toContain('[4] button "More help"');
    expect(second.elements?.map((e) => e.ref)).toEqual([5]);
    expect(second.text).not.toContain('shipped map');

    messages = [...messages, message('3', 'them', 'We are closing this chat now.'), message('4', 'system', 'This conversation has ended.')];
    const closed = await env.observe({ screenshot: false });
    expect(closed.text).toContain('[Deputy: The chat cannot carry the case further (support closed the chat');
    expect(closed.text).toContain('Open the site\'s contact page (https://www.amazon.com/gp/help/customer/contact-us)');
    const written = env.caseSoFar().written!;
    expect(written.factsUsed).toEqual(['order_number']);
    expect(written.body).not.toContain(facts.email);
    expect(closed.chat?.draft).toBe(`Subject: ${written.subject}\n\n${written.body}`);

    // On the contact page the chat is gone: the case says so, keeps the transcript and still holds the draft.
    url = 'https://www.amazon.com/contact';
    const contact = await env.observe({ screenshot: false });
    expect(contact.text).toContain('The support chat is not on this page (it was on https://www.amazon.com/gp/help)');
    expect(contact.chat?.draft).toBe(closed.chat?.draft);
    expect(env.caseSoFar().messages).toHaveLength(4);
    // Sending through that page's form teaches the site's contact page to later cases.
    await env.act({ kind: 'click', ref: 3, double: false }, {});
    expect(learned.at(-1)).toEqual({ url: 'https://www.amazon.com/gp/help', what: { contactUrl: 'https://www.amazon.com/contact' } });
  });

  it('looks for the chat again on the page a case goes to, after a page without one (where an earlier case found it)', async () => {
    let url = 'https://shop.example/';
    const opens: string[] = [];
    const tab = {
      currentTabId: () => 5,
      restoreRefs: () => 0,
      observe: () => Promise.resolve({ url, title: 't', text: '[1] link "Orders"', elements: [{ ref: 1, role: 'link', name: 'Orders' }] }),
      act: (action: { kind: string; url?: string }) => {
        if (action.url) url = action.url;
        return Promise.resolve({ ok: true, message: 'ok', changed: true });
      },
    } satisfies TabEnvironment;
    const driver = {
      open: () => {
        opens.push(url);
        return Promise.resolve(url.endsWith('/help') ? { opened: true } : { opened: false, summary: 'no chat widget found' });
      },
      read: () => Promise.resolve(chatState([message('1', 'them', 'How can I help?')])),
    } as unknown as Pick<ChatDriver, 'open' | 'read' | 'send' | 'wait' | 'choose' | 'end'>;
    const memory = { get: () => Promise.resolve({ chatUrl: 'https://shop.example/help', vendor: 'crisp', at: 1 }), learn: () => Promise.resolve() };
    const env = createChatCaseEnvironment(driver, tab, { goal: 'Refund order 1234', memory });

    const first = await env.observe({ screenshot: false });
    expect(first.text).toContain('No support chat could be opened on this page: no chat widget found');
    expect(first.text).toContain('the support chat (crisp) was found at https://shop.example/help');
    // Looking again at the same page does not search it again; going where the chat was found does.
    await env.observe({ screenshot: false });
    expect(opens).toEqual(['https://shop.example/']);
    await env.act({ kind: 'navigate', url: 'https://shop.example/help' }, {});
    const there = await env.observe({ screenshot: false });
    expect(opens).toEqual(['https://shop.example/', 'https://shop.example/help']);
    expect(there.text).toContain('How can I help?');
    expect(there.chat?.lastFromThem).toBe('How can I help?');
  });
});
