import { AppError } from '../../errors';
import type { CompleteOptions, Provider, ProviderReply, ProviderRequest } from './provider';

/** What the retry loop needs to know about a failed call. */
export interface ProviderErrorDetails {
  status: number | null;
  retryable: boolean;
  /** The server's Retry-After, in milliseconds, when it sent one. */
  retryAfterMs: number | null;
}

interface Where {
  label: string;
  model: string;
  baseUrl: string;
}

/** What the adapter knows from its own SDK's classes (class names do not survive minification, instanceof does). */
export interface ErrorKind {
  aborted: boolean;
  connection: boolean;
}

function readHeader(headers: unknown, name: string): string | null {
  if (headers !== null && typeof headers === 'object' && 'get' in headers && typeof headers.get === 'function') {
    const value: unknown = (headers.get as (n: string) => unknown).call(headers, name);
    return typeof value === 'string' ? value : null;
  }
  return null;
}

/** Retry-After as seconds or an HTTP date, plus the retry-after-ms header OpenAI and Anthropic also send. */
export function retryAfterMs(headers: unknown, now: number): number | null {
  const ms = readHeader(headers, 'retry-after-ms');
  if (ms !== null && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = readHeader(headers, 'retry-after');
  if (value === null) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function field(error: unknown, name: string): unknown {
  return error !== null && typeof error === 'object' && name in error ? (error as Record<string, unknown>)[name] : undefined;
}

/**
 * Maps an SDK error (both SDKs throw APIError subclasses with `status` and `headers`) to one AppError whose message
 * says what to fix. Network failures and timeouts have no status and are retried.
 */
export function toProviderError(error: unknown, where: Where, now: number, kind: ErrorKind): AppError {
  if (error instanceof AppError) return error;
  const status = field(error, 'status');
  const serverMessage = error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
  const headers = field(error, 'headers');
  const details = (retryable: boolean, s: number | null): ProviderErrorDetails => ({
    status: s,
    retryable,
    retryAfterMs: retryable ? retryAfterMs(headers, now) : null,
  });
  const at = `${where.label} (${where.baseUrl})`;

  if (kind.aborted || field(error, 'name') === 'AbortError') {
    return new AppError('cancelled', 'The model call was stopped.', { cause: error, details: details(false, null) });
  }
  if (typeof status !== 'number' && !kind.connection) {
    return new AppError('bad_reply', `${at} sent a reply Deputy cannot read (${serverMessage}). Check that the base URL points at a compatible API and that the model "${where.model}" exists there.`, {
      cause: error,
      details: details(false, null),
    });
  }
  if (typeof status !== 'number') {
    const timeout = /timeout|timed out/i.test(serverMessage);
    return new AppError(timeout ? 'timeout' : 'unavailable', `Could not reach ${at}: ${serverMessage}. Check the base URL and that the server is running.`, {
      cause: error,
      details: details(true, null),
    });
  }
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const code = text(field(error, 'code')) + text(field(field(error, 'error'), 'type'));
  if (status === 401) {
    return new AppError('auth_failed', `${at} rejected the API key (401). Check the key in Settings, or the OPENAI_API_KEY / ANTHROPIC_API_KEY / DEPUTY_API_KEY variable.`, { cause: error, details: details(false, status) });
  }
  if (status === 403) {
    return new AppError('auth_failed', `${at} refused access (403): ${serverMessage}. The key lacks permission for model "${where.model}" or this endpoint.`, { cause: error, details: details(false, status) });
  }
  if (status === 404) {
    return new AppError('not_found', `${at} has no model "${where.model}" or no such endpoint (404). Check the model name and the base URL.`, { cause: error, details: details(false, status) });
  }
  if (status === 402 || /insufficient_quota|billing|credit/i.test(code + serverMessage)) {
    return new AppError('quota_exceeded', `${at} says the account is out of quota or credit: ${serverMessage}. Add credit or use another key.`, { cause: error, details: details(false, status) });
  }
  if (status === 429) {
    return new AppError('rate_limited', `${at} is rate limiting requests (429).`, { cause: error, details: details(true, status) });
  }
  if (status === 408 || status === 409 || status >= 500) {
    return new AppError('unavailable', `${at} failed with ${status}: ${serverMessage}.`, { cause: error, details: details(true, status) });
  }
  return new AppError('bad_request', `${at} refused the request (${status}): ${serverMessage}.`, { cause: error, details: details(false, status) });
}

export function providerErrorDetails(error: AppError): ProviderErrorDetails {
  const d = error.details as Partial<ProviderErrorDetails> | undefined;
  return { status: d?.status ?? null, retryable: d?.retryable === true, retryAfterMs: d?.retryAfterMs ?? null };
}

/** The SDK's own error classes for a cancelled call and for a connection that never got an answer. */
export interface SdkErrorClasses {
  userAbort: abstract new (...args: never[]) => Error;
  connection: abstract new (...args: never[]) => Error;
}

/**
 * Wraps an adapter's call so every failure leaves it as one AppError whose code says whether to retry and what to fix,
 * the same way for every SDK.
 */
export function providerWithErrors(
  identity: Pick<Provider, 'label' | 'model' | 'vision'>,
  where: Where,
  now: () => number,
  sdk: SdkErrorClasses,
  complete: (request: ProviderRequest, options: CompleteOptions) => Promise<ProviderReply>,
): Provider {
  return {
    ...identity,
    async complete(request, callOptions = {}) {
      // The OpenAI SDK adds an abort listener to the signal it is given and never removes it; a task's signal lives for
      // the whole task, so after ten requests Node printed a MaxListenersExceededWarning into the user's terminal. Each
      // request gets its own signal, linked to the caller's for as long as the request runs.
      const outer = callOptions.signal;
      const own = outer ? new AbortController() : undefined;
      const forward = (): void => own?.abort(outer?.reason);
      if (outer?.aborted) forward();
      else outer?.addEventListener('abort', forward, { once: true });
      try {
        return await complete(request, own ? { ...callOptions, signal: own.signal } : callOptions);
      } catch (error) {
        throw toProviderError(error, where, now(), {
          aborted: error instanceof sdk.userAbort || callOptions.signal?.aborted === true,
          connection: error instanceof sdk.connection,
        });
      } finally {
        outer?.removeEventListener('abort', forward);
      }
    },
  };
}
