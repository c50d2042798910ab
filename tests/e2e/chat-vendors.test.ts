import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatState } from '../../shared/protocol';
import { chatFixtureRoutes } from '../fixtures/chat/chat-routes';
import { UNKNOWN_VENDOR_FIXTURE, VENDOR_FIXTURES, expectedChatFrameUrl, vendorPath, type VendorFixture } from '../fixtures/chat/vendor-fixtures';
import { useE2e } from './support/e2e-fixture';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

/** Long beside the fixture's bursts (tens of ms apart), so a reply is never cut short; it only sets how long a wait lasts. */
const QUIET_MS = 300;

const GREETING = (fixture: VendorFixture): string[] => [`Hi! This is Sam from ${fixture.name} support.`, 'How can I help you today?'];
const REFUND_REPLY = ['Sorry to hear that your order arrived damaged.', 'I can help with a refund right away.', 'What is your order number?'];

/**
 * Whether the text is on the page as a user sees it: in the accessibility tree, which takes in every frame (a vendor's
 * chat lives in a frame of its own, often of another site) and closed shadow roots alike.
 */
async function pageShows(page: Page, text: string): Promise<boolean> {
  type Node = { name?: string; children?: Node[] };
  const has = (node: Node | null): boolean => !!node && ((node.name ?? '').includes(text) || (node.children ?? []).some(has));
  return has(await page.accessibility.snapshot({ interestingOnly: false, includeIframes: true }));
}

function texts(messages: ChatState['messages'], author?: 'us' | 'them' | 'system'): string[] {
  return messages.filter((message) => author === undefined || message.author === author).map((message) => message.text);
}

describe('support chat driver on the vendor fixtures, in Chromium with the built extension', () => {
  // DEPUTY_EXTENSION_DIR runs the file against another build of the extension than dist/ (the fixture reads it).
  const e2e = useE2e({ loadRoutes: chatFixtureRoutes });
  let panel: Page;

  beforeAll(async () => {
    panel = await e2e.helper();
  });

  async function openTab(path: string): Promise<{ page: Page; tabId: number }> {
    const page = await e2e.ext.browser.newPage();
    const url = e2e.site.url(path);
    await page.goto(url, { waitUntil: 'load' });
    const tabs = await panel.evaluate(() => chrome.tabs.query({}));
    const tab = tabs.find((candidate) => candidate.url === url);
    if (tab?.id === undefined) throw new Error(`No tab shows ${url}`);
    return { page, tabId: tab.id };
  }

  /** The scripted refund conversation every fixture supports, driven and checked step by step. */
  async function converse(page: Page, tabId: number, fixture: VendorFixture): Promise<void> {
    const greeting = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    expect(greeting.status).toBe('replied');
    expect(texts(greeting.newMessages)).toEqual(GREETING(fixture));
    expect(greeting.state.choices.map((choice) => choice.label)).toEqual(['Track my order', 'Request a refund', 'Talk to a human']);

    const chosen = await uiCall(panel, 'chat.choose', { tabId, choice: 'request a refund' });
    expect(chosen.chosen).toBe('Request a refund');
    const refund = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    expect(refund.status).toBe('replied');
    // All three bursts, the streamed one whole: the wait did not stop at the first burst or mid-stream.
    expect(texts(refund.newMessages)).toEqual(REFUND_REPLY);
    expect(refund.typingSeen).toBe(true);
    expect(refund.state.typing).toBe(false);
    expect(refund.state.forms).toHaveLength(1);
    expect(refund.state.forms[0]?.fields.map((field) => field.label)).toEqual(['Order number', 'Email']);

    const filled = await uiCall(panel, 'chat.fill', { tabId, values: { 'order number': '1234', email: 'me@example.com' } });
    expect(filled).toMatchObject({ filled: ['Order number', 'Email'], submitted: true });
    // Support has typed and answered before anyone waits: the typing it showed in between still counts.
    await waitUntil('support\'s answer to the form on the page', () => pageShows(page, 'Could you upload a photo of the damage?'));
    const thanks = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    expect(thanks.typingSeen).toBe(true);
    expect(texts(thanks.newMessages)).toEqual(['Thanks! I found order #1234.', 'Could you upload a photo of the damage?']);
    expect(thanks.state.uploads).toEqual([{ label: 'Photo of the damage', accept: 'image/*' }]);

    const sent = await uiCall(panel, 'chat.send', { tabId, text: 'Is a photo from my phone fine?' });
    expect(sent).toMatchObject({ sent: true, via: fixture.submit });
    const answer = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    expect(texts(answer.newMessages)).toEqual(['Let me check that for you.', 'Could you tell me a little more?']);

    const transcript = await uiCall(panel, 'chat.read', { tabId });
    expect(transcript.messages.map((message) => [message.author, message.text])).toEqual([
      ...GREETING(fixture).map((text) => ['them', text]),
      ['us', 'Request a refund'],
      ...REFUND_REPLY.map((text) => ['them', text]),
      ['us', 'Order number: 1234, email: me@example.com'],
      ['them', 'Thanks! I found order #1234.'],
      ['them', 'Could you upload a photo of the damage?'],
      ['us', 'Is a photo from my phone fine?'],
      ['them', 'Let me check that for you.'],
      ['them', 'Could you tell me a little more?'],
    ]);
    expect(transcript.messages.every((message) => message.time !== null)).toBe(true);
    expect(transcript.composer).toMatchObject({ found: true, disabled: false });
  }

  describe.each(VENDOR_FIXTURES.map((fixture) => [fixture.vendor, fixture] as const))('%s', (_vendor, fixture) => {
    it('is detected, opened by its API, and holds a refund conversation through the driver', async () => {
      const { page, tabId } = await openTab(vendorPath(fixture.vendor));

      const before = await uiCall(panel, 'chat.detect', { tabId });
      expect(before.found).toBe(true);
      expect(before.vendor).toBe(fixture.vendor);
      expect(before.confidence).toBeGreaterThanOrEqual(0.5);
      expect(before.evidence.map((item) => item.layer)).toEqual(expect.arrayContaining(['global', 'script']));

      const opened = await uiCall(panel, 'chat.open', { tabId });
      expect(opened).toMatchObject({ opened: true, how: 'api' });
      expect(opened.detection.vendor).toBe(fixture.vendor);
      expect(opened.detection.frameUrl).toBe(expectedChatFrameUrl(fixture, (path, host) => e2e.site.url(path, host)));

      await converse(page, tabId, fixture);
      await page.close();
    });
  });

  it.each(['crisp', 'drift', 'helpscout'])('opens %s by its launcher when the page API is missing', async (vendor) => {
    const { page, tabId } = await openTab(`${vendorPath(vendor)}?noapi=1`);
    const detection = await uiCall(panel, 'chat.detect', { tabId });
    expect(detection.vendor).toBe(vendor);
    expect(detection.evidence.some((item) => item.layer === 'global')).toBe(false);
    const opened = await uiCall(panel, 'chat.open', { tabId });
    expect(opened).toMatchObject({ opened: true, how: 'launcher' });
    const greeting = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    expect(greeting.newMessages.map((message) => message.author)).toEqual(['them', 'them']);
    await page.close();
  });

  it.each(['tidio', 'salesforce'])('reads the hand-over note in %s as a system message', async (vendor) => {
    const { page, tabId } = await openTab(vendorPath(vendor));
    await uiCall(panel, 'chat.open', { tabId });
    await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    await uiCall(panel, 'chat.choose', { tabId, choice: 2 });
    const handover = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    expect(handover.newMessages.map((message) => [message.author, message.text])).toEqual([
      ['system', 'Alex joined the conversation'],
      ['them', 'Hi, Alex here. How can I help?'],
    ]);
    await page.close();
  });

  it('finds a widget of no known vendor behind its launcher, in a closed shadow root, and converses through it', async () => {
    const { page, tabId } = await openTab(vendorPath(UNKNOWN_VENDOR_FIXTURE.vendor));
    const before = await uiCall(panel, 'chat.detect', { tabId });
    expect(before.found).toBe(false);
    const opened = await uiCall(panel, 'chat.open', { tabId });
    expect(opened).toMatchObject({ opened: true, how: 'launcher', summary: 'Opened by clicking "Chat with us"' });
    expect(opened.detection).toMatchObject({ found: true, vendor: 'generic', frameId: 0 });
    await converse(page, tabId, UNKNOWN_VENDOR_FIXTURE);
    await page.close();
  });

  it('counts the reply from our last action even when the service worker was stopped in between', async () => {
    const { page, tabId } = await openTab(vendorPath('crisp'));
    await uiCall(panel, 'chat.open', { tabId });
    await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    await uiCall(panel, 'chat.choose', { tabId, choice: 'Request a refund' });
    await (await e2e.ext.worker()).close();
    // The whole reply arrives while no worker runs; the next call starts a fresh one.
    await page.waitForFunction(() => document.body.innerText.includes('What is your order number?'));
    const refund = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    expect(refund.status).toBe('replied');
    expect(texts(refund.newMessages)).toEqual(REFUND_REPLY);
    await page.close();
  });

  it('ends a wait with a clear timeout when nobody answers', async () => {
    const { page, tabId } = await openTab(`${vendorPath('livechat')}?silent=1`);
    await uiCall(panel, 'chat.open', { tabId });
    await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    const sent = await uiCall(panel, 'chat.send', { tabId, text: 'Hello, is anyone there?' });
    expect(sent.sent).toBe(true);
    const wait = await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 1500, quietMs: QUIET_MS });
    expect(wait.status).toBe('timeout');
    expect(wait.newMessages).toEqual([]);
    expect(wait.summary).toMatch(/^No reply within 1\.5 s: nobody answered/);
    expect(texts(wait.state.messages, 'us')).toEqual(['Hello, is anyone there?']);
    await page.close();
  });

  it('says what it checked when a page has no chat, and refuses to drive one', async () => {
    const { page, tabId } = await openTab('/plain/');
    const detection = await uiCall(panel, 'chat.detect', { tabId });
    expect(detection.found).toBe(false);
    expect(detection.summary).toMatch(/^No chat widget found on this page: checked 1 frame for 17 vendors/);
    await expect(uiCall(panel, 'chat.read', { tabId })).rejects.toThrow(/not_found: No chat widget found/);
    await expect(uiCall(panel, 'chat.send', { tabId, text: 'hello' })).rejects.toThrow(/not_found/);
    await page.close();
  });

  it('answers bad requests with errors that say what to do', async () => {
    await expect(uiCall(panel, 'chat.detect', { tabId: 987_654 })).rejects.toThrow(/not_found: Tab 987654 cannot be read .*: it may be closed/);
    const { page, tabId } = await openTab(vendorPath('olark'));
    await expect(uiCall(panel, 'chat.send', { tabId, text: '' })).rejects.toThrow(/invalid_params: Invalid params for chat.send: text/);
    await uiCall(panel, 'chat.open', { tabId });
    await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    await uiCall(panel, 'chat.choose', { tabId, choice: 'Request a refund' });
    await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    await expect(uiCall(panel, 'chat.fill', { tabId, values: { 'Order number': '1234', 'Card number': '4111' } })).rejects.toThrow(
      /invalid_params: The chat form has no field "Card number"; its fields are: "Order number", "Email"/,
    );
    // Nothing was typed or sent: the form is still there, empty, to fill.
    const [form] = (await uiCall(panel, 'chat.read', { tabId })).forms;
    expect(form?.fields.map((field) => field.value)).toEqual(['', '']);
    await page.close();
  });

  it('answers a choice that is not offered with the choices that are', async () => {
    const { page, tabId } = await openTab(vendorPath('crisp'));
    await uiCall(panel, 'chat.open', { tabId });
    await uiCall(panel, 'chat.wait', { tabId, timeoutMs: 60_000, quietMs: QUIET_MS });
    await expect(uiCall(panel, 'chat.choose', { tabId, choice: 'Cancel my subscription' })).rejects.toThrow(
      /No choice "Cancel my subscription" in the chat; the choices offered are: "Track my order", "Request a refund", "Talk to a human"/,
    );
    await page.close();
  });
});
