import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EXTENSION_ORIGIN, PROTOCOL_VERSION } from '../shared/constants';
import { percentile } from './bench/timings';

/**
 * How soon the built host answers, beside its floor measured in the same run: a bare `node -e ""`. Each round runs
 * every case once, in turn, so a busy moment of the machine falls on all of them alike; the figures are medians.
 * Cases: `deputy --version`; the native-messaging hello as the browser sends it (spawn to reply); `deputy mcp`
 * answering `initialize` to the official MCP SDK client; and `deputy doctor`, which loads the whole CLI. Run
 * `npm run build:host` first (`npm run bench:host` does). `--rounds N` sets the number of rounds (default 11).
 */
const root = resolve(import.meta.dirname, '..');
const deputy = join(root, 'dist-host', 'deputy.mjs');
const roundsFlag = process.argv.indexOf('--rounds');
const ROUNDS = roundsFlag > 0 ? Number(process.argv[roundsFlag + 1]) : 11;
// A fresh home: doctor finds nothing installed (it reports, it does not start browsers), and nothing of the user's
// is read or written.
const home = mkdtempSync(join(tmpdir(), 'deputy-bench-host-'));
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_RUNTIME_DIR: home };

function timed(command: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, command, { env, stdio: ['ignore', 'ignore', 'ignore'] });
  if (result.error) throw result.error;
  return performance.now() - started;
}

function frame(body: unknown): Buffer {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  const header = Buffer.alloc(4);
  if (endianness() === 'LE') header.writeUInt32LE(bytes.length);
  else header.writeUInt32BE(bytes.length);
  return Buffer.concat([header, bytes]);
}

/** Spawn to the hello's reply, as Chrome starts the host (its origin as the argument) and greets it. */
function helloRoundTrip(): Promise<number> {
  return new Promise((resolveTime, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [deputy, EXTENSION_ORIGIN], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let received = Buffer.alloc(0);
    let elapsed: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (elapsed === undefined && received.length >= 4) {
        elapsed = performance.now() - started;
        child.stdin.end();
      }
    });
    child.on('error', reject);
    child.on('exit', () => (elapsed === undefined ? reject(new Error('the host exited without answering hello')) : resolveTime(elapsed)));
    child.stdin.write(frame({ kind: 'request', id: 'bench', method: 'hello', params: { protocolVersion: PROTOCOL_VERSION, client: 'extension', clientVersion: '0' } }));
  });
}

/** Spawn to the answer of `initialize`, through the official SDK client as Claude Code or Cursor would start it. */
async function mcpInitialize(): Promise<number> {
  const started = performance.now();
  const client = new Client({ name: 'bench-host', version: '0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [deputy, 'mcp'], env, stderr: 'ignore' });
  await client.connect(transport);
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}

const cases: Array<{ name: string; run: () => number | Promise<number> }> = [
  { name: 'node -e "" (the floor)', run: () => timed(['-e', '']) },
  { name: 'deputy --version', run: () => timed([deputy, '--version']) },
  { name: 'native hello round trip', run: helloRoundTrip },
  { name: 'deputy mcp: initialize answered', run: mcpInitialize },
  { name: 'deputy doctor (whole CLI)', run: () => timed([deputy, 'doctor', '--browser', 'chrome']) },
];

const times = cases.map(() => [] as number[]);
// One unmeasured round warms the disk cache for every case.
for (const item of cases) await item.run();
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [index, item] of cases.entries()) times[index]?.push(await item.run());
}
rmSync(home, { recursive: true, force: true });

const medians = times.map((list) => percentile([...list].sort((a, b) => a - b), 0.5));
const floor = medians[0] ?? Number.NaN;
process.stdout.write(`host start, median of ${ROUNDS} interleaved rounds (noisy on a busy machine; compare the ratios)\n`);
process.stdout.write(`  ${'case'.padEnd(34)} ${'median'.padStart(9)}   ${'x node'.padStart(6)}\n`);
for (const [index, item] of cases.entries()) {
  const ms = medians[index] ?? Number.NaN;
  process.stdout.write(`  ${item.name.padEnd(34)} ${ms.toFixed(1).padStart(6)} ms   ${(ms / floor).toFixed(2).padStart(6)}\n`);
}
