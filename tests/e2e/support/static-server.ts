import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Routes = Record<string, string | { body: string; type?: string; headers?: Record<string, string> }>;

export interface StaticServer {
  port: number;
  /**
   * The address of a path under a host name: `127.0.0.1` by default; `localhost`, or in tests a name such as
   * `shop.test` (see tests/e2e/support/test-hosts.ts), reaches the same server as another origin.
   */
  url(path: string, host?: string): string;
  /** Every request served so far, as `host` + path and query (e.g. "evil.test:4321/collect?c=1"), oldest first. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves fixed pages from memory on loopback, for fixture pages that need a real origin. */
export async function serveRoutes(routes: Routes | ((url: StaticServer['url']) => Routes)): Promise<StaticServer> {
  let port = 0;
  const requests: string[] = [];
  const url: StaticServer['url'] = (path, host = '127.0.0.1') => `http://${host}:${port}${path}`;
  const server: Server = createServer((request, response) => {
    requests.push(`${request.headers.host ?? ''}${request.url ?? '/'}`);
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const table = typeof routes === 'function' ? routes(url) : routes;
    const route = table[path];
    if (route === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const { body, type, headers } = typeof route === 'string' ? { body: route, type: undefined, headers: undefined } : route;
    response.writeHead(200, { 'content-type': type ?? 'text/html; charset=utf-8', ...headers }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Listening on 127.0.0.1 only; "localhost" resolves there too in Chromium, giving a second origin on the same port.
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
