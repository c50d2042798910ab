import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../shared/agent/agent-state';
import type { PendingApproval, TaskRecord } from '../../shared/protocol';
import { chatFixtureRoutes } from '../fixtures/chat/chat-routes';
import { UNKNOWN_VENDOR_FIXTURE, VENDOR_FIXTURES, type VendorFixture, vendorFramePath, vendorPage, vendorPath } from '../fixtures/chat/vendor-fixtures';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { currentView } from '../fixtures/fake-provider/prompt-view';
import { CASE_FACTS, CASE_GOAL } from './support/chat-cases-setup';
import { call, callsSoFar, type ChatStep, draftInView, playChat } from './support/chat-script';
import { useE2e } from './support/e2e-fixture';
import { PANEL } from './support/panel-harness';
import { refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

// Support cases end to end (issue 31), on one browser: a generated matrix of scripted support bots (one that loops
// with no person behind it, one that hands over to a person after the right request, one that closes the chat
// mid-case, one that promises a date) against vendor widgets of every kind (in the page, in shadow roots, in blank,
// same-site and cross-site frames), each asserting zero commitments without approval and zero facts beyond the
// user's; then element banning and site memory on a store whose chat is two clicks away, and History's view of a
// written escalation. The built extension in Chromium, realistic host names on loopback, a scripted model over the
// real SDK.

const FACTS = CASE_FACTS;
/** A phone number the user never gave: the scripted model tries to hand it to support in every case. */
const PHONE = '+1 415 555 0134';
const STEPS = 30;

const e2e = useE2e({
  model: 'act',
  stepBudget: STEPS,
  downloads: true,
  loadRoutes: async () => {
    const chat = await chatFixtureRoutes();
    return (url) => {
      // The shop on shop.test; a vendor's own frame (cross-site) on widget.test, as a real vendor's CDN would be.
      const named = (path: string, host?: string): string => url(path, host === 'localhost' ? 'widget.test' : 'shop.test');
      return { ...chat(named), ...storePages(named) };
    };
  },
});

/** A store whose support chat is on its help page: its home and orders pages have none, and a "Live chat" button that does nothing. */
function storePages(url: (path: string, host?: string) => string): Record<string, string> {
  const nav = '<nav><a href="/store/orders/">Order status</a> <a href="/store/help/?scenario=promise">Help &amp; contact</a></nav><p><button type="button">Live chat</button></p>';
  const crisp = VENDOR_FIXTURES.find((fixture) => fixture.vendor === 'crisp')!;
  return {
    '/store/': `<!doctype html><title>Store</title><h1>Store</h1>${nav}<p>New arrivals every week.</p>`,
    '/store/orders/': `<!doctype html><title>Your orders</title><h1>Your orders</h1>${nav}<p>Sign in to see your orders.</p>`,
    '/store/help/': vendorPage(crisp, url(vendorFramePath('crisp'))).replace('<h1>Acme shop</h1>', `<h1>Help &amp; contact</h1>${nav}`),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Running a case the way the side panel starts one, answering its approvals and questions as a careful user would.

interface CaseRun {
  record: TaskRecord;
  approvals: PendingApproval[];
  /** What the support side received, in order (read from the widget before the tab closes). */
  received: string[];
  /** The model requests of this case. */
  requests: RecordedRequest[];
}

const FINISHED = new Set(['completed', 'failed', 'stopped', 'handed_to_user']);

type Decide = (approval: PendingApproval) => 'approve' | 'approve_site' | 'reject';

/**
 * A careful user: lets Deputy act on the site of the chat's own widget frame (a low-risk step the card offers to
 * approve for that site), approves the sending of the written escalation Deputy drafted (unless `draft` says no), and
 * declines everything else: every commitment.
 */
const carefulUser =
  (draft: 'approve' | 'reject' = 'approve'): Decide =>
  (approval) =>
    /written message Deputy drafted/.test(approval.reason) ? draft : approval.siteApproval ? 'approve_site' : 'reject';

async function runCase(url: string, steps: ChatStep[], decide: Decide = carefulUser()): Promise<CaseRun> {
  e2e.fake.drop();
  const from = e2e.fake.requests.length;
  playChat(e2e.fake, steps, STEPS);
  const helper = await e2e.helper();
  const { page, tabId } = await e2e.newTab();
  try {
    const started = await uiCall(helper, 'task.start', { tabId, text: CASE_GOAL, mode: 'act', flow: 'chat', facts: FACTS, url, files: [] });
    const approvals: PendingApproval[] = [];
    const answered = new Set<string>();
    // What support received, read from the widget (in whichever frame it lives) as the case goes: a case that ends on
    // the site's contact page has left the chat's page by then. The list only grows, so the longest read is the last.
    let received: string[] = [];
    const readReceived = async (): Promise<void> => {
      const lists = await Promise.all(page.frames().map((frame) => frame.evaluate('window.deputySupportReceived || []').catch(() => []) as Promise<string[]>));
      const now = lists.flat();
      if (now.length >= received.length) received = now;
    };
    const record = await waitUntil(
      'the support case to end',
      async () => {
        await readReceived();
        const now = await uiCall(helper, 'task.get', { taskId: started.id });
        if (!now) throw new Error('The case is gone');
        if (FINISHED.has(now.status)) return now;
        if (now.approval && !answered.has(now.approval.id)) {
          answered.add(now.approval.id);
          approvals.push(now.approval);
          await uiCall(helper, 'task.approve', { taskId: started.id, approvalId: now.approval.id, decision: decide(now.approval) });
        }
        if (now.question && !answered.has(now.question.id)) {
          answered.add(now.question.id);
          await uiCall(helper, 'task.answer', { taskId: started.id, questionId: now.question.id, answer: 'Do not share anything I did not give you.' });
        }
        return null;
      },
      { timeoutMs: 180_000, everyMs: 200 },
    );
    await readReceived();
    return { record, approvals, received, requests: e2e.fake.requests.slice(from) };
  } finally {
    e2e.fake.drop();
    await page.close();
  }
}

const callsOf = (record: TaskRecord): CallRecord[] => (record.agent?.steps ?? []).flatMap((step) => step.calls);
const argsOf = (c: CallRecord): Record<string, unknown> => JSON.parse(c.arguments) as Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------------------
// The bots, and what a model does with each. Every script also tries, early on, the two things Deputy must stop: a
// fact the user never gave (a phone number) and a commitment (taking the store credit).

/** The chat the model was sent shows the looping bot's canned answer at least `n` times. */
const canned = (n: number): RegExp => new RegExp(`(?:Help Center for refund policies[\\s\\S]*){${n}}`);
const OPENING = 'Hi, my order 1234 arrived damaged. I would like a refund, please.';
const tries = (commit: ChatStep['reply']): ChatStep[] => [
  { reply: call('chat_send', { text: `You can also reach me on ${PHONE}.` }) },
  { reply: commit },
];
const acceptCredit = call('chat_send', { text: 'OK, I accept the store credit instead.' });

interface Bot {
  scenario: string;
  what: string;
  steps: () => ChatStep[];
  /** What this bot's case must show besides the rules every case keeps. */
  check: (run: CaseRun, declineDraft: boolean) => void;
}

const BOTS: Bot[] = [
  {
    scenario: 'nohuman',
    what: 'loops, and no person can be reached',
    steps: () => [
      { ready: /How can I help you today/, reply: call('chat_send', { text: OPENING }) },
      { ready: canned(1), reply: call('chat_send', { text: 'I would like a refund for order 1234, please.' }) },
      ...tries(acceptCredit),
      { ready: canned(2), reply: call('chat_send', { text: 'Can I get a refund for order 1234?' }) },
      // Deputy asks for a person itself here; support says nobody is available, and the bot loops on.
      { ready: /No agents are available/, reply: call('chat_send', { text: 'I still need a refund for order 1234.' }) },
      { ready: canned(4), reply: call('chat_send', { text: 'Please refund order 1234.' }) },
      { ready: /no person could be reached/, reply: call('chat_end', { outcome: 'no_reply', summary: 'Only a bot answered; no person could be reached in the chat.' }) },
    ],
    check: ({ record, received, requests }) => {
      // Deputy asked for a person once, and told the model plainly that nobody came.
      expect(received.filter((text) => /\b(human|agent|person|representative)\b/i.test(text))).toHaveLength(1);
      expect(record.chat?.escalations?.at(-1)).toMatch(/Tell the user plainly that no person could be reached/);
      expect(requests.some((request) => /no person could be reached in this chat; do not pretend otherwise/.test(request.text))).toBe(true);
    },
  },
  {
    scenario: 'loop',
    what: 'loops, then hands over to a person who promises a date',
    steps: () => [
      { ready: /How can I help you today/, reply: call('chat_send', { text: OPENING }) },
      { ready: canned(1), reply: call('chat_send', { text: 'I would like a refund for order 1234, please.' }) },
      ...tries(acceptCredit),
      { ready: canned(2), reply: call('chat_send', { text: 'Can I get a refund for order 1234?' }) },
      { ready: /Alex here/, reply: call('chat_send', { text: 'Order 1234 arrived damaged; I would like a refund.' }) },
      { ready: /within 5 business days/, reply: call('chat_end', { outcome: 'agreed', summary: 'Alex approved a refund for order 1234 within 5 business days.' }) },
    ],
    check: ({ record }) => {
      expect(record.chat?.escalations?.[0]).toMatch(/Deputy asked for a person by (choosing the chat's quick reply "Talk to a person"|typing)/);
      expect(record.chat?.transcript.map((message) => message.text)).toContain('Alex joined the conversation');
      expect(record.chat?.promises?.map((promise) => promise.when)).toEqual(['within 5 business days']);
    },
  },
  {
    scenario: 'closes',
    what: 'closes the chat mid-case, so Deputy writes through the contact form',
    steps: () => {
      return [
        { ready: /How can I help you today/, reply: call('chat_send', { text: OPENING }) },
        { ready: canned(1), reply: call('chat_send', { text: 'I would like a refund for order 1234, please.' }) },
        ...tries(acceptCredit),
        { ready: canned(2), reply: call('chat_send', { text: 'Can I get a refund for order 1234?' }) },
        { ready: /drafted a written escalation/, reply: () => call('navigate', { url: e2e.site.url('/contact/', 'shop.test') }) },
        { ready: /textbox "Your email"/, reply: (request) => call('type', { ref: refIn(request, 'textbox', /Your email/), text: FACTS.email }) },
        { reply: (request) => call('type', { ref: refIn(request, 'textbox', /Subject/), text: draftInView(request).subject }) },
        { reply: (request) => call('type', { ref: refIn(request, 'textbox', /Message/), text: draftInView(request).body }) },
        { reply: (request) => call('click', { ref: refIn(request, 'button', /Send message/) }) },
        { reply: call('chat_end', { outcome: 'no_reply', summary: 'Support closed the chat; Deputy wrote to them through the contact form.' }) },
      ];
    },
    check: ({ record, approvals }, declineDraft) => {
      const written = record.chat?.written;
      expect(written?.reason).toMatch(/^support closed the chat/);
      expect(written?.factsUsed).toEqual(['order_number']);
      // The draft holds the user's order number and nothing else of theirs; the only number in it besides the times.
      expect(new Set(written?.body.replace(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/g, '').match(/\d+/g))).toEqual(new Set(['1234']));
      expect(written?.body).not.toContain(FACTS.email);
      expect(approvals.filter((approval) => /written message Deputy drafted/.test(approval.reason))).toHaveLength(1);
      expect(written?.sending?.status).toBe(declineDraft ? 'declined' : 'sent');
    },
  },
  {
    scenario: 'promise',
    what: 'promises a date at once, and offers a store credit instead',
    steps: () => [
      { ready: /How can I help you today/, reply: call('chat_send', { text: OPENING }) },
      ...tries(call('chat_choose', { choice: 'Accept store credit' })).map((step) => ({ ready: /Accept store credit/, ...step })),
      { reply: call('chat_end', { outcome: 'agreed', summary: 'Support approved the refund for order 1234, to arrive within 3 business days.' }) },
    ],
    check: ({ record, received }) => {
      expect(record.chat?.promises?.[0]).toMatchObject({ quote: 'Your refund is approved: you will receive it within 3 business days.', when: 'within 3 business days' });
      expect(received).not.toContain('Accept store credit');
    },
  },
];

/**
 * The matrix: every bot on every vendor's widget with CHAT_MATRIX=full. By default it is cut to a cover that keeps
 * the suite short: the widgets are ordered one of each way a widget is built first (in the page, open and closed
 * shadow roots, a blank frame, a same-site frame, a cross-site frame, a cross-site frame with a closed shadow root
 * inside, no known vendor), and bots take turns on them, so every kind of widget meets a bot and every bot meets two
 * kinds. The closing bot's second case declines the written escalation, its first approves it.
 */
function matrix(): { bot: Bot; widget: VendorFixture; declineDraft: boolean }[] {
  const all = [...VENDOR_FIXTURES, UNKNOWN_VENDOR_FIXTURE];
  const kind = (fixture: VendorFixture): string => `${fixture.mode}+${fixture.innerShadow ?? ''}+${fixture === UNKNOWN_VENDOR_FIXTURE ? 'unknown' : ''}`;
  const firsts = all.filter((fixture, index) => all.findIndex((other) => kind(other) === kind(fixture)) === index);
  const widgets = [...firsts, ...all.filter((fixture) => !firsts.includes(fixture))];
  const pairs =
    process.env.CHAT_MATRIX === 'full'
      ? BOTS.flatMap((bot) => widgets.map((widget) => ({ bot, widget })))
      : Array.from({ length: Math.max(BOTS.length * 2, firsts.length) }, (_, index) => ({ bot: BOTS[index % BOTS.length]!, widget: widgets[index % widgets.length]! }));
  return pairs.map((pair, index) => ({ ...pair, declineDraft: pairs.slice(0, index).filter((earlier) => earlier.bot === pair.bot).length % 2 === 1 }));
}

/** The cases the matrix ran, for History's test to open. */
const ran: { scenario: string; run: CaseRun }[] = [];

/** Every number in what went to support, but the user's order number: none may be there. */
const numbersBeyondFacts = (texts: string[]): string[] => texts.flatMap((text) => text.match(/\d+/g) ?? []).filter((number) => number !== FACTS.order_number);

describe('support cases against scripted bots on every kind of widget: no commitment without approval, no fact beyond the user\'s', () => {
  for (const { bot, widget, declineDraft } of matrix()) {
    const where = `${widget.name}'s widget (${widget.mode}${widget.innerShadow ? ` + ${widget.innerShadow} shadow` : ''})`;
    it(`${bot.scenario} bot (${bot.what}) in ${where}${bot.scenario === 'closes' ? (declineDraft ? ', the draft declined' : ', the draft approved') : ''}`, async () => {
      const run = await runCase(`${e2e.site.url(vendorPath(widget.vendor), 'shop.test')}?scenario=${bot.scenario}`, bot.steps(), carefulUser(declineDraft ? 'reject' : 'approve'));
      ran.push({ scenario: bot.scenario, run });
      const { record, received } = run;
      const calls = callsOf(record);
      const context = `${bot.scenario} × ${widget.vendor}: ${record.status} ${record.chat?.summary ?? ''}\napprovals: ${JSON.stringify(run.approvals.map((a) => [a.reason, a.siteApproval]))}\nreceived: ${JSON.stringify(received)}\nthe model was last sent:\n${run.requests.length > 0 ? currentView(run.requests.at(-1)!).slice(0, 3000) : 'nothing'}`;
      expect(record.chat?.open, context).toBe(false);
      expect(received[0], context).toBe(OPENING);

      // Zero facts beyond the user's: the phone number was stopped by the gate, and the user was asked what to do.
      const phone = calls.find((c) => c.name === 'chat_send' && String(argsOf(c).text).includes('415'));
      expect(phone?.status, context).toBe('denied');
      expect(phone?.result?.content).toMatch(/a phone number, which is not among the facts/);
      expect(received.join('\n')).not.toContain('415');
      expect(received.join('\n')).not.toContain(FACTS.email);
      expect(numbersBeyondFacts(received), context).toEqual([]);
      expect(record.chat?.factsShared?.every((name) => name in FACTS)).toBe(true);

      // Zero commitments without approval: every call that commits (money, account) asked first, and as the user
      // declined, none went; support never heard a yes to the credit.
      const committing = calls.filter((c) => c.classes.some((risk) => risk === 'money' || risk === 'account' || risk === 'commitment'));
      expect(committing.length, context).toBeGreaterThan(0);
      for (const c of committing) expect({ name: c.name, decision: c.decision, status: c.status }).toEqual({ name: c.name, decision: 'ask', status: 'denied' });
      expect(received.filter((text) => /accept|store credit/i.test(text)), context).toEqual([]);

      bot.check(run, declineDraft);
    });
  }
});

describe('a case does not offer again what led nowhere, and the next case on the site starts from what the first learned', () => {
  const STORE = (): string => e2e.site.url('/store/', 'store.test');
  /** Whether the page the model was sent (this turn's view) offers the element. */
  const offers = (request: RecordedRequest, line: RegExp): boolean => line.test(currentView(request));
  // An element as the snapshot lists it, on a line of its own (`*[4]` when new since the last look), not as a step's
  // verification names what it clicked.
  const LIVE_CHAT = /^\s*\*?\[\d+\] button "Live chat"/m;
  const ORDER_STATUS = /^\s*\*?\[\d+\] link "Order status"/m;
  const HELP = /^\s*\*?\[\d+\] link "Help & contact"/m;

  it('hides a button that changed nothing and a link after which no chat came, for the rest of the case', async () => {
    const run = await runCase(STORE(), [
      { ready: /No support chat could be opened on this page/, reply: (request) => call('click', { ref: refIn(request, 'button', /^Live chat$/) }) },
      { ready: /Hidden in this case because they led nowhere/, reply: (request) => call('click', { ref: refIn(request, 'link', /^Order status$/) }) },
      { ready: /Your orders/, reply: (request) => call('click', { ref: refIn(request, 'link', /^Help & contact$/) }) },
      { ready: /How can I help you today/, reply: call('chat_send', { text: OPENING }) },
      { ready: /within 3 business days/, reply: call('chat_end', { outcome: 'agreed', summary: 'Support approved the refund for order 1234 within 3 business days.' }) },
    ]);
    expect(run.record.chat?.outcome, run.record.chat?.summary).toBe('agreed');
    const clicks = (request: RecordedRequest): number => callsSoFar(request).filter((name) => name === 'click').length;
    const pages = run.requests.filter((request) => /<untrusted_/.test(currentView(request)));
    const before = pages.filter((request) => clicks(request) === 0);
    const afterButton = pages.filter((request) => clicks(request) >= 1);
    const afterLink = pages.filter((request) => clicks(request) >= 2);
    // Both were offered at first; once each led nowhere, no request of the case offered it again (on any page).
    expect(before.length).toBeGreaterThan(0);
    for (const request of before) expect(offers(request, LIVE_CHAT) && offers(request, ORDER_STATUS)).toBe(true);
    expect(afterButton.length).toBeGreaterThan(0);
    for (const request of afterButton) expect(offers(request, LIVE_CHAT), currentView(request).slice(0, 1500)).toBe(false);
    expect(afterLink.length).toBeGreaterThan(0);
    for (const request of afterLink) expect(offers(request, ORDER_STATUS), currentView(request).slice(0, 1500)).toBe(false);
    expect(currentView(afterButton[0]!)).toContain('[Hidden in this case because they led nowhere: button "Live chat" (clicked, nothing changed)]');
    expect(currentView(afterLink[0]!)).toMatch(/Hidden in this case because they led nowhere: .*link "Order status" \(clicked, no chat came\)/);
    // The link that did lead to the chat is still offered: only dead ends are hidden.
    expect(offers(afterLink[0]!, HELP), currentView(afterLink[0]!).slice(0, 2500)).toBe(true);
  });

  it('tells the next case where the chat was, and the case goes there directly; what the first banned is offered again', async () => {
    const help = `${e2e.site.url('/store/help/', 'store.test')}?scenario=promise`;
    const learned = /In an earlier case on this site the support chat \(crisp\) was found at (\S+)\./;
    const run = await runCase(STORE(), [
      { ready: learned, reply: (request) => call('navigate', { url: learned.exec(currentView(request))![1] }) },
      { ready: /How can I help you today/, reply: call('chat_send', { text: OPENING }) },
      { ready: /within 3 business days/, reply: call('chat_end', { outcome: 'agreed', summary: 'Support approved the refund for order 1234 within 3 business days.' }) },
    ]);
    const first = run.requests.find((request) => /<untrusted_/.test(currentView(request)))!;
    expect(learned.exec(currentView(first))?.[1]).toBe(help);
    // Bans belong to a case: this case's first look offers what the earlier case hid.
    expect(offers(first, LIVE_CHAT) && offers(first, ORDER_STATUS)).toBe(true);
    expect(run.record.chat?.outcome, run.record.chat?.summary).toBe('agreed');
    expect(callsOf(run.record).map((c) => c.name).filter((name) => name !== 'chat_wait')).toEqual(['navigate', 'chat_send', 'chat_end']);
    expect(run.received).toEqual([OPENING]);
  });
});

describe("History shows a case's written escalation and whether it went", () => {
  it('the draft, its reason and where it stands: sent with approval, or declined', async () => {
    // The closing bot's cases of the matrix (one approved, one declined), or two of their own when run alone.
    const closes = BOTS.find((bot) => bot.scenario === 'closes')!;
    const crisp = `${e2e.site.url(vendorPath('crisp'), 'shop.test')}?scenario=closes`;
    const ofStatus = (status: string): CaseRun | undefined => ran.find((entry) => entry.scenario === 'closes' && entry.run.record.chat?.written?.sending?.status === status)?.run;
    const sent = ofStatus('sent') ?? (await runCase(crisp, closes.steps()));
    const declined = ofStatus('declined') ?? (await runCase(crisp, closes.steps(), carefulUser('reject')));
    expect(sent.record.chat?.written?.sending?.status).toBe('sent');
    expect(declined.record.chat?.written?.sending?.status).toBe('declined');

    const panel = await e2e.ext.openExtensionPage(PANEL);
    try {
      await panel.waitForSelector('[data-testid=flow-history]');
      for (const [run, status, words] of [
        [sent, 'sent', /^Sent with your approval \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)$/],
        [declined, 'declined', /^Not sent: you declined it/],
      ] as const) {
        await panel.click('[data-testid=flow-history]');
        if (await panel.$('[data-testid=history-back]')) await panel.click('[data-testid=history-back]');
        await panel.waitForSelector(`[data-testid=history-item][data-task-id="${run.record.id}"]`);
        await panel.click(`[data-testid=history-item][data-task-id="${run.record.id}"]`);
        await panel.waitForSelector('[data-testid=case-written]');
        const shown = await panel.$eval('[data-testid=case-written]', (element) => ({
          status: element.getAttribute('data-status'),
          words: element.querySelector('[data-testid=case-written-status]')?.textContent ?? '',
          subject: element.querySelector('[data-testid=case-written-subject]')?.textContent ?? '',
          body: element.querySelector('[data-testid=case-written-body]')?.textContent ?? '',
          text: element.textContent ?? '',
        }));
        const written = run.record.chat!.written!;
        expect(shown.status).toBe(status);
        expect(shown.words).toMatch(words);
        expect(shown.subject).toBe(`Subject: ${written.subject}`);
        expect(shown.body).toBe(written.body);
        expect(shown.text).toContain(`because ${written.reason}`);
        if (status !== 'sent') continue;
        // The case file the user exports (Markdown and PDF) says the same.
        await panel.click('[data-testid=export-report]');
        await panel.click('[data-testid=export-case-pdf]');
        const file = async (extension: string): Promise<string> => {
          const name = await waitUntil(`the ${extension} export`, async () => (await readdir(e2e.downloads)).find((entry) => entry.endsWith(extension)));
          return readFile(join(e2e.downloads, name), 'latin1');
        };
        const markdown = await file('.md');
        expect(markdown).toContain('### Written escalation');
        expect(markdown).toMatch(/\*\*Sent with your approval \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)\*\*/);
        expect(markdown).toContain(`> **Subject:** ${written.subject}`);
        const pdf = await file('.pdf');
        expect(pdf.startsWith('%PDF-')).toBe(true);
        expect(pdf).toContain('Written escalation');
        expect(pdf).toContain('Sent with your approval');
      }
    } finally {
      await panel.close();
    }
  });
});
