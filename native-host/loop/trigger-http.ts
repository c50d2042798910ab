import { readFileSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import type { TriggerSpec } from '../../shared/protocol/loop-protocol';
import { readSecret } from '../mail/mail-secret';
import { TriggerError } from './trigger-error';

export type HttpTriggerSpec = Extract<TriggerSpec, { url: string }>;

export interface HttpTriggerDeps {
  fetch: typeof fetch;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
}

/** Network failures that happen before a request leaves this machine: the service cannot have seen it. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);
/** Failures no second attempt can cure: the server's certificate is not trusted. */
const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/;

/** The error code under fetch's "fetch failed" (an AggregateError when every address of a name refused). */
function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; errors?: Array<{ code?: string }> } }).cause;
  return cause?.code ?? cause?.errors?.[0]?.code ?? (error instanceof Error ? error.name : String(error));
}

/** The request's body and a word for it, for the event ("form, 3 fields"). */
function requestBody(spec: HttpTriggerSpec, repo: string): { body?: BodyInit; type?: string; what: string } {
  if (spec.body !== undefined) return { body: spec.body, type: spec.contentType ?? 'application/json', what: `${spec.body.length} bytes` };
  if (spec.json !== undefined) return { body: JSON.stringify(spec.json), type: 'application/json', what: 'JSON' };
  if (spec.form !== undefined) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.form)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
    // fetch sets application/x-www-form-urlencoded;charset=UTF-8 for URLSearchParams.
    return { body: form, what: `form, ${Object.keys(spec.form).length} field(s)` };
  }
  if (spec.multipart !== undefined) {
    const data = new FormData();
    for (const [name, value] of Object.entries(spec.multipart)) {
      if (typeof value === 'string') {
        data.append(name, value);
        continue;
      }
      const path = isAbsolute(value.file) ? value.file : resolve(repo, value.file);
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch (error) {
        throw new TriggerError('bad_config', `The trigger's file ${path} for the field "${name}" cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): check the path in "multipart"`, false, true);
      }
      data.append(name, new Blob([new Uint8Array(bytes)], { type: value.type ?? 'application/octet-stream' }), basename(path));
    }
    // fetch writes the multipart/form-data type with its boundary.
    return { body: data, what: `multipart, ${Object.keys(spec.multipart).length} part(s)` };
  }
  return { what: 'no body' };
}

/** The headers with secrets read where they are kept; a missing secret is a configuration error said at once. */
function requestHeaders(spec: HttpTriggerSpec, repo: string, env: HttpTriggerDeps['env']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.headers)) {
    try {
      headers[name] = typeof value === 'string' ? value : readSecret(value, `trigger header ${name}`, { env, baseDir: repo });
    } catch (error) {
      throw new TriggerError('bad_config', error instanceof Error ? error.message : String(error), false, true);
    }
  }
  return headers;
}

/** "POST https://svc.test/run (form, 2 field(s))": what was sent, never a header's value. */
export function describeHttpTrigger(spec: HttpTriggerSpec, what: string): string {
  return `${spec.method} ${spec.url} (${what})`;
}

/**
 * Sends the trigger request. A failure says whether it may have reached the service (TriggerError.sent): refused and
 * unresolvable requests were not; a timeout or an error answer may have started the job.
 */
export async function runHttpTrigger(spec: HttpTriggerSpec, repo: string, deps: HttpTriggerDeps): Promise<{ target: string; result: string }> {
  const headers = requestHeaders(spec, repo, deps.env);
  const { body, type, what } = requestBody(spec, repo);
  if (type !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = type;
  const target = describeHttpTrigger(spec, what);
  let response: Response;
  try {
    const timeout = AbortSignal.timeout(spec.timeoutSeconds * 1000);
    response = await deps.fetch(spec.url, {
      method: spec.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: deps.signal ? AbortSignal.any([timeout, deps.signal]) : timeout,
    });
  } catch (error) {
    if (deps.signal?.aborted) throw new AppError('cancelled', `Stopped while sending ${target}`);
    const code = networkCode(error);
    if (code === 'TimeoutError') {
      throw new TriggerError('timeout', `The trigger ${target} got no answer within ${spec.timeoutSeconds} s: the service may have started the job anyway`, true);
    }
    if (CERTIFICATE.test(code)) {
      throw new TriggerError('unavailable', `The trigger ${target} could not be sent: the server's certificate is not trusted (${code})`, false, true);
    }
    const sent = !NEVER_SENT.has(code);
    const hint = sent ? 'the connection broke after the request went out, so the service may have started the job' : 'check that the service is up and the URL is right';
    throw new TriggerError('unavailable', `The trigger ${target} could not be sent (${code}): ${hint}`, sent);
  }
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 300);
    throw new TriggerError('unavailable', `The trigger ${target} answered HTTP ${response.status}${text ? ` ("${text}")` : ''}: check the URL, the fields and that the job can be started`, true);
  }
  await response.body?.cancel();
  return { target, result: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}` };
}
