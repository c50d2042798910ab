import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors';
import { GmailMailbox, type MailEvent } from '../../../../shared/protocol/mail-protocol';
import { gmailLogin } from '../../../../native-host/mail/gmail-login';
import { createGmailSource } from '../../../../native-host/mail/gmail-source';
import type { GmailEnv } from '../../../../native-host/mail/gmail-token';
import { waitForMailAttachment, markMailbox } from '../../../../native-host/mail/wait-for-mail';
import { attachment, PPTX_TYPE, withAttachments, text } from '../../../fixtures/mail/build-mail';
import { makePptx } from '../../../fixtures/mail/documents';
import { startFakeGmail, type FakeGmail } from '../../../fixtures/mail/fake-gmail';

/**
 * Gmail through the official clients (@googleapis/gmail, google-auth-library) against a local server that speaks
 * Google's OAuth and Gmail wire formats: the sign-in with PKCE and a loopback redirect, the wait, token refresh and a
 * revoked sign-in. The "browser" is a scripted GET of the consent address, whose redirect lands on Deputy's loopback
 * server exactly as the user's click on Allow would.
 */

let fake: FakeGmail;
let dir: string;
let env: GmailEnv;
let box: GmailMailbox;
const SECRET_ENV = 'DEPUTY_TEST_GMAIL_SECRET';

/** The user's browser: follows the consent page's redirect back to Deputy. */
async function browser(url: string): Promise<void> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(await response.text()).toContain('Deputy can read your Gmail');
}

async function signIn(): Promise<void> {
  let done: Promise<void> = Promise.resolve();
  await gmailLogin(box, env, {
    openUrl: (url) => {
      done = browser(url);
    },
  });
  await done;
}

beforeAll(async () => {
  fake = await startFakeGmail();
  dir = mkdtempSync(join(tmpdir(), 'deputy-gmail-'));
  env = { env: { [SECRET_ENV]: fake.clientSecret }, baseDir: dir, dataDir: join(dir, 'data') };
  box = GmailMailbox.parse({
    kind: 'gmail',
    client: { id: fake.clientId, secret: { env: SECRET_ENV } },
    endpoints: fake.endpoints,
    from: ['*@service.test'],
    subject: 'report',
    pollSeconds: 1,
    attachments: { maxMb: 1 },
  });
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Gmail sign-in', () => {
  it('asks only for read access with PKCE S256 and a loopback redirect, and keeps the tokens in a 0600 file in the data folder', async () => {
    let consentUrl = '';
    let done: Promise<void> = Promise.resolve();
    const result = await gmailLogin(box, env, {
      openUrl: (url) => {
        consentUrl = url;
        done = browser(url);
      },
    });
    await done;
    const consent = new URL(consentUrl);
    expect(consent.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/gmail.readonly');
    expect(consent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(consent.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(consent.searchParams.get('access_type')).toBe('offline');
    expect(result).toEqual({ account: fake.account, tokenFile: join(dir, 'data', 'mail', 'gmail-token.json') });
    expect(statSync(result.tokenFile).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(result.tokenFile, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({
      account: fake.account,
      clientId: fake.clientId,
      scope: 'https://www.googleapis.com/auth/gmail.readonly',
    });
    expect(fake.issued).toContain(saved.refresh_token);
  });

  it('ignores an answer that does not carry its state, and says so when the user declines', async () => {
    const declined = gmailLogin(box, env, {
      openUrl: (url) => {
        const redirect = new URL(new URL(url).searchParams.get('redirect_uri') ?? '');
        const state = new URL(url).searchParams.get('state') ?? '';
        void (async () => {
          const forged = await fetch(`${redirect.href}?code=stolen&state=wrong`);
          expect(forged.status).toBe(400);
          await fetch(`${redirect.href}?error=access_denied&state=${encodeURIComponent(state)}`);
        })();
      },
    });
    await expect(declined).rejects.toThrow('Access to Gmail was declined in the browser: nothing was saved');
  });
});

describe('waiting for a report in Gmail', () => {
  it('takes the mail that arrived after the mark, passes over an older one, and downloads only what it saves', async () => {
    await signIn();
    const runFolder = mkdtempSync(join(dir, 'run-'));
    fake.deliver(
      {
        from: 'Reports <reports@service.test>',
        subject: 'Weekly report (old)',
        body: withAttachments(attachment('old.pptx', await makePptx('Old'), PPTX_TYPE)),
      },
      { at: Date.now() - 60_000 },
    );
    const source = () => createGmailSource(box, env);
    const mark = await markMailbox(box, { createSource: source });
    const events: MailEvent[] = [];
    const waiting = waitForMailAttachment(
      box,
      { since: mark, runFolder, timeoutMs: 20_000, onEvent: (event) => events.push(event) },
      { createSource: source },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    fake.deliver({ from: 'Someone <someone@else.test>', subject: 'Weekly report', body: text('not from the service') });
    const huge = Buffer.alloc(2_000_000, 1);
    fake.deliver({
      from: 'Reports <reports@service.test>',
      subject: 'Weekly report',
      body: withAttachments(
        attachment('deck.pptx', await makePptx('New'), PPTX_TYPE),
        attachment('setup.exe', Buffer.from('MZ...')),
        attachment('big.pptx', huge, PPTX_TYPE),
      ),
    });
    const result = await waiting;
    expect(result.message).toMatchObject({ from: 'Reports <reports@service.test>', subject: 'Weekly report' });
    expect(result.saved.map((saved) => saved.name)).toEqual(['deck.pptx']);
    expect(readdirSync(runFolder)).toEqual(['deck.pptx']);
    expect(result.skipped).toEqual([
      { name: 'setup.exe', why: '.exe is not an allowed type (allowed: .pptx, .xlsx, .docx, .pdf, .csv)' },
      { name: 'big.pptx', why: 'too large: 2.0 MB, over the 1 MB limit' },
    ]);
    expect(events.some((event) => event.type === 'ignored' && event.from.includes('someone@else.test'))).toBe(true);
    expect(events.filter((event) => event.type === 'arrived')).toHaveLength(1);
    // One attachment download: the executable and the oversized deck were judged from the structure alone.
    expect(fake.requests.filter((request) => request.includes('/attachments/'))).toHaveLength(1);
  });
});

describe('a Gmail sign-in over time', () => {
  it('refreshes an expired access token, saves the new one (still 0600), and never reports a token or the client secret', async () => {
    await signIn();
    const tokenFile = join(dir, 'data', 'mail', 'gmail-token.json');
    const before = JSON.parse(readFileSync(tokenFile, 'utf8')) as { access_token: string; refresh_token: string };
    // The saved access token stops working and is marked expired, as an hour later.
    fake.expireAccessTokens();
    writeFileSync(tokenFile, JSON.stringify({ ...before, expiry_date: Date.now() - 1000 }), { mode: 0o600 });
    fake.deliver({
      from: 'reports@service.test',
      subject: 'Monthly report',
      body: withAttachments(attachment('month.pptx', await makePptx('Month'), PPTX_TYPE)),
    });
    const events: MailEvent[] = [];
    const result = await waitForMailAttachment(
      box,
      {
        newest: true,
        runFolder: mkdtempSync(join(dir, 'run-')),
        timeoutMs: 10_000,
        onEvent: (event) => events.push(event),
      },
      { createSource: () => createGmailSource(box, env) },
    );
    expect(result.saved.map((saved) => saved.name)).toEqual(['month.pptx']);
    const after = JSON.parse(readFileSync(tokenFile, 'utf8')) as { access_token: string; refresh_token: string };
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBe(before.refresh_token);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const reported = JSON.stringify({ events, result });
    for (const secret of [...fake.issued, fake.clientSecret]) expect(reported).not.toContain(secret);
  });

  it('says to sign in again when the sign-in was revoked, without the token in the message', async () => {
    await signIn();
    fake.revoke();
    fake.expireAccessTokens();
    const error = await waitForMailAttachment(
      box,
      { runFolder: mkdtempSync(join(dir, 'run-')), timeoutMs: 5_000 },
      { createSource: () => createGmailSource(box, env) },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('auth_failed');
    expect((error as AppError).message).toContain('run `deputy mail login --gmail` again');
    for (const secret of [...fake.issued, fake.clientSecret]) expect((error as AppError).message).not.toContain(secret);
  });

  it('without a sign-in, says which command signs in', async () => {
    const other = GmailMailbox.parse({ ...box, tokenFile: join(dir, 'nowhere.json') });
    await expect(
      waitForMailAttachment(
        other,
        { runFolder: dir, timeoutMs: 1000 },
        { createSource: () => createGmailSource(other, env) },
      ),
    ).rejects.toThrow(
      `Deputy is not signed in to Gmail (no ${join(dir, 'nowhere.json')}): run \`deputy mail login --gmail\``,
    );
  });
});

describe('Gmail labels', () => {
  it('finds a user label by its name, and names a label that does not exist', async () => {
    await signIn();
    const reports = GmailMailbox.parse({ ...box, label: 'reports' });
    fake.deliver(
      {
        from: 'reports@service.test',
        subject: 'Labelled report',
        body: withAttachments(attachment('labelled.pptx', await makePptx('L'), PPTX_TYPE)),
      },
      { labels: ['Label_7'] },
    );
    const result = await waitForMailAttachment(
      reports,
      { newest: true, runFolder: mkdtempSync(join(dir, 'run-')), timeoutMs: 5_000 },
      { createSource: () => createGmailSource(reports, env) },
    );
    expect(result.message.subject).toBe('Labelled report');
    expect(fake.requests.some((request) => request.includes('labelIds=Label_7'))).toBe(true);
    const missing = GmailMailbox.parse({ ...box, label: 'Invoices' });
    await expect(
      waitForMailAttachment(
        missing,
        { runFolder: dir, timeoutMs: 5_000 },
        { createSource: () => createGmailSource(missing, env) },
      ),
    ).rejects.toThrow('The Gmail label "Invoices" does not exist');
  });
});
