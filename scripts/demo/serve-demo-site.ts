import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, extname, join, normalize, resolve } from 'node:path';

const SITE_DIR = resolve(import.meta.dirname, 'site');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export interface DemoSite {
  url: string;
  close(): Promise<void>;
}

/**
 * A page of the shop: its file holds its `<title>` line and its `<main>`; the head, the shop's header and the scripts
 * every page shares come from `_layout.html`.
 */
async function renderPage(file: string): Promise<string> {
  const [layout, page] = await Promise.all([readFile(join(SITE_DIR, '_layout.html'), 'utf8'), readFile(file, 'utf8')]);
  const newline = page.indexOf('\n');
  return layout.replace('<!-- title -->', page.slice(0, newline)).replace('<!-- main -->', page.slice(newline + 1).trimEnd());
}

/** Serves the bundled demo shop (products, cart, account form, support chat) on loopback. */
export async function serveDemoSite(port = 0): Promise<DemoSite> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://demo').pathname;
    const file = normalize(join(SITE_DIR, path === '/' ? 'index.html' : path));
    if (!file.startsWith(SITE_DIR) || basename(file).startsWith('_')) {
      response.writeHead(403).end();
      return;
    }
    (extname(file) === '.html' ? renderPage(file) : readFile(file)).then(
      (body) => response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
