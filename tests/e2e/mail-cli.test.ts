import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachment, PPTX_TYPE, renderMail, withAttachments } from '../fixtures/mail/build-mail';
import { makePptx } from '../fixtures/mail/documents';
import { startFakeGmail, type FakeGmail } from '../fixtures/mail/fake-gmail';
import { BUILT_HOST, ensureBuiltHost } from './host-harness';
import { dovecotMissing, imapSettings, startDovecot, type Dovecot } from './support/dovecot';

// Not on the shared fixture (tests/e2e/support/e2e-fixture.ts): the mail CLI runs from the built bin against the Gmail
// stand-in and Dovecot, with homes of its own; no browser, page or model is involved.

/**
 * `deputy mail login --gmail`, `deputy mail wait` and `deputy doctor`'s mailbox section, run from the built bin with
 * a temporary home as a user would: the Gmail sign-in against the local Google stand-in with a scripted browser step
 * (an HTTP GET of the printed address, whose redirect reaches the CLI's loopback server), and the IMAP checks and
 * wait against Dovecot. No secret may appear in anything the commands print.
 */

let home = '';
const CLIENT_SECRET_ENV = 'DEPUTY_TEST_CLIENT_SECRET';
const PASSWORD_ENV = 'DEPUTY_TEST_IMAP_PASSWORD';

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const name of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'DEPUTY_MAIL_CONFIG', 'DEPUTY_LOG_FILE'])
    delete base[name];
  return { ...base, ...extra };
}

function deputy(
  args: string[],
  extra: NodeJS.ProcessEnv = {},
): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BUILT_HOST, ...args], {
    env: env(extra),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a command in the background; `lines` grows as it prints, `exit` settles with everything it printed. */
function background(args: string[], extra: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BUILT_HOST, ...args], { env: env(extra) });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: (match: RegExpMatchArray) => void }> = [];
  child.stdout.on('data', (data: Buffer) => {
    stdout += data.toString();
    for (const waiter of waiters.splice(0)) {
      const match = stdout.match(waiter.pattern);
      if (match) waiter.resolve(match);
      else waiters.push(waiter);
    }
  });
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  const printed = (pattern: RegExp): Promise<RegExpMatchArray> =>
    new Promise((resolve) => {
      const match = stdout.match(pattern);
      if (match) resolve(match);
      else waiters.push({ pattern, resolve });
    });
  return { exit, printed, child };
}

beforeAll(() => {
  ensureBuiltHost();
  home = mkdtempSync(join(tmpdir(), 'deputy-mail-home-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe.skipIf(process.platform !== 'linux')('deputy mail login --gmail and doctor', () => {
  let fake: FakeGmail;
  let settings = '';
  beforeAll(async () => {
    fake = await startFakeGmail();
    settings = join(home, 'gmail.json');
    writeFileSync(
      settings,
      JSON.stringify({
        kind: 'gmail',
        client: { id: fake.clientId, secret: { env: CLIENT_SECRET_ENV } },
        endpoints: fake.endpoints,
        from: ['reports@service.test'],
      }),
    );
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('doctor says the mailbox is not configured when there are no mail settings', () => {
    const result = deputy(['doctor']);
    expect(result.stdout).toContain(`Mailbox   not configured (no ${join(home, '.local/share/deputy/mail.json')}`);
  });

  it('doctor says to sign in before the sign-in', () => {
    const result = deputy(['doctor', '--mail-config', settings], { [CLIENT_SECRET_ENV]: fake.clientSecret });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`Mailbox   BROKEN: ${settings}`);
    expect(result.stdout).toContain('run `deputy mail login --gmail`');
  });

  it('signs in through the browser with PKCE, keeps the tokens 0600 in the data folder, and prints no secret', async () => {
    const login = background(['mail', 'login', '--gmail', '--no-browser', '--mail-config', settings], {
      [CLIENT_SECRET_ENV]: fake.clientSecret,
    });
    const [url] = await login.printed(/http:\/\/127\.0\.0\.1:\d+\/o\/oauth2\/v2\/auth\?\S+/);
    // The browser step: the consent page redirects to the CLI's loopback address, which shows the result.
    const page = await fetch(url);
    expect(await page.text()).toContain('Signed in with read-only access');
    const result = await login.exit;
    expect(result.code, result.stderr).toBe(0);
    const tokenFile = join(home, '.local/share/deputy/mail/gmail-token.json');
    expect(result.stdout).toContain(
      `Signed in to Gmail as ${fake.account} with read-only access. The sign-in is kept in ${tokenFile}`,
    );
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(tokenFile, 'utf8'))).toMatchObject({
      account: fake.account,
      scope: 'https://www.googleapis.com/auth/gmail.readonly',
    });
    for (const secret of [...fake.issued, fake.clientSecret])
      expect(result.stdout + result.stderr).not.toContain(secret);

    // In the background: the Google stand-in runs in this process and must stay free to answer.
    const doctor = await background(['doctor', '--mail-config', settings], { [CLIENT_SECRET_ENV]: fake.clientSecret })
      .exit;
    expect(doctor.stdout).toContain(`Mailbox   ok: ${settings}`);
    expect(doctor.stdout).toMatch(/ok +sign-in +.*gmail-token\.json \(mode 0600\)/);
    expect(doctor.stdout).toContain('signed in; label "INBOX" exists; new mail is polled every 20 s');
    for (const secret of [...fake.issued, fake.clientSecret])
      expect(doctor.stdout + doctor.stderr).not.toContain(secret);
  });
});

describe.skipIf(dovecotMissing !== undefined)('deputy mail wait and doctor with an IMAP mailbox', () => {
  let server: Dovecot;
  let settings = '';
  beforeAll(async () => {
    server = await startDovecot();
    settings = join(home, 'imap.json');
    writeFileSync(settings, JSON.stringify(imapSettings(server, PASSWORD_ENV)));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('doctor checks reachability, login and folder, and names the password setting when the login is refused', () => {
    const good = deputy(['doctor', '--mail-config', settings], { [PASSWORD_ENV]: server.password });
    expect(good.stdout).toContain(`Mailbox   ok: ${settings}`);
    expect(good.stdout).toContain(`127.0.0.1:${server.port} answers`);
    expect(good.stdout).toContain(
      'logged in as alice (none (this machine only)); folder "INBOX" exists; new mail is pushed by the server (IDLE)',
    );
    const wrong = deputy(['doctor', '--mail-config', settings], { [PASSWORD_ENV]: 'not-the-password' });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain(`Mailbox   BROKEN: ${settings}`);
    expect(wrong.stdout).toContain(`refused the login for "alice"`);
    expect(wrong.stdout).toContain(`check the user name and the password in the environment variable ${PASSWORD_ENV}`);
    const unset = deputy(['doctor', '--mail-config', settings]);
    expect(unset.stdout).toContain(
      `The IMAP password is read from the environment variable ${PASSWORD_ENV}, which is not set`,
    );
    for (const result of [good, wrong]) expect(result.stdout + result.stderr).not.toContain(server.password);
  });

  it('waits visibly for the report and saves it; says clearly when nothing came', async () => {
    const runFolder = join(home, 'run');
    mkdirSync(runFolder);
    const wait = background(['mail', 'wait', '--mail-config', settings, '--run-folder', runFolder, '--timeout', '60'], {
      [PASSWORD_ENV]: server.password,
    });
    await wait.printed(/Waiting up to 60 s for mail in alice@127\.0\.0\.1:\d+\/INBOX that arrived after/);
    await server.deliver(
      renderMail({
        from: 'Reports <reports@service.test>',
        subject: 'Weekly report',
        body: withAttachments(attachment('deck.pptx', await makePptx(), PPTX_TYPE)),
      }),
    );
    const result = await wait.exit;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Mail arrived after [\d.]+ s: "Weekly report" from Reports <reports@service\.test>/);
    expect(result.stdout).toContain(`Saved deck.pptx (50 KB) to ${join(runFolder, 'deck.pptx')}`);
    expect(result.stdout).toContain('From "Weekly report" from Reports <reports@service.test>: saved deck.pptx');
    expect(existsSync(join(runFolder, 'deck.pptx'))).toBe(true);

    const nothing = deputy(
      ['mail', 'wait', '--mail-config', settings, '--run-folder', runFolder, '--timeout', '2', '--json'],
      { [PASSWORD_ENV]: server.password },
    );
    expect(nothing.code).toBe(1);
    const events = nothing.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    // The report taken above is passed over as older, and said so.
    expect(events.map((event) => event.type)).toEqual(['connected', 'waiting', 'ignored', 'nothing_came']);
    expect(events[2]).toMatchObject({ subject: 'Weekly report', why: 'an older mail, in the mailbox before the job was started (or the wait began): only newer mails count' });
    expect(nothing.stderr).toContain(
      'deputy: No mail from *@service.test with "report" in the subject arrived in alice@127.0.0.1',
    );
    for (const output of [result.stdout, result.stderr, nothing.stdout, nothing.stderr])
      expect(output).not.toContain(server.password);
  });
});
