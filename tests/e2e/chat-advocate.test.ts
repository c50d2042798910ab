import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../shared/protocol';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import { runTask, type TaskIo } from '../../scripts/task/run-task';
import type { TaskOptions } from '../../scripts/task/task-flags';
import { call } from './support/chat-script';
import { CASE_FACTS, CASE_GOAL, useChatCases } from './support/chat-cases-setup';
import { uiCall } from './support/ui-call';

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
        while (watching) {
          const records = await uiCall(panel, 'task.list', { limit: 5 }).catch(() => [] as TaskRecord[]);
          for (const record of records) if (record.chat?.open) seenOpen.push(record);
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
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
});
