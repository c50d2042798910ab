import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import {
  MailboxConfig,
  type MailboxConfigInput,
  type MailEvent,
  type MailResult,
} from '../../shared/protocol/mail-protocol';
import { describeMailEvent, describeMailResult, formatSize } from '../../shared/mail-text';
import { createImapSource } from '../../native-host/mail/imap-source';
import { markMailbox, waitForMailAttachment, type MailWaitOptions } from '../../native-host/mail/wait-for-mail';
import {
  attachment,
  PPTX_TYPE,
  renderMail,
  text,
  withAttachments,
  XLSX_TYPE,
  type TestMail,
} from '../fixtures/mail/build-mail';
import { makePptx, makeXlsx } from '../fixtures/mail/documents';
import { dovecotMissing, imapSettings, startDovecot, type Dovecot } from './support/dovecot';
import { waitUntil } from './support/wait-until';

/**
 * Output by email from a real IMAP server: Debian's Dovecot on 127.0.0.1 with a temp config, mail delivered by
 * dovecot-lda (as root) or IMAP APPEND, real PPTX/XLSX attachments, and the bad cases the issue lists: no attachment,
 * a path in the name, a huge and a disallowed attachment, an older matching mail, a connection dropped mid-IDLE, a
 * server without IDLE, STARTTLS, and a wrong password. Every event of every wait is checked for the password.
 */

const PASSWORD_ENV = 'DEPUTY_TEST_IMAP_PASSWORD';
const allEvents: MailEvent[] = [];
const runDirs: string[] = [];
let pptx: Buffer;
let xlsx: Buffer;

function mailbox(server: Dovecot, extra: Partial<MailboxConfigInput> = {}): MailboxConfig {
  return MailboxConfig.parse(imapSettings(server, PASSWORD_ENV, extra));
}

function waiter(server: Dovecot, config: MailboxConfig, options: Partial<MailWaitOptions> = {}) {
  const runFolder = mkdtempSync(join(tmpdir(), 'deputy-mail-run-'));
  runDirs.push(runFolder);
  const events: MailEvent[] = [];
  const env = { env: { [PASSWORD_ENV]: server.password }, baseDir: server.dir };
  const createSource = (box: MailboxConfig) => createImapSource(box as Extract<MailboxConfig, { kind: 'imap' }>, env);
  let onWaiting: () => void = () => undefined;
  const waiting = new Promise<void>((resolve) => (onWaiting = resolve));
  const onEvent = (event: MailEvent): void => {
    events.push(event);
    allEvents.push(event);
    if (event.type === 'waiting') onWaiting();
  };
  const result = (mark?: Awaited<ReturnType<typeof markMailbox>>): Promise<MailResult> =>
    waitForMailAttachment(
      config,
      { runFolder, timeoutMs: 60_000, ...(mark ? { since: mark } : {}), ...options, onEvent },
      { createSource },
    );
  const mark = () => markMailbox(config, { createSource });
  /** Marks the mailbox as a trigger would, starts the wait, and returns once it is waiting (with its result). */
  const started = async (): Promise<{ pending: Promise<MailResult> }> => {
    const pending = result(await mark());
    await waiting;
    return { pending };
  };
  return { runFolder, events, waiting, result, mark, started };
}

const report = (subject: string, ...parts: Parameters<typeof withAttachments>): TestMail => ({
  from: 'Reports <reports@service.test>',
  subject,
  body: withAttachments(...parts),
});

beforeAll(async () => {
  [pptx, xlsx] = await Promise.all([makePptx(), makeXlsx()]);
});
afterAll(() => {
  for (const dir of runDirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(dovecotMissing !== undefined)('mail output from Dovecot', () => {
  let server: Dovecot;
  beforeAll(async () => {
    server = await startDovecot();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes the report that arrives after the trigger (pushed by IDLE), not the older one already in the box', async () => {
    await server.deliver(
      renderMail(report('Weekly report (last week)', attachment('last-week.pptx', pptx, PPTX_TYPE))),
    );
    const wait = waiter(server, mailbox(server));
    const { pending } = await wait.started();
    await server.deliver(
      renderMail({
        from: 'Newsletter <news@elsewhere.test>',
        subject: 'Your weekly report digest',
        body: text('not ours'),
      }),
    );
    await server.deliver(
      renderMail(
        report('Weekly report', attachment('deck.pptx', pptx, PPTX_TYPE), attachment('figures.xlsx', xlsx, XLSX_TYPE)),
      ),
    );
    const result = await pending;
    expect(result.message).toMatchObject({ from: 'Reports <reports@service.test>', subject: 'Weekly report' });
    expect(result.saved.map((saved) => [saved.name, saved.type, saved.size])).toEqual([
      ['deck.pptx', 'pptx', pptx.length],
      ['figures.xlsx', 'xlsx', xlsx.length],
    ]);
    expect(readdirSync(wait.runFolder).sort()).toEqual(['deck.pptx', 'figures.xlsx']);
    const types = wait.events.map((event) => event.type);
    expect(types.slice(0, 2)).toEqual(['connected', 'waiting']);
    expect(wait.events[1]).toMatchObject({ mode: 'idle' });
    expect(wait.events.find((event) => event.type === 'ignored' && event.from.startsWith('Newsletter'))).toMatchObject({
      from: 'Newsletter <news@elsewhere.test>',
      why: 'the sender is not *@service.test',
    });
    expect(types.filter((type) => type === 'arrived')).toHaveLength(1);
    // The older report already in the box is said to be passed over, and why.
    expect(wait.events.find((event) => event.type === 'ignored' && event.subject === 'Weekly report (last week)')).toMatchObject({
      why: 'an older mail, in the mailbox before the job was started (or the wait began): only newer mails count',
    });
  });

  it('starting from the output, takes the newest matching mail already there', async () => {
    const wait = waiter(server, mailbox(server), { newest: true });
    const result = await wait.result();
    expect(result.message.subject).toBe('Weekly report');
    expect(result.saved.map((saved) => saved.name)).toEqual(['deck.pptx', 'figures.xlsx']);
  });

  it('a mail without an attachment is a clear result, not a crash', async () => {
    const wait = waiter(server, mailbox(server));
    const { pending } = await wait.started();
    await server.deliver(
      renderMail({
        from: 'reports@service.test',
        subject: 'Report failed',
        body: text('The job failed, no report today.'),
      }),
    );
    const result = await pending;
    expect(result.saved).toEqual([]);
    expect(wait.events.at(-1)).toMatchObject({ type: 'no_usable_attachment', subject: 'Report failed', skipped: 0 });
    expect(describeMailResult(result)).toBe(
      'The mail "Report failed" from reports@service.test has no usable attachment (it has no attachment at all)',
    );
  });

  it('saves only safe, allowed, capped attachments, also from nested parts and forwarded mails', async () => {
    const config = mailbox(server, { attachments: { maxMb: 1 } });
    const wait = waiter(server, config);
    const { pending } = await wait.started();
    await server.deliver(
      renderMail({
        from: 'reports@service.test',
        subject: 'Monthly report bundle',
        body: {
          multipart: 'mixed',
          parts: [
            {
              multipart: 'alternative',
              parts: [
                text('plain'),
                {
                  multipart: 'mixed',
                  parts: [
                    { type: 'text/html', content: '<p>html</p>' },
                    attachment('../../evil.pptx', pptx, PPTX_TYPE),
                  ],
                },
              ],
            },
            attachment('setup.exe', Buffer.from('MZ\x90\x00binary')),
            attachment('huge.csv', Buffer.alloc(1_500_000, 0x61), 'text/csv'),
            attachment('renamed.pptx', Buffer.from('MZ\x90\x00really an executable')),
            {
              forwarded: {
                from: 'b@x.test',
                subject: 'Fwd',
                body: withAttachments(attachment('forwarded.xlsx', xlsx, XLSX_TYPE)),
              },
            },
            {
              forwarded: {
                from: 'c@x.test',
                subject: 'Fwd2',
                body: withAttachments(attachment('encoded-forward.pptx', pptx, PPTX_TYPE)),
              },
              encoding: 'base64',
              filename: 'fwd.eml',
            },
          ],
        },
      }),
    );
    const result = await pending;
    expect(result.saved.map((saved) => saved.name).sort()).toEqual([
      'encoded-forward.pptx',
      'evil.pptx',
      'forwarded.xlsx',
    ]);
    expect(readdirSync(wait.runFolder).sort()).toEqual(['encoded-forward.pptx', 'evil.pptx', 'forwarded.xlsx']);
    expect(existsSync(join(wait.runFolder, '..', '..', 'evil.pptx'))).toBe(false);
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        { name: 'setup.exe', why: '.exe is not an allowed type (allowed: .pptx, .xlsx, .docx, .pdf, .csv)' },
        {
          name: 'huge.csv',
          why: expect.stringMatching(/^too large: 1\.\d MB, over the 1 MB limit$/) as unknown as string,
        },
        { name: 'renamed.pptx', why: 'the content is not a PowerPoint file (not a ZIP package)' },
      ]),
    );
    expect(wait.events.filter((event) => event.type === 'skipped_attachment')).toHaveLength(3);
    // The path in the name is said, with the name it was saved under.
    const evil = wait.events.find((event) => event.type === 'saved' && event.name === 'evil.pptx');
    expect(evil && describeMailEvent(evil)).toBe(`Saved evil.pptx (${formatSize(pptx.length)}) to ${join(wait.runFolder, 'evil.pptx')} (the mail named it "../../evil.pptx")`);
    expect(wait.events.filter((event) => event.type === 'saved' && event.mailName !== undefined)).toHaveLength(1);
  });

  it('reconnects when the server ends the session mid-IDLE, and gets the mail', async () => {
    const wait = waiter(server, mailbox(server));
    const { pending } = await wait.started();
    server.kick();
    await server.deliver(renderMail(report('Weekly report after kick', attachment('kick.pptx', pptx, PPTX_TYPE))));
    const result = await pending;
    expect(result.saved.map((saved) => saved.name)).toEqual(['kick.pptx']);
    expect(wait.events.filter((event) => event.type === 'disconnected').length).toBeGreaterThanOrEqual(1);
    expect(wait.events.filter((event) => event.type === 'connected').length).toBeGreaterThanOrEqual(2);
  });

  it('keeps waiting while the server is down and restarts, and loses nothing delivered meanwhile', async () => {
    const wait = waiter(server, mailbox(server));
    const { pending } = await wait.started();
    await server.stop();
    // Delivered while IMAP is down, as the mail server's delivery agent would.
    server.deliverToMaildir(
      renderMail(report('Weekly report during restart', attachment('restart.pptx', pptx, PPTX_TYPE))),
    );
    // The watcher must have noticed the server gone before it comes back.
    await waitUntil('the watcher to see the server gone', () => wait.events.some((event) => event.type === 'disconnected'));
    await server.start();
    const result = await pending;
    expect(result.saved.map((saved) => saved.name)).toEqual(['restart.pptx']);
    const disconnected = wait.events.filter((event) => event.type === 'disconnected');
    expect(disconnected.length).toBeGreaterThanOrEqual(1);
    expect(wait.events.filter((event) => event.type === 'connected').length).toBeGreaterThanOrEqual(2);
  });

  it('a folder that does not exist is named in the error', async () => {
    const wait = waiter(server, mailbox(server, { folder: 'Reports' }));
    await expect(wait.result()).rejects.toThrow(
      `The folder "Reports" does not exist for "alice" on 127.0.0.1:${server.port}`,
    );
  });

  it('a wrong password fails at once with what to check, and no password anywhere', async () => {
    const wait = waiter({ ...server, password: 'wrong-password-123' }, mailbox(server));
    const error = (await wait.result().catch((caught: unknown) => caught)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('auth_failed');
    expect(error.message).toContain(`The IMAP server 127.0.0.1:${server.port} refused the login for "alice"`);
    expect(error.message).toContain(`check the user name and the password in the environment variable ${PASSWORD_ENV}`);
    expect(error.message).not.toContain('wrong-password-123');
    const everything = JSON.stringify(allEvents);
    expect(everything).not.toContain(server.password);
    expect(everything).not.toContain('wrong-password-123');
  });
});

describe.skipIf(dovecotMissing !== undefined)('mail output from servers without IDLE and with STARTTLS', () => {
  it('polls a server that cannot push', async () => {
    const server = await startDovecot({ idle: false });
    try {
      const wait = waiter(server, mailbox(server, { pollSeconds: 1 }));
      const { pending } = await wait.started();
      expect(wait.events[1]).toMatchObject({ type: 'waiting', mode: 'poll' });
      await server.deliver(renderMail(report('Polled report', attachment('polled.xlsx', xlsx, XLSX_TYPE))));
      expect((await pending).saved.map((saved) => saved.name)).toEqual(['polled.xlsx']);
    } finally {
      await server.close();
    }
  });

  it('upgrades with STARTTLS against the server certificate it is told to trust, and says what to do without it', async () => {
    const server = await startDovecot({ starttls: true });
    try {
      const trusted = waiter(server, mailbox(server, { tls: 'starttls', caFile: server.caFile ?? '' }));
      const { pending } = await trusted.started();
      expect(trusted.events[0]).toMatchObject({ type: 'connected', security: 'STARTTLS' });
      await server.deliver(renderMail(report('Secure report', attachment('secure.pptx', pptx, PPTX_TYPE))));
      expect((await pending).saved.map((saved) => saved.name)).toEqual(['secure.pptx']);

      const untrusted = waiter(server, mailbox(server, { tls: 'starttls' }));
      await expect(untrusted.result()).rejects.toThrow(
        /The secure connection to 127\.0\.0\.1:\d+ failed \(.+\): .*a server with its own certificate needs "caFile"/,
      );
      expect(JSON.stringify(allEvents)).not.toContain(server.password);
    } finally {
      await server.close();
    }
  });
});
