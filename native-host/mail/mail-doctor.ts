import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import type { GmailMailbox, ImapMailbox } from '../../shared/protocol/mail-protocol';
import {
  gmailClientCredentials,
  gmailTokenFile,
  GMAIL_LOGIN_COMMAND,
  type GmailEnv,
} from './gmail-token';
import { imapPort } from './imap-source';
import { describeRules } from './mail-rules';
import { describeSecretRef, readableByOthers, readSecret, secretScrubber } from './mail-secret';
import { loadMailSettings } from './mail-settings';
import type { MailSource } from './mail-source';

export interface MailCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface MailboxReport {
  file: string;
  configured: boolean;
  ok: boolean;
  mailbox?: string;
  checks: MailCheck[];
}

export interface MailDoctorDeps {
  createSource: (config: ImapMailbox | GmailMailbox) => MailSource;
  env: GmailEnv;
  /** Time allowed for the TCP reachability check. */
  connectTimeoutMs?: number;
}

function reachable(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((done) => {
    const socket = connect({ host, port });
    const finish = (problem: string | undefined): void => {
      socket.destroy();
      done(problem);
    };
    socket.setTimeout(timeoutMs, () =>
      finish(`no answer within ${Math.round(timeoutMs / 1000)} s (a firewall, or the wrong host or port)`),
    );
    socket.once('connect', () => finish(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish(
        error.code === 'ECONNREFUSED'
          ? 'connection refused: nothing listens on that port'
          : (error.code ?? error.message),
      ),
    );
  });
}

/**
 * `deputy doctor`'s mailbox section: the settings file, where the secret comes from, whether the server answers,
 * whether the login works and the folder (or Gmail label) exists, each as one line that says what to do when it fails.
 * Stops at the first failure, since every later check depends on it. No secret is ever part of a line.
 */
export async function checkMailbox(file: string, explicit: boolean, deps: MailDoctorDeps): Promise<MailboxReport> {
  const report: MailboxReport = { file, configured: false, ok: false, checks: [] };
  if (!explicit && !existsSync(file)) return { ...report, ok: true };
  report.configured = true;
  const scrub: { text: (value: string) => string } = { text: (value) => value };
  const step = async (name: string, run: () => Promise<string> | string): Promise<boolean> => {
    try {
      report.checks.push({ name, ok: true, detail: scrub.text(await run()) });
      return true;
    } catch (error) {
      const message = error instanceof AppError || error instanceof Error ? error.message : String(error);
      report.checks.push({ name, ok: false, detail: scrub.text(message) });
      return false;
    }
  };
  let config: ImapMailbox | GmailMailbox | undefined;
  if (
    !(await step('settings', () => {
      config = loadMailSettings(file).config;
      return `${config.kind === 'imap' ? 'IMAP' : 'Gmail'} mailbox; mails ${describeRules(config)}`;
    })) ||
    config === undefined
  )
    return report;
  const box = config;
  if (box.kind === 'imap') {
    const ok = await step('password', () => {
      scrub.text = secretScrubber([readSecret(box.password, 'IMAP password', deps.env)]);
      const path =
        'file' in box.password
          ? isAbsolute(box.password.file)
            ? box.password.file
            : resolve(deps.env.baseDir, box.password.file)
          : undefined;
      const open =
        path !== undefined && readableByOthers(path) ? ` (warning: ${path} can be read by other users: chmod 600 it)` : '';
      return `read from ${describeSecretRef(box.password)}${open}`;
    });
    if (!ok) return report;
    const port = imapPort(box);
    if (
      !(await step('reachable', async () => {
        const problem = await reachable(box.host, port, deps.connectTimeoutMs ?? 10_000);
        if (problem !== undefined)
          throw new Error(`${box.host}:${port}: ${problem}; check "host" and "port" in ${file}`);
        return `${box.host}:${port} answers`;
      }))
    )
      return report;
  } else {
    if (!(await step('OAuth client', () => `client ${gmailClientCredentials(box, deps.env).clientId.slice(0, 12)}...`)))
      return report;
    const tokenFile = gmailTokenFile(box, deps.env);
    if (
      !(await step('sign-in', () => {
        if (!existsSync(tokenFile)) throw new Error(`not signed in (no ${tokenFile}): run \`${GMAIL_LOGIN_COMMAND}\``);
        if (readableByOthers(tokenFile))
          throw new Error(`${tokenFile} can be read by other users: run \`chmod 600 ${tokenFile}\``);
        return `${tokenFile} (mode 0600)`;
      }))
    )
      return report;
  }
  const source = deps.createSource(box);
  report.mailbox = source.label;
  const connected = await step(box.kind === 'imap' ? 'login and folder' : 'account and label', async () => {
    try {
      const info = await source.connect();
      scrub.text = secretScrubber(source.secrets());
      const where =
        box.kind === 'imap'
          ? `logged in as ${box.user} (${info.security}); folder "${box.folder}" exists`
          : `signed in; label "${box.label}" exists`;
      return `${where}; new mail is ${info.push ? 'pushed by the server (IDLE)' : `polled every ${box.pollSeconds} s`}`;
    } finally {
      scrub.text = secretScrubber(source.secrets());
      await source.close();
    }
  });
  report.ok = connected;
  return report;
}
