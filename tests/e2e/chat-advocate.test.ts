import { beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../shared/protocol';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import { runTask, type TaskIo } from '../../scripts/task/run-task';
import type { TaskOptions } from '../../scripts/task/task-flags';
import { call, type ChatStep, draftInView } from './support/chat-script';
import { refIn } from './support/snapshot-refs';
import { CASE_FACTS, CASE_GOAL, useChatCases } from './support/chat-cases-setup';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

// Not on the shared fixture (tests/e2e/support/e2e-fixture.ts): each case is a run of `npm run task`, which starts a
// browser of its own (the CLI is what is tested); the chat pages and the model come from useChatCases.

// Deputy as the user's advocate in a support chat whose other side is a bot (issue 31): it notices the bot going round
// in circles and asks for a person the way the chat offers one, says honestly when no person can be reached, and keeps
// a case file (timed transcript, the facts that went out, support's dated promises) saved at every step, so it is
// there even when the chat closes mid-case. The built extension in Chromium, scripted support bots on the page, a
// scripted model over the real SDK.

const FACTS = CASE_FACTS;
const GOAL = CASE_GOAL;

const c = useChatCases({ steps: 30 });
const { playChat, received } = c;
const options = (scenario: string, overrides: Partial<TaskOptions> = {}): TaskOptions => c.options(`scenario=${scenario}`, overrides);

const io = (): TaskIo => c.io();
/** The chat the model was sent shows the bot's canned answer at least `n` times. */
const canned = (n: number): RegExp => new RegExp(`(?:Help Center for refund policies[\\s\\S]*){${n}}`);

/** Every model request's text: what Deputy told the model, all of it. */
const allRequests = (): string => c.fake.requests.map((request) => request.text).join('\n');

/** Only the facts the user gave, and nothing of theirs the user did not, went to support. */
function expectOnlyGivenFacts(support: string[]): void {
  const said = support.join('\n');
  expect(said).not.toContain(FACTS.email);
  for (const text of support) expect(text).not.toMatch(/\d{5,}/);
}

describe('an advocate in a support chat: past the bot, honest about people, a case file that outlives the chat', () => {
  it('meets a looping bot with the chat\'s own "Talk to a person" quick reply, and keeps the promise the person then makes', async () => {
    playChat([
      { ready: /How can I help you today/, reply: call('chat_send', { text: 'Hi, my order 1234 arrived damaged. I would like a refund, please.' }) },
      { ready: canned(1), reply: call('chat_send', { text: 'I would like a refund for order 1234, please.' }) },
      { ready: canned(2), reply: call('chat_send', { text: 'Can I get a refund for order 1234?' }) },
      { ready: /Alex here/, reply: call('chat_send', { text: 'Order 1234 arrived damaged; I would like a refund.' }) },
      { ready: /within 5 business days/, reply: call('chat_end', { outcome: 'agreed', summary: 'Alex approved a refund for order 1234 within 5 business days.' }) },
    ]);
    let support: string[] = [];
    let ext: ExtensionBrowser | undefined;
    let alarms: { name: string; scheduledTime: number }[] = [];
    const run = await runTask(options('loop'), io(), {
      onLaunched: (browser) => void (ext = browser),
      beforeClose: async (page) => {
        support = await received(page);
        const worker = await ext!.worker();
        alarms = (await worker.evaluate('chrome.alarms.getAll()')) as typeof alarms;
      },
    });
    const { record } = run;

    expect(record.status).toBe('completed');
    // Deputy itself chose the chat's quick reply once the bot had given the same answer twice more, not before.
    expect(support).toEqual([
      'Hi, my order 1234 arrived damaged. I would like a refund, please.',
      'I would like a refund for order 1234, please.',
      'Can I get a refund for order 1234?',
      'Talk to a person',
      'Order 1234 arrived damaged; I would like a refund.',
    ]);
    const chat = record.chat!;
    expect(chat.open).toBe(false);
    expect(chat.escalations).toHaveLength(2);
    expect(chat.escalations?.[1]).toMatch(/A person has joined the chat/);
    expect(chat.escalations?.[0]).toMatch(/same canned answer again twice.*choosing the chat's quick reply "Talk to a person"/s);
    // The model was told what Deputy did, inside the transcript it was sent.
    expect(allRequests()).toContain('Deputy asked for a person by choosing the chat');
    // The case file: goal, the facts that went out, the promise quoted with its due day and a screenshot, times.
    expect(chat.goal).toBe(GOAL);
    expect(chat.factsShared).toEqual(['order_number']);
    expect(chat.promises).toHaveLength(1);
    expect(chat.promises?.[0]).toMatchObject({ quote: 'I have approved the refund: you will receive it within 5 business days.', when: 'within 5 business days' });
    expect(chat.promises?.[0]?.dueAt).toBeGreaterThan(Date.now() + 4 * 86_400_000);
    expect(chat.promises?.[0]?.shotStep).toEqual(expect.any(Number));
    // The promise is a reminder: an alarm at its due time wakes Deputy to tell the user and note it in the case.
    expect(alarms).toContainEqual(expect.objectContaining({ name: `deputy-promise:${record.id}:0`, scheduledTime: chat.promises?.[0]?.dueAt }));
    expect(chat.transcript.every((message) => typeof message.at === 'number' && message.at > 0)).toBe(true);
    expect(chat.transcript.map((message) => message.text)).toContain('Alex joined the conversation');
    expectOnlyGivenFacts(support);
  });

  it('types the vendor\'s keyword where the chat offers no button, and tells the model plainly when no person can be reached', async () => {
    playChat([
      { ready: /How can I help you today/, reply: call('chat_send', { text: 'Hi, my order 1234 arrived damaged. I would like a refund, please.' }) },
      { ready: canned(1), reply: call('chat_send', { text: 'I would like a refund for order 1234, please.' }) },
      { ready: canned(2), reply: call('chat_send', { text: 'Can I get a refund for order 1234?' }) },
      { ready: /No agents are available/, reply: call('chat_send', { text: 'I still need a refund for order 1234.' }) },
      { ready: canned(4), reply: call('chat_send', { text: 'Please refund order 1234.' }) },
      { ready: /no person could be reached/, reply: call('chat_end', { outcome: 'no_reply', summary: 'Only a bot answered; no person could be reached in the chat.' }) },
    ]);
    let support: string[] = [];
    const run = await runTask(options('nohuman'), io(), { beforeClose: async (page) => void (support = await received(page)) });
    const { record } = run;

    // Crisp's bots answer the keyword "human"; Deputy typed it once, and no second try after support said no.
    expect(support.filter((text) => /human|agent|person/i.test(text))).toEqual(['human']);
    const chat = record.chat!;
    expect(chat.escalations).toHaveLength(2);
    expect(chat.escalations?.[1]).toMatch(/Support said no person is available: "No agents are available right now/);
    expect(chat.escalations?.[1]).toMatch(/Tell the user plainly that no person could be reached/);
    expect(allRequests()).toMatch(/no person could be reached in this chat; do not pretend otherwise/);
    expect(chat.promises).toEqual([]);
    expectOnlyGivenFacts(support);
  });

  it('keeps the case file saved at every step, and the transcript when support closes the chat mid-case', async () => {
    playChat([
      { ready: /How can I help you today/, reply: call('chat_send', { text: 'Hi, my order 1234 arrived damaged. I would like a refund, please.' }) },
      { ready: canned(1), reply: call('chat_send', { text: 'I would like a refund for order 1234, please.' }) },
      { ready: canned(2), reply: call('chat_send', { text: 'Can I get a refund for order 1234?' }) },
      { ready: /conversation has ended/, reply: call('chat_end', { outcome: 'no_reply', summary: 'Support closed the chat without an answer.' }) },
    ]);
    // While the case runs, History already holds its file (the chat or the tab could go at any moment).
    const seenOpen: TaskRecord[] = [];
    let watching = true;
    let watcher: Promise<void> | undefined;
    const watch = (browser: ExtensionBrowser): void => {
      watcher = (async () => {
        const panel = await browser.openExtensionPage('extension/sidepanel/index.html');
        // Every look at History until the case is closing: the last open record must already show our message.
        await waitUntil(
          'the case to close',
          async () => {
            const records = await uiCall(panel, 'task.list', { limit: 5 }).catch(() => [] as TaskRecord[]);
            for (const record of records) if (record.chat?.open) seenOpen.push(record);
            return !watching;
          },
          { everyMs: 150, timeoutMs: 300_000 },
        );
      })();
    };
    const run = await runTask(options('closes'), io(), {
      onLaunched: watch,
      beforeClose: async () => {
        watching = false;
        await watcher?.catch(() => undefined);
      },
    });
    const { record } = run;

    expect(seenOpen.length).toBeGreaterThan(0);
    const during = seenOpen.at(-1)!.chat!;
    expect(during.outcome).toBe('in progress');
    expect(during.transcript.some((message) => message.author === 'us')).toBe(true);
    const chat = record.chat!;
    expect(chat.open).toBe(false);
    expect(chat.transcript.map((message) => message.text)).toEqual(expect.arrayContaining(['Thank you for contacting us. We are closing this chat now.', 'This conversation has ended.']));
    expect(chat.transcript.filter((message) => message.text.includes('Help Center for refund policies'))).toHaveLength(2);
  });

  describe('escalates in writing when support closes the chat: a draft of the user\'s facts, sent through the contact form only if approved', () => {
    const writes: ChatStep[] = [
      { ready: /How can I help you today/, reply: call('chat_send', { text: 'Hi, my order 1234 arrived damaged. I would like a refund, please.' }) },
      { ready: canned(1), reply: call('chat_send', { text: 'I would like a refund for order 1234, please.' }) },
      { ready: canned(2), reply: call('chat_send', { text: 'Can I get a refund for order 1234?' }) },
      { ready: /drafted a written escalation/, reply: () => call('navigate', { url: c.server.url('/contact/') }) },
      { ready: /textbox "Your email"/, reply: (request) => call('type', { ref: refIn(request, 'textbox', /Your email/), text: FACTS.email }) },
      { reply: (request) => call('type', { ref: refIn(request, 'textbox', /Subject/), text: draftInView(request).subject }) },
      { reply: (request) => call('type', { ref: refIn(request, 'textbox', /Message/), text: draftInView(request).body }) },
      { reply: (request) => call('click', { ref: refIn(request, 'button', /Send message/) }) },
      { reply: call('chat_end', { outcome: 'no_reply', summary: 'Support closed the chat; Deputy wrote to them through the contact form.' }) },
    ];
    /** The contact form's sendings since the test began (the server serves the whole file). */
    let from = 0;
    beforeEach(() => void (from = c.server.requests.length));
    const sent = (): URL[] => c.server.requests.slice(from).filter((request) => request.includes('/contact/sent')).map((request) => new URL(`http://${request}`));

    it('approved: the form carries the draft, and the draft only the goal, the order number and what support said', async () => {
      playChat(writes);
      const run = await runTask(options('closes', { approve: 'all' }), io());
      const written = run.record.chat?.written;
      expect(written).toMatchObject({ via: 'contact_form', factsUsed: ['order_number'] });
      expect(written?.reason).toMatch(/^support closed the chat/);
      // The approval card showed the draft before anything went.
      const approval = c.lines.find((line) => line.includes('approval needed'));
      expect(approval).toContain('it sends support the written message Deputy drafted from the case file');
      expect(approval).toContain('I am writing about this: Get a refund for order 1234');
      const [form] = sent();
      expect(sent()).toHaveLength(1);
      expect(form?.searchParams.get('email')).toBe(FACTS.email);
      expect(form?.searchParams.get('subject')).toBe(written?.subject);
      const message = form?.searchParams.get('message') ?? '';
      expect(message.replace(/\r\n/g, '\n')).toBe(written?.body);
      expect(message).toContain('- Order number: 1234');
      // Nothing beyond the user's facts: the only number in it is the order number, besides times Deputy saw.
      expect(new Set(message.replace(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/g, '').match(/\d+/g))).toEqual(new Set(['1234']));
      expect(message).not.toContain(FACTS.email);
    });

    it('declined: nothing is sent, and the case keeps the draft', async () => {
      playChat(writes);
      const run = await runTask(options('closes', { approve: 'none' }), io());
      expect(sent()).toEqual([]);
      expect(run.record.chat?.written?.body).toContain('I am writing about this: Get a refund for order 1234');
      const click = (run.record.agent?.steps ?? []).flatMap((step) => step.calls).find((call) => call.name === 'click');
      expect(click).toMatchObject({ decision: 'ask' });
      expect(click?.status).not.toBe('finished');
    });
  });
});
