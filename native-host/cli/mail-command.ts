import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { GmailMailbox } from '../../shared/protocol/mail-protocol';
import { describeMailEvent, describeMailResult } from '../../shared/mail-text';
import { gmailLogin } from '../mail/gmail-login';
import { loadMailSettings, mailEnv, mailSettingsFile, mailSourceFactory } from '../mail/mail-settings';
import { waitForMailAttachment } from '../mail/wait-for-mail';
import { appPaths, currentPathEnv } from '../paths';
import { UsageError } from './usage-error';

const positiveNumber = (value: string): number => {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('expected a number above 0');
  return number;
};

const out = (line: string): void => void process.stdout.write(`${line}\n`);

/** Opens an address in the user's browser; a machine without one still has the address printed. */
function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The printed address is enough.
  }
}

interface LoginOptions {
  gmail?: boolean;
  mailConfig?: string;
  client?: string;
  browser: boolean;
}

/** `deputy mail login --gmail`: the browser sign-in, with the mailbox from the settings or an OAuth client file. */
async function loginAction(options: LoginOptions): Promise<number> {
  if (!options.gmail)
    throw new UsageError('say which mailbox to sign in to: --gmail (IMAP needs no sign-in, only its password setting)');
  const pathEnv = currentPathEnv();
  let box: GmailMailbox;
  let file: string;
  if (options.client !== undefined) {
    file = resolve(options.client);
    box = GmailMailbox.parse({ kind: 'gmail', client: { file } });
  } else {
    const where = mailSettingsFile(pathEnv, options.mailConfig);
    const settings = loadMailSettings(where.file);
    if (settings.config.kind !== 'gmail')
      throw new UsageError(
        `the mail settings in ${where.file} are for an IMAP mailbox, which needs no sign-in; set "kind": "gmail" or pass --client with the OAuth client file`,
      );
    box = settings.config;
    file = where.file;
  }
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  try {
    const result = await gmailLogin(box, mailEnv(pathEnv, file), {
      openUrl: (url) => {
        out(`Open this address in your browser to let Deputy read your Gmail (read-only):\n${url}`);
        if (options.browser) openInBrowser(url);
      },
      signal: controller.signal,
    });
    out(
      `Signed in to Gmail as ${result.account} with read-only access. The sign-in is kept in ${result.tokenFile} (only you can read it).`,
    );
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
  }
}

interface WaitOptions {
  mailConfig?: string;
  runFolder?: string;
  timeout?: number;
  newest?: boolean;
  json?: boolean;
}

/** `deputy mail wait`: waits for the next matching mail as the fix loop will, printing each event. */
async function waitAction(options: WaitOptions): Promise<number> {
  const pathEnv = currentPathEnv();
  const where = mailSettingsFile(pathEnv, options.mailConfig);
  const settings = loadMailSettings(where.file);
  const runFolder = resolve(
    options.runFolder ?? join(appPaths(pathEnv).stateDir, 'mail', new Date().toISOString().replace(/[:.]/g, '-')),
  );
  mkdirSync(runFolder, { recursive: true });
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  try {
    const result = await waitForMailAttachment(
      settings.config,
      {
        runFolder,
        ...(options.timeout !== undefined ? { timeoutMs: options.timeout * 1000 } : {}),
        ...(options.newest ? { newest: true } : {}),
        signal: controller.signal,
        onEvent: (event) => out(options.json ? JSON.stringify(event) : describeMailEvent(event)),
      },
      { createSource: mailSourceFactory(mailEnv(pathEnv, where.file)) },
    );
    out(options.json ? JSON.stringify({ type: 'result', ...result }) : describeMailResult(result));
    return result.saved.length > 0 ? 0 : 1;
  } finally {
    process.off('SIGINT', onSignal);
  }
}

/** Adds `deputy mail login` and `deputy mail wait`. */
export function registerMailCommands(program: Command, setExitCode: (code: number) => void): void {
  const mail = program
    .command('mail')
    .description('output that arrives by email: sign in to Gmail, or wait for a mail as the fix loop does')
    .addHelpText(
      'after',
      [
        '',
        "Mail settings are read from --mail-config, else $DEPUTY_MAIL_CONFIG, else mail.json in Deputy's data folder.",
        'Passwords are never written in them: "password": {"env": "NAME"} or {"file": "path"}. `deputy doctor` checks them.',
      ].join('\n'),
    );
  mail
    .command('login')
    .description("sign in to Gmail in the browser (read-only access); the sign-in is kept in Deputy's data folder")
    .option('--gmail', 'sign in to Gmail through its API')
    .option('--mail-config <file>', 'the mail settings file (kind "gmail")')
    .option(
      '--client <file>',
      'the OAuth client JSON downloaded from Google Cloud (a Desktop app), instead of the settings',
    )
    .option('--no-browser', 'only print the sign-in address, do not open a browser')
    .action(async (options: LoginOptions) => setExitCode(await loginAction(options)));
  mail
    .command('wait')
    .description('wait for the next matching mail and save its attachments (exit 0 when one was saved)')
    .option('--mail-config <file>', 'the mail settings file')
    .option('--run-folder <dir>', "where attachments are saved (default: a new folder under Deputy's state folder)")
    .option('--timeout <seconds>', "how long to wait (default: the settings' timeoutSeconds)", positiveNumber)
    .option('--newest', 'take the newest matching mail already there instead of waiting for a new one')
    .option('--json', 'print one JSON event per line')
    .action(async (options: WaitOptions) => setExitCode(await waitAction(options)));
}
