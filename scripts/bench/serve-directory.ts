import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.jsx': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface DirectoryServer {
  origin: string;
  port: number;
  /**
   * The address of a path under a host name: `127.0.0.1` by default; `localhost`, or in tests a name such as
   * `shop.test` (see tests/e2e/support/test-hosts.ts), reaches the same server as another origin.
   */
  url(path: string, host?: string): string;
  close(): Promise<void>;
}

/**
 * A static file server on 127.0.0.1 for the corpus and fixture pages. `root` is a folder, or URL prefixes mapped to
 * folders (longest prefix wins); nothing outside those folders is served.
 */
export async function serveDirectory(root: string | Record<string, string>): Promise<DirectoryServer> {
  const mounts = Object.entries(typeof root === 'string' ? { '/': root } : root).sort((a, b) => b[0].length - a[0].length);
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const mount = mounts.find(([prefix]) => path.startsWith(prefix));
    if (!mount) {
      response.writeHead(404).end();
      return;
    }
    const [prefix, dir] = mount;
    const rest = path.slice(prefix.length);
    const file = normalize(join(dir, rest === '' || rest.endsWith('/') ? `${rest}index.html` : rest));
    if (file !== normalize(dir) && !file.startsWith(normalize(dir) + sep)) {
      response.writeHead(403).end();
      return;
    }
    stat(file).then(
      (info) => {
        if (!info.isFile()) throw new Error('not a file');
        response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        createReadStream(file).pipe(response);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    url: (path, host = '127.0.0.1') => `http://${host}:${port}${path}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
