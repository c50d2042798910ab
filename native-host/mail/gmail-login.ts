import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../../shared/errors';
import { GMAIL_READONLY_SCOPE, type GmailMailbox } from '../../shared/protocol/mail-protocol';
import { gmailApiError } from './gmail-errors';
import { gmailClientCredentials, gmailTokenFile, oauthClient, saveGmailToken, type GmailEnv } from './gmail-token';

export interface GmailLoginDeps {
  /** Shows the sign-in page: opens the browser, and prints the address for a machine without one. */
  openUrl: (url: string) => void;
  signal?: AbortSignal;
  /** How long to wait for the user to finish in the browser. */
  timeoutMs?: number;
}

export interface GmailLoginResult {
  account: string;
  tokenFile: string;
}

const PAGE = (title: string, text: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;max-width:36em;margin:4em auto"><h1>${title}</h1><p>${text}</p></body></html>`;

/** Waits for the browser to come back to the loopback address with the code (or an error) for this sign-in. */
function awaitRedirect(server: Server, state: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const finish = (error: AppError | undefined, code?: string): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(code ?? '');
    };
    const onAbort = (): void => finish(new AppError('cancelled', 'The Gmail sign-in was stopped'));
    const timer = setTimeout(
      () =>
        finish(
          new AppError(
            'timeout',
            `The Gmail sign-in was not finished in the browser within ${Math.round(timeoutMs / 1000)} s: run the command again`,
          ),
        ),
      timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    server.on('request', (request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const answer = (status: number, title: string, text: string): void => {
        response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        response.end(PAGE(title, text));
      };
      if (url.pathname !== '/' || (!url.searchParams.has('code') && !url.searchParams.has('error')))
        return answer(404, 'Not found', 'This address only receives the Gmail sign-in.');
      // Another page (or a stale tab) must not be able to complete this sign-in: the state ties it to this run.
      if (url.searchParams.get('state') !== state)
        return answer(
          400,
          'Sign-in not recognised',
          'This answer does not belong to the sign-in Deputy started. Run the command again.',
        );
      const error = url.searchParams.get('error');
      if (error !== null) {
        answer(200, 'Sign-in cancelled', 'Deputy was not given access. You can close this tab.');
        return finish(
          new AppError(
            'auth_failed',
            error === 'access_denied'
              ? 'Access to Gmail was declined in the browser: nothing was saved'
              : `Google refused the sign-in (${error}): nothing was saved`,
          ),
        );
      }
      answer(
        200,
        'Deputy can read your Gmail',
        'Signed in with read-only access. You can close this tab and return to the terminal.',
      );
      finish(undefined, url.searchParams.get('code') ?? '');
    });
  });
}

/**
 * Signs Deputy in to Gmail the way Google asks desktop apps to: the system browser opens Google's consent page, which
 * returns to a one-time server on 127.0.0.1 (loopback redirect); PKCE (S256) and a random state tie the answer to this
 * run. Only gmail.readonly is asked for. The tokens go to the token file with mode 0600; nothing secret is printed.
 */
export async function gmailLogin(box: GmailMailbox, env: GmailEnv, deps: GmailLoginDeps): Promise<GmailLoginResult> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  try {
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = await oauthClient(box, env, redirectUri);
    const [{ gmail }, { CodeChallengeMethod }] = await Promise.all([import('@googleapis/gmail'), import('google-auth-library')]);
    const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
    const state = randomBytes(24).toString('base64url');
    const url = client.generateAuthUrl({
      access_type: 'offline',
      prompt: 'consent',
      scope: [GMAIL_READONLY_SCOPE],
      code_challenge_method: CodeChallengeMethod.S256,
      ...(codeChallenge !== undefined ? { code_challenge: codeChallenge } : {}),
      state,
    });
    const code = awaitRedirect(server, state, deps.timeoutMs ?? 5 * 60_000, deps.signal);
    // Awaited below; this only keeps an early ending (timeout, stop) from counting as unhandled meanwhile.
    code.catch(() => undefined);
    deps.openUrl(url);
    const { tokens } = await client
      .getToken({ code: await code, codeVerifier, redirect_uri: redirectUri })
      .catch((error: unknown) => {
        throw gmailApiError(error, 'exchanging the sign-in code');
      });
    if (!tokens.refresh_token)
      throw new AppError(
        'auth_failed',
        "Google did not return a refresh token, so the sign-in would not last: remove Deputy from your Google account's third-party access and sign in again",
      );
    const scope = tokens.scope ?? GMAIL_READONLY_SCOPE;
    if (!scope.split(' ').includes(GMAIL_READONLY_SCOPE))
      throw new AppError(
        'auth_failed',
        'Read access to Gmail was not granted (the consent page lets you untick it): sign in again and allow it',
      );
    client.setCredentials(tokens);
    const api = gmail({ version: 'v1', auth: client, ...(box.endpoints?.api ? { rootUrl: box.endpoints.api } : {}) });
    const profile = await api.users.getProfile({ userId: 'me' }).catch((error: unknown) => {
      throw gmailApiError(error, 'reading the account name');
    });
    const account = profile.data.emailAddress ?? 'unknown';
    const tokenFile = gmailTokenFile(box, env);
    await saveGmailToken(tokenFile, {
      account,
      clientId: gmailClientCredentials(box, env).clientId,
      scope,
      refresh_token: tokens.refresh_token,
      ...(tokens.access_token ? { access_token: tokens.access_token } : {}),
      ...(tokens.expiry_date ? { expiry_date: tokens.expiry_date } : {}),
      ...(tokens.token_type ? { token_type: tokens.token_type } : {}),
    });
    return { account, tokenFile };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
