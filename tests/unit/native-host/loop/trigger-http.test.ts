import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayRetryTrigger, TriggerError } from '../../../../native-host/loop/trigger-error';
import { runFormTrigger, type FormFiller } from '../../../../native-host/loop/trigger-form';
import { runHttpTrigger, type HttpTriggerSpec } from '../../../../native-host/loop/trigger-http';
import { triggerRepeatable } from '../../../../native-host/loop/trigger-output';
import { withAttempts } from '../../../../native-host/loop/with-retries';
import { TriggerSpec } from '../../../../shared/protocol/loop-protocol';

// The HTTP trigger against a real server on loopback: the bodies as a service reads them, and which failures may have
// reached it (and so are not sent again unless the user marked the trigger safe to repeat).

interface Seen {
  method: string;
  path: string;
  type: string;
  authorization: string;
  body: string;
}

let server: Server;
let base: string;
let dir: string;
const seen: Seen[] = [];
/** What the next request gets: a status, or a connection torn down after the request was read. */
let answer: number | 'drop' | 'hang' = 202;

async function read(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deputy-trigger-'));
  server = createServer((request, response) => {
    void read(request).then((body) => {
      seen.push({ method: request.method ?? '', path: request.url ?? '', type: request.headers['content-type'] ?? '', authorization: request.headers.authorization ?? '', body });
      if (answer === 'drop') request.socket.destroy();
      else if (answer === 'hang') return;
      else response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 400 ? 'client is required\n' : 'queued');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const http = (spec: Record<string, unknown>): HttpTriggerSpec => TriggerSpec.parse({ url: `${base}/run`, ...spec }) as HttpTriggerSpec;
const deps = (env: Record<string, string> = {}) => ({ fetch, env });

async function send(spec: HttpTriggerSpec, env: Record<string, string> = {}): Promise<{ result: Awaited<ReturnType<typeof runHttpTrigger>>; request: Seen }> {
  seen.length = 0;
  answer = 202;
  const result = await runHttpTrigger(spec, dir, deps(env));
  return { result, request: seen[0] as Seen };
}

async function failure(spec: HttpTriggerSpec, with_: typeof answer): Promise<TriggerError> {
  answer = with_;
  const error = await runHttpTrigger(spec, dir, deps()).catch((caught: unknown) => caught);
  answer = 202;
  expect(error).toBeInstanceOf(TriggerError);
  return error as TriggerError;
}

describe('the HTTP trigger', () => {
  it('sends form fields form-encoded, repeated names and all', async () => {
    const { result, request } = await send(http({ form: { client: 'acme & co', region: ['eu', 'us'], email: 'ops@acme.test' } }));
    expect(result).toEqual({ target: `POST ${base}/run (form, 3 field(s))`, result: 'HTTP 202 Accepted' });
    expect(request).toMatchObject({ method: 'POST', type: 'application/x-www-form-urlencoded;charset=UTF-8' });
    expect(new URLSearchParams(request.body).getAll('region')).toEqual(['eu', 'us']);
    expect(request.body).toBe('client=acme+%26+co&region=eu&region=us&email=ops%40acme.test');
  });

  it('sends a JSON value as JSON, and a raw body with the type it is given', async () => {
    const json = await send(http({ json: { client: 'acme', slides: [1, 2] } }));
    expect(json.request).toMatchObject({ type: 'application/json', body: '{"client":"acme","slides":[1,2]}' });
    expect(json.result.target).toBe(`POST ${base}/run (JSON)`);
    const raw = await send(http({ method: 'PUT', body: '<job client="acme"/>', contentType: 'application/xml' }));
    expect(raw.request).toMatchObject({ method: 'PUT', type: 'application/xml', body: '<job client="acme"/>' });
  });

  it('sends files from the repo as multipart/form-data with the other fields', async () => {
    writeFileSync(join(dir, 'clients.csv'), 'name\nacme\n');
    const { request, result } = await send(http({ multipart: { client: 'acme', list: { file: 'clients.csv', type: 'text/csv' } } }));
    expect(request.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.body).toContain('name="client"\r\n\r\nacme');
    expect(request.body).toContain('name="list"; filename="clients.csv"\r\nContent-Type: text/csv\r\n\r\nname\nacme\n');
    expect(result.target).toBe(`POST ${base}/run (multipart, 2 part(s))`);
    const missing = await runHttpTrigger(http({ multipart: { list: { file: 'gone.csv' } } }), dir, deps()).catch((caught: unknown) => caught as TriggerError);
    expect(missing).toMatchObject({ final: true, sent: false });
    expect((missing as Error).message).toContain(`The trigger's file ${join(dir, 'gone.csv')} for the field "list" cannot be read (ENOENT)`);
  });

  it('reads a header secret from the environment and never names its value', async () => {
    const spec = http({ form: { client: 'acme' }, headers: { authorization: { env: 'SERVICE_TOKEN' } } });
    const { request, result } = await send(spec, { SERVICE_TOKEN: 'Bearer s3cret-token' });
    expect(request.authorization).toBe('Bearer s3cret-token');
    expect(JSON.stringify(result)).not.toContain('s3cret');
    const error = await failure(spec, 500);
    expect(error.message).not.toContain('s3cret');
    const unset = await runHttpTrigger(spec, dir, deps()).catch((caught: unknown) => caught as TriggerError);
    expect(unset).toMatchObject({ final: true, sent: false });
    expect((unset as Error).message).toContain('SERVICE_TOKEN');
  });

  it('a GET carries no body: the definition says so', () => {
    expect(TriggerSpec.safeParse({ url: `${base}/run`, method: 'GET', form: { a: 'b' } }).success).toBe(false);
    expect(TriggerSpec.safeParse({ url: `${base}/run`, json: {}, form: { a: 'b' } }).success).toBe(false);
  });
});

describe('which failed triggers are sent again', () => {
  it('an error answer or a connection broken after the request went out may have started the job', async () => {
    const spec = http({ form: { client: 'acme' } });
    const refused = await failure(spec, 400);
    expect(refused.sent).toBe(true);
    expect(refused.message).toBe(`The trigger POST ${base}/run (form, 1 field(s)) answered HTTP 400 ("client is required"): check the URL, the fields and that the job can be started`);
    const dropped = await failure(spec, 'drop');
    expect(dropped.sent).toBe(true);
    expect(dropped.message).toContain('the connection broke after the request went out, so the service may have started the job');
    const slow = await failure(http({ form: { client: 'acme' }, timeoutSeconds: 1 }), 'hang');
    expect(slow).toMatchObject({ code: 'timeout', sent: true });
    expect(slow.message).toContain('got no answer within 1 s: the service may have started the job anyway');
  });

  it('a refused connection never reached the service', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await runHttpTrigger(TriggerSpec.parse({ url: `http://127.0.0.1:${port}/run`, form: { a: 'b' } }) as HttpTriggerSpec, dir, deps()).catch((caught: unknown) => caught as TriggerError);
    expect(error).toMatchObject({ sent: false, final: false });
    expect((error as Error).message).toContain('could not be sent (ECONNREFUSED): check that the service is up and the URL is right');
  });

  it('a POST or a form is repeatable only when marked so; a command, GET and PUT always are', () => {
    expect(triggerRepeatable(TriggerSpec.parse({ url: 'https://svc.test/run' }))).toBe(false);
    expect(triggerRepeatable(TriggerSpec.parse({ url: 'https://svc.test/run', idempotent: true }))).toBe(true);
    expect(triggerRepeatable(TriggerSpec.parse({ url: 'https://svc.test/run', method: 'PUT' }))).toBe(true);
    expect(triggerRepeatable(TriggerSpec.parse({ command: 'make report' }))).toBe(true);
    expect(triggerRepeatable(TriggerSpec.parse({ page: 'https://svc.test/request', fields: { Client: 'acme' }, confirm: 'Thanks' }))).toBe(false);
    const sent = new TriggerError('unavailable', 'answered HTTP 500', true);
    const neverSent = new TriggerError('unavailable', 'ECONNREFUSED', false);
    const final = new TriggerError('bad_config', 'no such field', false, true);
    expect([mayRetryTrigger(sent, false), mayRetryTrigger(sent, true), mayRetryTrigger(neverSent, false), mayRetryTrigger(final, true)]).toEqual([false, true, true, false]);
  });

  it('through the retry policy: a POST that reached the service goes out once, one marked idempotent up to three times', async () => {
    const clock = { sleep: () => Promise.resolve() };
    const attempt = (spec: HttpTriggerSpec) => async () => {
      seen.length = 0;
      return withAttempts({ attempts: 3, backoffSeconds: 1 }, clock, () => runHttpTrigger(spec, dir, deps()), { retryable: (error) => mayRetryTrigger(error, triggerRepeatable(spec)) }).catch(() => seen.length);
    };
    answer = 500;
    try {
      expect(await attempt(http({ form: { client: 'acme' } }))()).toBe(1);
      expect(await attempt(http({ form: { client: 'acme' }, idempotent: true }))()).toBe(3);
    } finally {
      answer = 202;
    }
  });
});

describe('the web form trigger', () => {
  const page = TriggerSpec.parse({ page: 'https://svc.test/request', fields: { Client: 'acme', Email: 'ops@acme.test' }, confirm: 'on its way' }) as Extract<TriggerSpec, { page: string }>;

  it('reports the confirmation the page showed', async () => {
    const fill: FormFiller = (request) => Promise.resolve({ accepted: true, submitted: true, message: 'accepted', confirmation: 'Thank you: your report is on its way', url: request.url, fields: [] });
    await expect(runFormTrigger(page, fill)).resolves.toEqual({ target: 'the form on https://svc.test/request (2 fields)', result: 'form accepted: "Thank you: your report is on its way"' });
  });

  it('a field the page lacks was never sent and is not tried again; a missing confirmation after the submit may have started the job', async () => {
    const missing = await runFormTrigger(page, () => Promise.resolve({ accepted: false, submitted: false, failedAt: 'fill', message: 'The page has no field "Email" (it has: Client, E-mail address)', url: page.page, fields: [] })).catch((caught: unknown) => caught as TriggerError);
    expect(missing).toMatchObject({ sent: false, final: true });
    const unconfirmed = await runFormTrigger(page, () => Promise.resolve({ accepted: false, submitted: true, failedAt: 'confirm', message: 'The page did not say "on its way" within 30 s', pageExcerpt: 'Server error', url: page.page, fields: [] })).catch((caught: unknown) => caught as TriggerError);
    expect(unconfirmed).toMatchObject({ code: 'timeout', sent: true, final: false });
    expect((unconfirmed as Error).message).toBe('The page did not say "on its way" within 30 s. The page shows: "Server error"');
    const crashed = await runFormTrigger(page, () => Promise.reject(new Error('the browser closed'))).catch((caught: unknown) => caught as TriggerError);
    expect(crashed).toMatchObject({ sent: true });
    expect((crashed as Error).message).toBe('Filling the form on https://svc.test/request (2 fields) failed: the browser closed');
  });

  it('without a browser, says how to get one, and is not retried', async () => {
    const error = await runFormTrigger(page, undefined).catch((caught: unknown) => caught as TriggerError);
    expect(error).toMatchObject({ final: true, sent: false });
    expect((error as Error).message).toContain("no browser with Deputy's extension is connected");
  });
});
