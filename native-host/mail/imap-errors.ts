import { AppError } from '../../shared/errors';
import type { ImapMailbox } from '../../shared/protocol/mail-protocol';
import { describeSecretRef } from './mail-secret';

interface ImapErrorLike {
  code?: string;
  message?: string;
  authenticationFailed?: boolean;
  tlsFailed?: boolean;
  mailboxMissing?: boolean;
  responseText?: string;
  serverResponseCode?: string;
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'NoConnection',
  'EConnectionClosed',
  'ETIMEOUT',
  'ClosedAfterConnectText',
  'ClosedAfterConnectTLS',
  'StateLogout',
]);
const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_SSL|ERR_TLS|EPROTO|HOSTNAME/;

/** Whether an error means the connection went away (worth reconnecting), rather than a refusal. */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof AppError) return error.code === 'disconnected';
  const code = (error as ImapErrorLike | undefined)?.code ?? '';
  return NETWORK_CODES.has(code);
}

/**
 * Turns what imapflow or the socket threw into an AppError that says what went wrong and what to change, in the
 * user's terms (host, port, user, folder, where the password comes from). Never includes the password: only codes and
 * the server's own response text are used.
 */
export function imapError(
  error: unknown,
  box: ImapMailbox,
  port: number,
  stage: 'connect' | 'folder' | 'command',
): AppError {
  if (error instanceof AppError) return error;
  const err = (error ?? {}) as ImapErrorLike;
  const code = err.code ?? '';
  const where = `${box.host}:${port}`;
  const said = err.responseText ? ` (the server said: ${err.responseText})` : '';
  if (err.authenticationFailed === true || err.serverResponseCode === 'AUTHENTICATIONFAILED') {
    return new AppError(
      'auth_failed',
      `The IMAP server ${where} refused the login for "${box.user}"${said}: check the user name and the password in ${describeSecretRef(box.password)}`,
      { cause: error },
    );
  }
  if (stage === 'folder' || err.mailboxMissing === true) {
    return new AppError(
      'not_found',
      `The folder "${box.folder}" does not exist for "${box.user}" on ${where}${said}: check "folder" in the mail settings (names are case-sensitive, for example "INBOX" or "Reports")`,
      { cause: error },
    );
  }
  if (code === 'ECONNREFUSED')
    return new AppError(
      'unavailable',
      `Could not connect to the IMAP server ${where} (connection refused): check the host and port, and that the server is running`,
      { cause: error },
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new AppError(
      'unavailable',
      `The IMAP server's host name ${box.host} could not be resolved (${code}): check "host" in the mail settings`,
      { cause: error },
    );
  if (code === 'CONNECT_TIMEOUT' || code === 'GREETING_TIMEOUT' || code === 'ETIMEDOUT' || code === 'UPGRADE_TIMEOUT') {
    return new AppError(
      'timeout',
      `The IMAP server ${where} did not answer in time (${code}): check the host, the port and any firewall; port 993 is for tls, 143 for starttls`,
      { cause: error },
    );
  }
  if (err.tlsFailed === true || TLS_CODES.test(code) || /STARTTLS/i.test(err.message ?? '')) {
    return new AppError(
      'unavailable',
      `The secure connection to ${where} failed (${code || err.message || 'TLS error'}): use tls "tls" for port 993 or "starttls" for port 143; a server with its own certificate needs "caFile"`,
      { cause: error },
    );
  }
  if (isConnectionLoss(error))
    return new AppError('disconnected', `The connection to the IMAP server ${where} was lost (${code})`, {
      cause: error,
    });
  return new AppError(
    'unavailable',
    `The IMAP server ${where} failed: ${err.message ?? code ?? 'unknown error'}${said}`,
    { cause: error },
  );
}
