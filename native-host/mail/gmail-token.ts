import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Credentials, OAuth2Client } from 'google-auth-library';
import { z } from 'zod';
import { AppError, describeZodError } from '../../shared/errors';
import { GMAIL_READONLY_SCOPE, type GmailMailbox } from '../../shared/protocol/mail-protocol';
import { nodeInstallFs } from '../install/system';
import { readSecret, type SecretEnv } from './mail-secret';

export const GMAIL_LOGIN_COMMAND = 'deputy mail login --gmail';

/** What a Gmail sign-in leaves in Deputy's data folder (mode 0600): the refresh token is what lasts. */
export const GmailToken = z.object({
  account: z.string().optional(),
  clientId: z.string(),
  scope: z.string(),
  refresh_token: z.string().min(1),
  access_token: z.string().optional(),
  expiry_date: z.number().optional(),
  token_type: z.string().optional(),
});
export type GmailToken = z.infer<typeof GmailToken>;

export interface GmailEnv extends SecretEnv {
  /** Deputy's data folder (native-host/paths.ts). */
  dataDir: string;
}

const OAuthClientFile = z.object({
  installed: z.object({ client_id: z.string().min(1), client_secret: z.string().min(1).optional() }).optional(),
  web: z.object({ client_id: z.string().min(1), client_secret: z.string().min(1).optional() }).optional(),
});

export function gmailTokenFile(box: GmailMailbox, env: GmailEnv): string {
  if (box.tokenFile === undefined) return join(env.dataDir, 'mail', 'gmail-token.json');
  return isAbsolute(box.tokenFile) ? box.tokenFile : resolve(env.baseDir, box.tokenFile);
}

/** The OAuth client from the config: Google's downloaded JSON, or an id with its secret named by env or file. */
export function gmailClientCredentials(box: GmailMailbox, env: GmailEnv): { clientId: string; clientSecret?: string } {
  if ('id' in box.client) {
    return {
      clientId: box.client.id,
      ...(box.client.secret ? { clientSecret: readSecret(box.client.secret, 'OAuth client secret', env) } : {}),
    };
  }
  const path = isAbsolute(box.client.file) ? box.client.file : resolve(env.baseDir, box.client.file);
  let json: unknown;
  try {
    json = JSON.parse((env.readFile ?? ((file: string) => readFileSync(file, 'utf8')))(path));
  } catch (error) {
    throw new AppError(
      'bad_config',
      `The OAuth client file ${path} could not be read as JSON (${(error as { code?: string }).code ?? 'invalid JSON'}): download it again from Google Cloud (APIs & Services, Credentials, a Desktop app client)`,
    );
  }
  const parsed = OAuthClientFile.safeParse(json);
  const client = parsed.success ? (parsed.data.installed ?? parsed.data.web) : undefined;
  if (!client)
    throw new AppError(
      'bad_config',
      `The OAuth client file ${path} has no "installed" client (${parsed.success ? 'missing' : describeZodError(parsed.error)}): create a Desktop app client in Google Cloud and download its JSON`,
    );
  return { clientId: client.client_id, ...(client.client_secret ? { clientSecret: client.client_secret } : {}) };
}

/** The Google auth library is loaded here, when a mailbox first signs in or reads mail, not at the host's start. */
export async function oauthClient(box: GmailMailbox, env: GmailEnv, redirectUri?: string): Promise<OAuth2Client> {
  const { clientId, clientSecret } = gmailClientCredentials(box, env);
  const { OAuth2Client } = await import('google-auth-library');
  return new OAuth2Client({
    clientId,
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(redirectUri !== undefined ? { redirectUri } : {}),
    endpoints: {
      ...(box.endpoints?.auth ? { oauth2AuthBaseUrl: box.endpoints.auth } : {}),
      ...(box.endpoints?.token ? { oauth2TokenUrl: box.endpoints.token } : {}),
    },
  });
}

/** Writes the sign-in atomically with mode 0600, whatever the umask: it holds a refresh token. */
export async function saveGmailToken(file: string, token: GmailToken): Promise<void> {
  await nodeInstallFs.writeAtomic(file, `${JSON.stringify(token, null, 2)}\n`, 0o600);
}

/** Reads the saved sign-in; a missing or damaged one is an error that says to sign in again. */
export function loadGmailToken(file: string, clientId: string): GmailToken {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new AppError('auth_failed', `Deputy is not signed in to Gmail (no ${file}): run \`${GMAIL_LOGIN_COMMAND}\``);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError(
      'auth_failed',
      `The Gmail sign-in file ${file} is damaged: run \`${GMAIL_LOGIN_COMMAND}\` to sign in again`,
    );
  }
  const parsed = GmailToken.safeParse(json);
  if (!parsed.success)
    throw new AppError(
      'auth_failed',
      `The Gmail sign-in file ${file} is not valid (${describeZodError(parsed.error)}): run \`${GMAIL_LOGIN_COMMAND}\``,
    );
  if (parsed.data.clientId !== clientId)
    throw new AppError(
      'auth_failed',
      `The Gmail sign-in in ${file} was made with another OAuth client: run \`${GMAIL_LOGIN_COMMAND}\` again`,
    );
  if (!parsed.data.scope.split(' ').includes(GMAIL_READONLY_SCOPE))
    throw new AppError(
      'auth_failed',
      `The Gmail sign-in in ${file} lacks read access to mail: run \`${GMAIL_LOGIN_COMMAND}\` again`,
    );
  return parsed.data;
}

/**
 * An OAuth2 client signed in from the saved token. The library refreshes the access token when it is about to expire;
 * each new token is saved back (keeping the refresh token when Google does not send a new one), so a sign-in lasts
 * until the user revokes it.
 */
export async function signedInClient(
  box: GmailMailbox,
  env: GmailEnv,
): Promise<{ client: OAuth2Client; token: () => GmailToken; file: string; saved: () => Promise<void> }> {
  const file = gmailTokenFile(box, env);
  const client = await oauthClient(box, env);
  let token = loadGmailToken(file, gmailClientCredentials(box, env).clientId);
  let saving = Promise.resolve();
  client.setCredentials(toCredentials(token));
  client.on('tokens', (fresh: Credentials) => {
    token = {
      ...token,
      ...(fresh.access_token ? { access_token: fresh.access_token } : {}),
      ...(fresh.expiry_date ? { expiry_date: fresh.expiry_date } : {}),
      ...(fresh.refresh_token ? { refresh_token: fresh.refresh_token } : {}),
    };
    const next = token;
    saving = saving.then(() => saveGmailToken(file, next)).catch(() => undefined);
  });
  return { client, token: () => token, file, saved: () => saving };
}

export function toCredentials(token: GmailToken): Credentials {
  return {
    refresh_token: token.refresh_token,
    scope: token.scope,
    ...(token.access_token ? { access_token: token.access_token } : {}),
    ...(token.expiry_date ? { expiry_date: token.expiry_date } : {}),
    ...(token.token_type ? { token_type: token.token_type } : {}),
  };
}
