import { AppError } from '../../shared/errors';
import { GMAIL_LOGIN_COMMAND } from './gmail-token';

interface GaxiosLike {
  code?: string | number;
  status?: number;
  response?: { status?: number; data?: unknown };
  message?: string;
}

const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'UND_ERR_SOCKET',
]);

/** The short reason Google gives in an error body ("invalid_grant", "insufficientPermissions"), never the request. */
function reasonOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const body = data as { error?: unknown; error_description?: unknown };
  if (typeof body.error === 'string')
    return typeof body.error_description === 'string' ? `${body.error}: ${body.error_description}` : body.error;
  if (typeof body.error === 'object' && body.error !== null) {
    const inner = body.error as { status?: unknown; message?: unknown };
    if (typeof inner.message === 'string') return inner.message;
    if (typeof inner.status === 'string') return inner.status;
  }
  return undefined;
}

/**
 * Turns a Gmail API or token endpoint failure into an AppError built from the status and Google's reason only. The
 * library's error object also carries the request, whose headers hold the access token, so it is never passed on.
 */
export function gmailApiError(error: unknown, doing: string): AppError {
  if (error instanceof AppError) return error;
  const err = (error ?? {}) as GaxiosLike;
  const status = err.response?.status ?? err.status;
  const reason = reasonOf(err.response?.data);
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  const code = typeof err.code === 'string' ? err.code : cause;
  if (code !== undefined && NETWORK.has(code))
    return new AppError('disconnected', `Gmail could not be reached while ${doing} (${code})`);
  if (reason?.startsWith('invalid_grant') === true || status === 401) {
    return new AppError(
      'auth_failed',
      `Gmail refused the saved sign-in while ${doing} (${reason ?? `HTTP ${status}`}): it was revoked or has expired; run \`${GMAIL_LOGIN_COMMAND}\` again`,
    );
  }
  if (status === 403)
    return new AppError(
      'forbidden',
      `Gmail refused access while ${doing} (${reason ?? 'HTTP 403'}): check that the Gmail API is enabled for the OAuth client's project and that read access was granted`,
    );
  if (status === 404) return new AppError('not_found', `Gmail found nothing while ${doing} (${reason ?? 'HTTP 404'})`);
  if (status === 429 || (status !== undefined && status >= 500))
    return new AppError('unavailable', `Gmail is busy or failing (HTTP ${status}) while ${doing}; Deputy tries again`);
  return new AppError(
    'unavailable',
    `Gmail failed while ${doing} (${reason ?? (status !== undefined ? `HTTP ${status}` : (code ?? 'unknown error'))})`,
  );
}
