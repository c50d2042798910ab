import { type IncomingMessage, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type RecordedRequest, readBody } from '../../tests/fixtures/fake-provider/fake-provider-server';

/**
 * A pass-through on loopback between Deputy and a real model provider that keeps every request's body, so
 * `bench:safety --provider` can search what reached the model for the user's secrets, as it does with the scripted
 * model's server. Requests and replies go through byte for byte (streams as they come); nothing is logged, and the key
 * in the headers is forwarded, never kept apart from the request it came with.
 */
export interface ModelRecorder {
  /** The provider's base URL with this machine's address in place of the provider's: what Settings should hold. */
  baseUrl: string;
  /** Every request Deputy sent the provider, in order, with its exact bytes. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Starts the recorder in front of `baseUrl` (e.g. https://api.anthropic.com, or http://localhost:11434/v1). */
export async function startModelRecorder(baseUrl: string): Promise<ModelRecorder> {
  const target = new URL(baseUrl);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`The model's base URL must be http(s), not ${baseUrl}`);
  const requests: RecordedRequest[] = [];
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bytes = await readBody(req);
    const path = req.url ?? '/';
    const text = bytes.toString('utf8');
    requests.push({ method: req.method ?? 'GET', path: path.replace(/\?.*$/, ''), headers: { ...req.headers }, bytes, text, json: parse(text) });
    const upstream = send(new URL(path, target.origin), { method: req.method ?? 'GET', headers: { ...req.headers, host: target.host } }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: `The model recorder could not reach ${target.origin}: ${error.message}` } }));
    });
    upstream.end(bytes);
  }

  const server = createServer((req, res) => {
    forward(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname === '/' ? '' : target.pathname}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
